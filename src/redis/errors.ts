import { AffiliationError } from '../core/errors.js';

/** Codes of {@link StoreError}. @group Errors */
export type StoreErrorCode = 'store_unavailable' | 'store_failed';

/**
 * The shared store (Redis) could not answer, so the SDK could not tell whether a transaction or an
 * offer claim is valid: it fails closed and never reports a success it could not check.
 *
 * - `store_unavailable`: the connection is down or closing, the client is closed, a command timed
 *   out, or Redis is briefly unable to serve writes (`READONLY` after a failover, `LOADING`,
 *   `MASTERDOWN`, `BUSY`, `TRYAGAIN`, `CLUSTERDOWN`, `OOM`). Retry later; the shopper should start
 *   again in a moment.
 * - `store_failed`: Redis refused the command for a reason that will not pass by itself (an ACL
 *   without `EVALSHA`/`EVAL`, a key of another type under the prefix, a value the SDK did not
 *   write). Fix the configuration.
 *
 * `redisError` holds the first word of Redis's error reply (`READONLY`, `WRONGTYPE`, …) when there
 * was one; the client library's original error is in `cause`.
 *
 * @group Errors
 */
export class StoreError extends AffiliationError {
  declare readonly code: StoreErrorCode;
  /** The error kind of Redis's reply (`READONLY`, `NOPERM`, …), when Redis answered with an error. */
  readonly redisError: string | undefined;

  constructor(message: string, options: { code: StoreErrorCode; cause?: unknown; redisError?: string }) {
    super(message, {
      code: options.code,
      cause: options.cause,
      userMessage:
        options.code === 'store_unavailable'
          ? 'The shop could not check your validation just now. Please try again in a moment.'
          : 'This shop is not configured correctly. Please contact the shop.',
    });
    this.redisError = options.redisError;
  }
}
