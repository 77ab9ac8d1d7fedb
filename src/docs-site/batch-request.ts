import type { DocsSiteError } from './errors.js';

/*
 * The public types and limits of `DocsSiteClient.batch()`; the batch logic is in ./batch.ts.
 */

/** The batch route's own limit (spec section 8). */
export const MAX_BATCH_ITEMS = 25;

/** Most batch calls `concurrency` may keep in flight. */
export const MAX_BATCH_CONCURRENCY = 8;

/**
 * One request inside a `/batch/v1` call. `path` is relative to the REST root (`/wp/v2/posts/5`)
 * and may carry a query string.
 *
 * @group Docs site
 */
export interface BatchRequest {
  /** Default `POST`. */
  method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | undefined;
  path: string;
  body?: Record<string, unknown> | undefined;
  headers?: Record<string, string | string[]> | undefined;
}

/** A request that passed the checks: method upper-cased and path starting with `/`. */
export type CheckedBatchRequest = Required<Pick<BatchRequest, 'method' | 'path'>> &
  Pick<BatchRequest, 'body' | 'headers'>;

/**
 * Options of `DocsSiteClient.batch()`.
 *
 * @group Docs site
 */
export interface BatchOptions {
  /**
   * `normal` (default): every item runs on its own; more than the limit (25) is split into several
   * calls (one after the other unless `concurrency` says otherwise). `require-all-validate`:
   * nothing runs unless every item validates; more than the limit is refused, because atomicity
   * cannot span calls.
   */
  validation?: 'normal' | 'require-all-validate' | undefined;
  /**
   * Calls to the batch route in flight at once when a `normal` batch is split (1–8). Default `1`:
   * the calls go one after the other, so the items run in the order given. With more, the site
   * works on several calls at once (faster on a multi-core server), and items of different calls
   * may run in any order; use it only for items that do not depend on each other. Results are in
   * request order either way.
   */
  concurrency?: number | undefined;
  /** Called after each call to the batch route with the number of items done so far. */
  onProgress?: ((progress: { done: number; total: number }) => void) | undefined;
}

/**
 * The result of one batch item, in the order of the requests. `error` is set when the item failed:
 * its own error answer, `batch_not_executed` when it was not run because another item failed
 * validation (`require-all-validate`) or an earlier call failed, or the error of its whole call.
 *
 * @group Docs site
 */
export interface BatchResult {
  /** `true` for a 2xx item answer. */
  ok: boolean;
  /** The item's HTTP status; `undefined` when the item was not run. */
  status: number | undefined;
  /** The item's answer body (the created or updated item, or a WordPress error body). */
  body: unknown;
  /** The item's answer headers. */
  headers: Record<string, string | string[]>;
  error?: DocsSiteError;
}
