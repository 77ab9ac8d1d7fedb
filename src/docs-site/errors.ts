import { AffiliationError } from '../core/errors.js';

/**
 * Codes the client itself gives a {@link DocsSiteError}. A server error keeps the server's own
 * `code` (for example `rest_post_invalid_id`), so the union stays open.
 *
 * - `invalid_param`: a parameter or body field breaks a rule of the interface; nothing was sent.
 * - `invalid_batch`: a batch that cannot be sent as asked (too large for `require-all-validate`, a
 *   route that is not batch-capable); nothing was sent.
 * - `invalid_response`: the server answered with something that is not JSON or does not have the
 *   documented shape.
 * - `credentials_refused`: the site answered 401 although credentials were configured (a wrong
 *   application password looks anonymous on WordPress 6.1: reads work, writes get 401).
 * - `http_error`: an error status without a WordPress error body.
 * - `rest_api_not_found`: the answer did not come from the WordPress REST API (a 404 that is not a
 *   WordPress error, an HTML page, an index without `namespaces`): check the REST root (`restRoot`,
 *   `routeStyle`), the base address, and that the site runs WordPress.
 * - `unexpected_redirect`: a write was redirected; it was not followed (a redirected POST becomes a GET).
 * - `batch_not_executed`: the batch item was not run because another item failed validation
 *   (`require-all-validate`) or an earlier chunk of the batch failed as a whole.
 * - `batch_failed`: the batch call carrying this item failed as a whole.
 * - `no_content_namespace`: `DocsSiteClient.connect()` found neither `cms/v2` nor `wp/v2` in the index.
 * - `application_passwords_unavailable`: the index does not advertise application passwords.
 *
 * @group Errors
 */
export type DocsSiteErrorCode = (typeof DOCS_SITE_CLIENT_CODES)[number] | (string & {});

/** The codes the client gives itself (see {@link DocsSiteErrorCode}); docs/errors.md explains each. */
export const DOCS_SITE_CLIENT_CODES = [
  'invalid_param',
  'invalid_batch',
  'invalid_response',
  'credentials_refused',
  'http_error',
  'rest_api_not_found',
  'unexpected_redirect',
  'batch_not_executed',
  'batch_failed',
  'no_content_namespace',
  'application_passwords_unavailable',
] as const;

/**
 * An error from the documentation-site client: a parameter refused before sending (`status` is
 * `undefined`), an error answer of the site (`status`, the server's `code` and `data`), or an answer
 * that does not have the documented shape. Messages never contain the application password.
 *
 * @example
 * ```ts
 * try {
 *   await docs.posts.get(999_999);
 * } catch (error) {
 *   if (error instanceof DocsSiteError && error.code === 'rest_post_invalid_id') console.log(error.status); // 404
 * }
 * ```
 *
 * @group Errors
 */
export class DocsSiteError extends AffiliationError {
  declare readonly code: DocsSiteErrorCode;
  /** HTTP status of the answer; `undefined` when nothing was sent or no answer came. */
  readonly status: number | undefined;
  /** The server's `data` member of a WordPress error body (already redacted). */
  readonly data: unknown;
  /** The parameter at fault, for `invalid_param` (a dotted path such as `modifiers.0.args.angle`). */
  readonly param: string | undefined;
  /** The server's own error code when `code` is one of ours (e.g. `rest_cannot_create` behind `credentials_refused`). */
  readonly serverCode: string | undefined;
  /** Request method, when a request was involved. */
  readonly method: string | undefined;
  /** Request path below the REST root, when a request was involved. */
  readonly path: string | undefined;

  constructor(
    message: string,
    options: {
      code: DocsSiteErrorCode;
      status?: number;
      data?: unknown;
      param?: string;
      serverCode?: string;
      method?: string;
      path?: string;
      cause?: unknown;
    },
  ) {
    super(message, {
      code: options.code,
      cause: options.cause,
      userMessage: 'The documentation site could not complete the request.',
    });
    this.status = options.status;
    this.data = options.data;
    this.param = options.param;
    this.serverCode = options.serverCode;
    this.method = options.method;
    this.path = options.path;
  }
}

/** Shorthand for a client-side parameter error naming the parameter; `cause` keeps a lower error. */
export function invalidParam(param: string, message: string, where?: string, cause?: unknown): DocsSiteError {
  const prefix = where ? `${where}: ` : '';
  return new DocsSiteError(`${prefix}parameter "${param}" ${message}`, {
    code: 'invalid_param',
    param,
    cause,
  });
}
