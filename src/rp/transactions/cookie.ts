import { hkdfSync } from 'node:crypto';
import { compactDecrypt } from 'jose/jwe/compact/decrypt';
import { CompactEncrypt } from 'jose/jwe/compact/encrypt';
import { OptionsError } from '../../core/errors.js';
import { ValidationError } from '../errors.js';
import type { Transaction, TransactionContext, TransactionStore } from '../types.js';
import { cookieValues, TransactionCookies } from './cookies.js';
import { checkTransaction, clock, describe, positiveInteger } from './options.js';

/** Options of {@link CookieTransactionStore}. @group Transactions */
export interface CookieTransactionStoreOptions {
  /**
   * The sealing secret, at least 32 bytes (a string counts its UTF-8 bytes), shared by every app
   * instance. The AES-256-GCM key is derived from it with HKDF-SHA-256 (empty salt, info
   * `affiliation-validation/transaction-cookie/v1`), so the raw secret is never used as a key.
   * Changing it invalidates transactions in flight (their callbacks fail with `unknown_state`).
   */
  secret: string | Uint8Array;
  /**
   * Cookie name prefix; each transaction gets its own cookie `<cookieName>_<16 chars>` (see
   * {@link CookieTransactionStore.cookieNameFor}). A `__Host-` prefix requires `secure` and path `/`.
   * Default `'__Host-av_tx'` (the browser then takes the cookie only from this very host, so a
   * sibling subdomain cannot plant one), or `'av_tx'` when `secure` is off or `path` is not `/`.
   */
  cookieName?: string;
  /**
   * Longest life of a transaction cookie, in milliseconds (`Max-Age` and the sealed expiry); a
   * transaction's own `expiresAt` applies when earlier. Default `600_000` (10 minutes).
   */
  ttlMs?: number;
  /** Set the `Secure` attribute. Turn off only for plain-http local development. Default `true`. */
  secure?: boolean;
  /**
   * The `SameSite` attribute. Default `'lax'`: the callback is a top-level cross-site GET
   * navigation from the service, which `Lax` cookies survive. `'strict'` cookies are NOT sent on
   * that redirect, so use it only when the callback is reached through a same-site step (e.g. the
   * fragment relay's form POST).
   */
  sameSite?: 'lax' | 'strict';
  /** The `Path` attribute; the callback route must lie under it. Default `'/'`. */
  path?: string;
  /** Clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
}

/** Browsers accept about 4096 bytes per cookie (name, value and attributes). */
export const MAX_COOKIE_BYTES = 4096;

const HKDF_INFO = 'affiliation-validation/transaction-cookie/v1';
const SEAL_RE = /^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A stateless {@link TransactionStore} for several app instances: each transaction travels to the
 * browser in its own cookie, sealed (encrypted and authenticated) as a compact JWE with `dir` +
 * `A256GCM`. The seal holds the transaction, the `state` it belongs to and its expiry, so a cookie
 * cannot be read, altered, moved to another state or kept alive past its time.
 *
 * Usage: send `await store.put(transaction)` as a `Set-Cookie` header with the redirect; on the
 * callback call `store.take(state, { cookie: request.headers.cookie })` and send
 * `store.clearCookie(state)` as a `Set-Cookie` header with the response.
 *
 * Outcomes of `take`: the transaction; `undefined` when no cookie for this state came with the
 * request; `ValidationError('expired_transaction')` when its time has passed;
 * `ValidationError('unknown_state')` when a cookie for this state is present but cannot be opened
 * (altered, sealed with another secret, or sealed for another state). Errors from jose never leave
 * the store.
 *
 * Replay: a stateless store cannot remember that a transaction was taken, so within its lifetime a
 * cookie that was copied before the callback could be offered again. What still holds: the client
 * deletes the cookie on every callback (`clearCookie`), the service's authorization codes are
 * single-use, and the ID token is bound to the transaction by its `nonce`, so a replayed cookie
 * brings nothing without a fresh, matching answer from the service. Where that is not enough, use
 * a server-side store ({@link MemoryTransactionStore} or a shared one).
 *
 * @example
 * ```ts
 * const transactions = new CookieTransactionStore({ secret: process.env.TX_COOKIE_SECRET! });
 * ```
 * @group Transactions
 */
export class CookieTransactionStore implements TransactionStore {
  readonly #key: Uint8Array;
  readonly #cookies: TransactionCookies;
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(options: CookieTransactionStoreOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new OptionsError('CookieTransactionStore options must be an object with a `secret`');
    }
    const secret = options.secret;
    let secretBytes: Uint8Array;
    if (typeof secret === 'string') secretBytes = encoder.encode(secret);
    else if (secret instanceof Uint8Array) secretBytes = secret;
    else
      throw new OptionsError(`Option \`secret\` must be a string or a Uint8Array, got ${describe(secret)}`);
    if (secretBytes.byteLength < 32) {
      throw new OptionsError(
        `Option \`secret\` must be at least 32 bytes, got ${secretBytes.byteLength} (generate one with \`openssl rand -base64 32\`)`,
      );
    }
    this.#key = new Uint8Array(hkdfSync('sha256', secretBytes, new Uint8Array(0), HKDF_INFO, 32));

    this.#cookies = new TransactionCookies(options, 'av_tx');
    this.#ttlMs = positiveInteger('ttlMs', options.ttlMs, 600_000, 24 * 60 * 60 * 1000);
    this.#now = clock(options.now);
  }

  /**
   * The name of the cookie that holds the transaction for `state`: the prefix, `_`, and the first
   * 16 base64url characters (96 bits) of SHA-256(state). One cookie per transaction, so several
   * validations in several tabs do not overwrite each other.
   */
  cookieNameFor(state: string): string {
    return this.#cookies.nameFor(state);
  }

  /**
   * Seal the transaction and return the `Set-Cookie` header value that carries it.
   *
   * @throws {OptionsError} when the transaction is malformed, or too large for one cookie (over
   *   {@link MAX_COOKIE_BYTES}; usually a very long `redirectUri` or `idpHint`).
   */
  async put(transaction: Transaction, _context?: TransactionContext): Promise<string> {
    checkTransaction(transaction);
    const now = this.#now();
    const sealExpiresAt = Math.min(transaction.expiresAt, now + this.#ttlMs);
    const payload: SealedPayload = { v: 1, x: sealExpiresAt, t: transaction };
    const seal = await new CompactEncrypt(encoder.encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .encrypt(this.#key);
    const maxAge = Math.max(0, Math.ceil((sealExpiresAt - now) / 1000));
    const header = this.#cookies.set(transaction.state, seal, maxAge);
    if (header.length > MAX_COOKIE_BYTES) {
      throw new OptionsError(
        `The sealed transaction needs ${header.length} bytes, more than a browser keeps in one cookie (${MAX_COOKIE_BYTES}); ` +
          'shorten the redirectUri or idpHint, or use a server-side transaction store',
      );
    }
    return header;
  }

  /**
   * Open the transaction for `state` from the request's `cookie` header. The caller must also send
   * {@link clearCookie} with its response.
   */
  async take(state: string, context?: TransactionContext): Promise<Transaction | undefined> {
    if (typeof state !== 'string' || state === '') return undefined;
    const header = context?.cookie;
    if (typeof header !== 'string' || header === '') return undefined;
    const values = cookieValues(header, this.cookieNameFor(state));
    if (values.length === 0) return undefined;

    let found: SealedPayload | undefined;
    let reason =
      'it was altered or sealed with a different secret (do all app instances share the same `secret`?)';
    for (const value of values) {
      const payload = await this.#open(value);
      if (payload === undefined) continue;
      if (payload.t.state !== state) {
        reason = 'it was sealed for another state';
        continue;
      }
      found = payload;
      break;
    }
    if (found === undefined) {
      throw new ValidationError(
        'unknown_state',
        `The transaction cookie for this state could not be used: ${reason}`,
      );
    }
    if (this.#now() >= found.x) {
      throw new ValidationError('expired_transaction', 'The transaction for this state has expired');
    }
    return found.t;
  }

  /** The `Set-Cookie` header value that deletes the transaction cookie for `state`. */
  clearCookie(state: string): string {
    return this.#cookies.clear(state);
  }

  async #open(value: string): Promise<SealedPayload | undefined> {
    if (value.length > MAX_COOKIE_BYTES || !SEAL_RE.test(value)) return undefined;
    try {
      const { plaintext } = await compactDecrypt(value, this.#key, {
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
        maxDecompressedLength: 0,
      });
      const payload: unknown = JSON.parse(decoder.decode(plaintext));
      return isSealedPayload(payload) ? payload : undefined;
    } catch {
      // Any failure to open (jose or JSON) means the cookie is not ours as sealed: never let it out.
      return undefined;
    }
  }
}

interface SealedPayload {
  /** Format version. */
  v: 1;
  /** Seal expiry, ms since the epoch. */
  x: number;
  t: Transaction;
}

function isSealedPayload(value: unknown): value is SealedPayload {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Record<string, unknown>;
  if (p.v !== 1 || typeof p.x !== 'number' || typeof p.t !== 'object' || p.t === null) return false;
  const t = p.t as Record<string, unknown>;
  return (
    typeof t.state === 'string' &&
    typeof t.nonce === 'string' &&
    (t.responseType === 'code' || t.responseType === 'id_token') &&
    Array.isArray(t.scopes) &&
    typeof t.affiliation === 'string' &&
    typeof t.redirectUri === 'string' &&
    typeof t.createdAt === 'number' &&
    typeof t.expiresAt === 'number'
  );
}
