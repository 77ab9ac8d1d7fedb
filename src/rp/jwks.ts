/**
 * The provider's signing keys, from `jwks_uri`: jose's `createRemoteJWKSet` (one cache,
 * single-flight reloads, a refetch on an unknown `kid` at most once per 30 s cooldown, keys fetched
 * again when 10 minutes old), fetched through our HTTP layer. The one thing added: when the keys are
 * due for their 10-minute refresh and that fetch fails, the cached keys stay in use (with a warning,
 * and no new attempt for the cooldown), so a brief outage of the key endpoint does not fail every
 * login.
 */
import type { CryptoKey, FlattenedJWSInput, JWSHeaderParameters } from 'jose';
// jose by subpath: only the modules used load (importing the core entry stays cheap).
import { JOSEError } from 'jose/errors';
import { createLocalJWKSet } from 'jose/jwks/local';
import { createRemoteJWKSet, customFetch } from 'jose/jwks/remote';
import { AffiliationError, TransportError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { HttpClient } from '../http/client.js';

/** A key resolver as jose's `compactVerify` takes it. */
export type KeyResolver = (header: JWSHeaderParameters, token: FlattenedJWSInput) => Promise<CryptoKey>;

/** Options of {@link createKeyResolver}. */
export interface KeyResolverOptions {
  jwksUri: string;
  http: HttpClient;
  logger: Logger;
}

/** Least time between two refetches of the keys (jose's default), in ms. */
export const KEY_REFETCH_COOLDOWN_MS = 30_000;
/** Age after which the keys are fetched again before use, in ms. */
export const KEY_MAX_AGE_MS = 600_000;

/** Whether an error of jose's remote key set is about fetching the keys, by its stable code. */
function isFetchFailure(error: unknown): boolean {
  if (error instanceof TransportError) return true;
  if (!(error instanceof JOSEError)) return false;
  // ERR_JOSE_GENERIC: a body that is not JSON; ERR_JWKS_INVALID: not a key set.
  return (
    error.code === 'ERR_JOSE_GENERIC' ||
    error.code === 'ERR_JWKS_INVALID' ||
    error.code === 'ERR_JWKS_TIMEOUT'
  );
}

/** A fetch failure of the key set → our `TransportError`. */
export function keyFetchError(error: unknown, jwksUri: string): AffiliationError {
  if (error instanceof AffiliationError) return error;
  const code = (error as { code?: unknown }).code;
  return new TransportError(
    code === 'ERR_JWKS_TIMEOUT'
      ? `Provider keys at ${jwksUri}: no answer in time`
      : code === 'ERR_JOSE_GENERIC'
        ? `Provider keys at ${jwksUri}: not JSON`
        : `Provider keys at ${jwksUri}: not a valid JSON Web Key Set`,
    {
      code: code === 'ERR_JWKS_TIMEOUT' ? 'timeout' : 'invalid_response',
      method: 'GET',
      url: jwksUri,
      cause: error,
    },
  );
}

/** The key resolver of one client: `(header, token) => key`, errors as jose's or ours. */
export function createKeyResolver(options: KeyResolverOptions): KeyResolver {
  const { jwksUri, http, logger } = options;
  const remote = createRemoteJWKSet(new URL(jwksUri), {
    cooldownDuration: KEY_REFETCH_COOLDOWN_MS,
    cacheMaxAge: KEY_MAX_AGE_MS,
    // Our HTTP layer owns the time limit (the client's timeoutMs).
    timeoutDuration: 0x7fffffff,
    headers: { accept: 'application/jwk-set+json, application/json' },
    [customFetch]: async (url: string, init: RequestInit) => {
      // jose passes its own AbortSignal.timeout; ours applies instead.
      const { signal: _signal, ...rest } = init;
      const response = await http.fetch(url, rest);
      if (response.status !== 200) {
        throw new TransportError(`Provider keys at ${jwksUri}: HTTP ${response.status}`, {
          code: 'http_status',
          status: response.status,
          method: 'GET',
          url: jwksUri,
        });
      }
      logger.debug?.('provider keys fetched', { url });
      return response;
    },
  });
  let failedAt = Number.NEGATIVE_INFINITY;
  let fallback: { jwks: unknown; set: ReturnType<typeof createLocalJWKSet> } | undefined;
  const cached = () => {
    const jwks = remote.jwks();
    if (jwks === undefined) return undefined;
    if (fallback?.jwks !== jwks) fallback = { jwks, set: createLocalJWKSet(jwks) };
    return fallback.set;
  };

  return async (header, token) => {
    const stale = remote.jwks() !== undefined && !remote.fresh;
    if (stale && Date.now() - failedAt < KEY_REFETCH_COOLDOWN_MS) {
      return (cached() as ReturnType<typeof createLocalJWKSet>)(header, token);
    }
    try {
      return await remote(header, token);
    } catch (error) {
      if (!isFetchFailure(error)) throw error;
      const keep = stale ? cached() : undefined;
      if (keep === undefined) throw keyFetchError(error, jwksUri);
      failedAt = Date.now();
      logger.warn?.('could not refresh the provider keys; using the cached ones', {
        error: error instanceof Error ? error.message : 'unknown error',
      });
      return keep(header, token);
    }
  };
}
