/*
 * What scripts send: list and read parameters and request bodies of spec sections 2 and 4.7. Their
 * interfaces are generated from the schemas that check them before sending (src/docs-site/params/,
 * scripts/docs-site-types.ts → ./generated.ts). Optional members also take `undefined` (for
 * `exactOptionalPropertyTypes`); an `undefined` member is not sent.
 */
export type * from './generated.js';

/** Options of an update. @group Docs site */
export interface UpdateOptions {
  /** The method used; the site accepts POST, PUT and PATCH for updates. Default `POST`. */
  method?: 'POST' | 'PUT' | 'PATCH' | undefined;
}
