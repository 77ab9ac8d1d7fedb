/**
 * The provider's signing keys, from `jwks_uri`: fetched once, cached, and refetched on an unknown
 * `kid` — at most once per cooldown and single-flight, so a stream of tokens with made-up key ids
 * cannot turn into a stream of requests. openid-client's own cache only refetches when its copy is
 * 60 s old, which fails every login for a minute after a key rotation; this store does not.
 */
import type { CryptoKey, FlattenedJWSInput, JSONWebKeySet, JWSHeaderParameters } from 'jose';
import { createLocalJWKSet, errors as joseErrors } from 'jose';
import { TransportError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { HttpClient } from '../http/client.js';
import { ValidationError } from './errors.js';

type LocalSet = ReturnType<typeof createLocalJWKSet>;

/** Options of {@link KeyStore}. */
export interface KeyStoreOptions {
  jwksUri: string;
  http: HttpClient;
  logger: Logger;
  /** Least time between two refetches caused by an unknown `kid`. Default 30 000 ms. */
  refetchCooldownMs?: number;
  /**
   * Age after which the keys are fetched again before use, so a key the provider withdrew stops
   * being trusted. When that fetch fails the cached keys stay in use. Default 600 000 ms (10 min).
   */
  maxAgeMs?: number;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

export class KeyStore {
  readonly #options: KeyStoreOptions;
  readonly #cooldownMs: number;
  readonly #maxAgeMs: number;
  #lastFailedRefresh = Number.NEGATIVE_INFINITY;
  #jwks: JSONWebKeySet | undefined;
  #set: LocalSet | undefined;
  /** When the current key set was fetched, ms since epoch. */
  #fetchedAt = 0;
  /** When the last refetch caused by an unknown key happened. */
  #lastUnknownKidRefetch = Number.NEGATIVE_INFINITY;
  #inflight: Promise<void> | undefined;
  #sequence = 0;
  /** Selected keys by `alg` and `kid`, for the current key set: skips selection on the hot path. */
  readonly #selected = new Map<string, CryptoKey[]>();

  constructor(options: KeyStoreOptions) {
    this.#options = options;
    this.#cooldownMs = options.refetchCooldownMs ?? 30_000;
    this.#maxAgeMs = options.maxAgeMs ?? 600_000;
  }

  /** Whether keys are loaded, and whether a fetch is under way. */
  get state(): { loaded: boolean; reloading: boolean; fetchedAt: number } {
    return {
      loaded: this.#set !== undefined,
      reloading: this.#inflight !== undefined,
      fetchedAt: this.#fetchedAt,
    };
  }

  /** The current key set and when it was fetched (for seeding openid-client's cache). */
  snapshot(): { jwks: JSONWebKeySet; fetchedAt: number } | undefined {
    return this.#jwks ? { jwks: this.#jwks, fetchedAt: this.#fetchedAt } : undefined;
  }

  /** Load the keys if they are not loaded yet. */
  async ensureLoaded(): Promise<void> {
    if (!this.#set) await this.#reload();
  }

  /**
   * Headers of tokens that verified with the current keys, by their encoded form, with `alg` and
   * the key that verified: the same bytes always parse to the same header, so a token whose header
   * segment is here needs no key resolution. Only verified headers enter, at most 16; cleared with
   * the keys.
   */
  #generation = 0;
  readonly #verifiedHeaders = new Map<string, { alg: string; keys: CryptoKey[] }>();

  /**
   * The `alg` and key of an encoded protected header that verified before with the current keys,
   * when those keys are not due for a refresh; `undefined` otherwise.
   */
  verifiedHeader(encoded: string): { alg: string; keys: CryptoKey[] } | undefined {
    const known = this.#verifiedHeaders.get(encoded);
    if (known === undefined) return undefined;
    if ((this.#options.now ?? Date.now)() - this.#fetchedAt >= this.#maxAgeMs) return undefined;
    return known;
  }

  /** Which key set is current: changes whenever fetched keys replace the set. */
  get generation(): number {
    return this.#generation;
  }

  /**
   * Remember an encoded protected header whose token verified with `key`, taken from key set
   * `generation`; ignored when the set has been replaced since (the key may be withdrawn).
   */
  rememberVerifiedHeader(
    encoded: string,
    header: JWSHeaderParameters,
    key: CryptoKey,
    generation: number,
  ): void {
    if (generation !== this.#generation) return;
    if (typeof header.alg !== 'string' || typeof header.kid !== 'string') return;
    if (this.#verifiedHeaders.size >= 16 || encoded.length > 512) return;
    this.#verifiedHeaders.set(encoded, { alg: header.alg, keys: [key] });
  }

  /**
   * The verification key(s) for a JWS header when they are already selected and the key set is
   * not due for a refresh: the synchronous hot path. `undefined` means "ask {@link keysFor}".
   */
  cachedKeysFor(header: JWSHeaderParameters): CryptoKey[] | undefined {
    if (this.#set === undefined || typeof header.kid !== 'string') return undefined;
    if ((this.#options.now ?? Date.now)() - this.#fetchedAt >= this.#maxAgeMs) return undefined;
    return this.#selected.get(`${String(header.alg)} ${header.kid}`);
  }

  /**
   * Find the verification key(s) for a JWS header. On an unknown key, refetch once (when the
   * cooldown allows) and look again; still nothing → `signature_invalid`.
   */
  async keysFor(header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey[]> {
    if (this.#set) {
      const now = (this.#options.now ?? Date.now)();
      if (now - this.#fetchedAt >= this.#maxAgeMs && now - this.#lastFailedRefresh >= this.#cooldownMs) {
        await this.#reload().catch((error: unknown) => {
          this.#lastFailedRefresh = now;
          this.#options.logger.warn?.('could not refresh the provider keys; using the cached ones', {
            error: error instanceof Error ? error.message : 'unknown error',
          });
        });
      }
    }
    const cacheKey = typeof header.kid === 'string' ? `${String(header.alg)} ${header.kid}` : undefined;
    if (cacheKey !== undefined) {
      const hit = this.#selected.get(cacheKey);
      if (hit) return hit;
    }
    if (!this.#set) await this.ensureLoaded();
    try {
      const keys = await this.#select(header, token);
      if (cacheKey !== undefined && this.#selected.size < 64) this.#selected.set(cacheKey, keys);
      return keys;
    } catch (error) {
      if (!(error instanceof joseErrors.JWKSNoMatchingKey)) throw error;
    }
    const now = (this.#options.now ?? Date.now)();
    if (this.#inflight) {
      await this.#inflight;
    } else if (now - this.#lastUnknownKidRefetch >= this.#cooldownMs) {
      this.#lastUnknownKidRefetch = now;
      this.#options.logger.info?.('unknown signing key; refetching the provider keys once', {
        kid: typeof header.kid === 'string' ? header.kid.slice(0, 64) : undefined,
      });
      await this.#reload();
    }
    try {
      return await this.#select(header, token);
    } catch (error) {
      if (error instanceof joseErrors.JWKSNoMatchingKey) {
        throw new ValidationError(
          'signature_invalid',
          `No key of the provider matches the ID token (alg ${String(header.alg)}, kid ${describeKid(header.kid)})`,
        );
      }
      throw error;
    }
  }

  async #select(header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey[]> {
    const set = this.#set as LocalSet;
    try {
      return [await set(header, token)];
    } catch (error) {
      if (error instanceof joseErrors.JWKSMultipleMatchingKeys) {
        const keys: CryptoKey[] = [];
        for await (const key of error as unknown as AsyncIterable<CryptoKey>) keys.push(key);
        return keys;
      }
      if (error instanceof joseErrors.JWKSNoMatchingKey) throw error;
      throw new ValidationError(
        'signature_invalid',
        `The provider key for the ID token cannot be used (${error instanceof Error ? error.name : 'error'})`,
      );
    }
  }

  /** Single-flight reload; a sequence number keeps a slow old fetch from overwriting a newer one. */
  #reload(): Promise<void> {
    if (this.#inflight) return this.#inflight;
    const sequence = ++this.#sequence;
    const run = (async () => {
      const jwks = await this.#fetch();
      if (sequence !== this.#sequence) return;
      this.#jwks = jwks;
      this.#set = createLocalJWKSet(jwks);
      this.#selected.clear();
      this.#verifiedHeaders.clear();
      this.#generation++;
      this.#fetchedAt = (this.#options.now ?? Date.now)();
    })();
    this.#inflight = run.finally(() => {
      this.#inflight = undefined;
    });
    return this.#inflight;
  }

  async #fetch(): Promise<JSONWebKeySet> {
    const { jwksUri, http } = this.#options;
    const response = await http.fetch(jwksUri, {
      headers: { accept: 'application/jwk-set+json, application/json' },
    });
    const fail = (message: string, code: 'http_status' | 'invalid_response') =>
      new TransportError(`Provider keys at ${jwksUri}: ${message}`, {
        code,
        status: response.status,
        method: 'GET',
        url: jwksUri,
      });
    if (response.status !== 200) throw fail(`HTTP ${response.status}`, 'http_status');
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw fail('not JSON', 'invalid_response');
    }
    const keys = (body as { keys?: unknown } | null)?.keys;
    if (
      !Array.isArray(keys) ||
      !keys.every((k) => typeof k === 'object' && k !== null && !Array.isArray(k))
    ) {
      throw fail('not a JSON Web Key Set', 'invalid_response');
    }
    try {
      createLocalJWKSet(body as JSONWebKeySet);
    } catch {
      throw fail('malformed JSON Web Key Set', 'invalid_response');
    }
    this.#options.logger.debug?.('provider keys fetched', { keys: keys.length });
    return body as JSONWebKeySet;
  }
}

function describeKid(kid: unknown): string {
  if (kid === undefined) return 'none';
  return typeof kid === 'string' ? JSON.stringify(kid.slice(0, 64)) : 'invalid';
}
