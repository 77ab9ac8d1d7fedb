/**
 * What is not a store's own business: whether a browser will drop a `Secure` cookie, and how the
 * client classifies a refused authorization code after a callback that was just accepted.
 */
import { isLoopbackHost } from '../../core/url-policy.js';
import { ProviderError, ValidationError } from '../errors.js';

/**
 * Whether browsers will drop this `Set-Cookie` value on the redirect URI: it is `Secure` and the
 * redirect URI is plain `http:` on a host that is not localhost-class. Chromium 156 and Firefox ESR
 * 153 keep `Secure` (and `__Host-`) cookies set over `http://localhost`, `http://*.localhost` and
 * `http://127.0.0.1`, and drop them on any other `http:` host (test/browser/secure-cookies.test.ts).
 */
export function secureCookieDropped(setCookie: string, redirectUri: string): boolean {
  if (!/;\s*Secure\s*(;|$)/i.test(setCookie)) return false;
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:') return false;
  return !isLoopbackHost(url.hostname);
}

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
