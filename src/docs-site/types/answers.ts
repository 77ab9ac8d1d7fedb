/*
 * The answers of the site. Their interfaces are generated from the zod schemas that check them at run
 * time (src/docs-site/schemas/, scripts/docs-site-types.ts → ./generated.ts): one source, no zod in the
 * public types. Nearly every member is optional, because `context=embed` and `_fields` return subsets,
 * and every object keeps unknown members, because plugins register their own fields.
 */
export type * from './generated.js';

/** HTTP methods the interface uses. */
export type DocsSiteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * An answer of the site: status, headers and the parsed JSON body.
 *
 * @group Docs site
 */
export interface DocsSiteResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}
