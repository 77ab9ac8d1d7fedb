/**
 * What is not a store's own business: how the client classifies a refused authorization code after a
 * callback that was just accepted.
 */
import { ProviderError, ValidationError } from '../errors.js';

/**
 * The token endpoint refused the authorization code of a callback whose transaction was just taken
 * (the state was valid, fresh and, with a binding store, from the right browser). The service says
 * `invalid_request` for a code that is unknown, already used or expired (spec 4.3; `invalid_grant`
 * in RFC 6749): with a transaction that checks out, that is a callback handled twice — two copies
 * in flight at once, which reached two app instances, or a code already redeemed — not a problem of
 * the shop. Reported as `replayed_transaction`, like every other replay, with the service's answer
 * as `cause`. Anything else passes unchanged.
 */
export function refusedCodeAsReplay(error: unknown): unknown {
  if (
    error instanceof ProviderError &&
    error.source === 'token' &&
    (error.error === 'invalid_request' || error.error === 'invalid_grant')
  ) {
    return new ValidationError(
      `The service refused the authorization code ("${error.error}"): it was already used or has expired — the callback was handled twice (a reload or a double click)`,
      { code: 'replayed_transaction', cause: error },
    );
  }
  return error;
}
