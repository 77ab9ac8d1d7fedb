import { compactDecrypt } from 'jose/jwe/compact/decrypt';
import { CompactEncrypt } from 'jose/jwe/compact/encrypt';
import { base64url, hkdfSha256 } from '../../core/crypto.js';
import { OptionsError } from '../../core/errors.js';
import { clock, integerOption, secretOption } from '../../core/options.js';
import { ValidationError } from '../errors.js';
import type { Transaction, TransactionContext, TransactionStore } from '../types.js';
import { decodeTransaction, encodeTransaction, type StoredTransaction } from './codec.js';
import { cookieHeader, cookieRequired, MAX_TRANSACTION_COOKIES, TransactionCookies } from './cookies.js';
import { GoneStates } from './gone-states.js';
import { checkTransaction } from './options.js';
import { goneError, noCookieError, replayedError, supersededError } from './outcomes.js';

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
   * Cookie name prefix: a browser holds at most three transaction cookies, `<cookieName>_0` …
   * `_2`. A `__Host-` prefix requires `secure` and path `/`.
   * Default `'__Host-av_tx'` (the browser then takes the cookie only from this very host, so a
   * sibling subdomain cannot plant one), or `'av_tx'` when `secure` is off or `path` is not `/`.
   */
  cookieName?: string | undefined;
  /**
   * Longest life of a transaction, in milliseconds (the sealed expiry); a transaction's own
   * `expiresAt` applies when earlier. The cookie itself lives 10 minutes longer, so that a late
   * callback is reported as `expired_transaction` rather than as a missing cookie. Default
   * `600_000` (10 minutes).
   */
  ttlMs?: number | undefined;
  /**
   * Most states this app instance remembers after their callback (or after a newer start
   * superseded them), each for `ttlMs`: a second callback for one of them is then told apart
   * precisely (`replayed_transaction`, superseded) even when two arrive at once. Default `10_000`.
   */
  maxRememberedStates?: number | undefined;
  /**
   * Set the `Secure` attribute. Browsers drop `Secure` cookies set over plain `http:`, except on
   * `localhost`, `*.localhost` and `127.0.0.1` (Chromium and Firefox): turn it off only for
   * plain-http development on another host name. Default `true`.
   */
  secure?: boolean | undefined;
  /**
   * The `SameSite` attribute. Default `'lax'`: the callback is a top-level cross-site GET
   * navigation from the service, which `Lax` cookies survive. `'strict'` cookies are NOT sent on
   * that redirect, so use it only when the callback is reached through a same-site step (e.g. the
   * fragment relay's form POST).
   */
  sameSite?: 'lax' | 'strict' | undefined;
  /** The `Path` attribute; the callback route must lie under it. Default `'/'`. */
  path?: string | undefined;
  /** Clock, ms since the epoch. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/**
 * Most bytes of one transaction cookie as the browser sends it back (`name=value`): three of them
 * and their `; ` separators take at most 3,070 bytes of the `Cookie` header, whatever the number of
 * starts, which leaves room for the shop's own cookies under the 4 KB that some CDNs and proxies
 * accept.
 */
export const MAX_COOKIE_PAIR_BYTES = 1022;

/** The cookie outlives its seal this long, so a late callback is told "expired", not "no cookie". */
const EXPIRED_GRACE_SECONDS = 600;
const HKDF_INFO = 'affiliation-validation/transaction-cookie/v1';
/** The JWE protected header every seal has; left out of the cookie (constant), put back to open it. */
const PROTECTED = base64url(JSON.stringify({ alg: 'dir', enc: 'A256GCM' }));
const SEAL_RE = /^[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{1,4000}\.[A-Za-z0-9_-]{22}$/;
const USED = 'used';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The locator of a state's cookie value: 16 base64url characters of the state's first 12 bytes (72
 * random bits of an SDK state, which is in the callback URL anyway; as the Redis store's binding
 * cookie does). Lets the store find the cookie of a state among the browser's three without opening
 * them, and `clearCookie` stay synchronous (a Web Crypto hash is async); the seal itself still binds
 * the state, so two states that share a tag are still told apart.
 */
function tagOf(state: string): string {
  return base64url(encoder.encode(state).subarray(0, 12)).padEnd(16, 'A');
}

/** A cookie value: a sealed transaction, a "used" marker, or something else. */
type Parsed = { kind: 'seal'; tag: string; value: string } | { kind: 'used'; tag: string } | undefined;

function parse(value: string): Parsed {
  if (value.length === 16 + 1 + USED.length && value.endsWith(`.${USED}`)) {
    return { kind: 'used', tag: value.slice(0, 16) };
  }
  if (value.length > MAX_COOKIE_PAIR_BYTES || !SEAL_RE.test(value)) return undefined;
  return { kind: 'seal', tag: value.slice(0, 16), value };
}

/**
 * A stateless {@link TransactionStore} for several app instances: each transaction travels to the
 * browser in a cookie, sealed (encrypted and authenticated) as a JWE with `dir` + `A256GCM` (its
 * constant protected header left out of the cookie). The seal holds the transaction, the `state` it
 * belongs to and its expiry, so a cookie cannot be read, altered, moved to another state or kept
 * alive past its time.
 *
 * **Cookie budget.** A browser holds at most {@link MAX_TRANSACTION_COOKIES} transaction cookies
 * (`<cookieName>_0` … `_2`) of at most {@link MAX_COOKIE_PAIR_BYTES} bytes each: the `Cookie` header
 * never carries more than 3,070 bytes of them, whatever the number of starts. Given the start
 * request's cookies (`put(tx, { cookie })`, which `createAuthorizationRequest(options, { cookie })`
 * and `startHandler()` pass), a start takes a free cookie or replaces the browser's oldest
 * validation, whose callback is then refused as superseded.
 *
 * Usage: send `await store.put(transaction, { cookie })` as a `Set-Cookie` header with the
 * redirect; on the callback call `store.take(state, { cookie })` and send
 * `store.clearCookie(state, { cookie })` as a `Set-Cookie` header with the response
 * (`callbackHandler()` does all of this).
 *
 * Outcomes of `take` (each `unknown_state` message says which case it is): the transaction;
 * `expired_transaction`; `replayed_transaction` when the callback was already handled (the
 * browser carries the "used" marker `clearCookie` left, or this instance took the state before);
 * `unknown_state` when the request carries no transaction cookie at all, none for this state (the
 * validation was superseded, or the callback was opened in another browser), or one that does not
 * open (altered, sealed with another secret, or sealed for another state).
 * `OptionsError` when the callback's cookies were not passed at all. Errors from jose never leave
 * the store.
 *
 * Replay: the seal cannot be revoked, so each instance remembers the states it took (option
 * `maxRememberedStates`), and `clearCookie` replaces the cookie with a "used" marker that any
 * instance recognises. Two copies of one callback that reach two instances at the same moment both
 * open the seal; the service's authorization code is single-use, so the second exchange is refused
 * and reported as `replayed_transaction` as well.
 *
 * @example
 * ```ts
 * const transactions = new CookieTransactionStore({ secret: process.env.TX_COOKIE_SECRET! });
 * ```
 * @group Transactions
 */
export class CookieTransactionStore implements TransactionStore {
  readonly #secret: Uint8Array;
  #key: Promise<Uint8Array> | undefined;
  readonly #cookies: TransactionCookies;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #remembered: GoneStates;

  constructor(options: CookieTransactionStoreOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new OptionsError('CookieTransactionStore options must be an object with a `secret`');
    }
    this.#secret = secretOption(options.secret);

    this.#cookies = new TransactionCookies(options, 'av_tx');
    this.#ttlMs = integerOption('ttlMs', options.ttlMs, 600_000, { max: 24 * 60 * 60 * 1000 });
    this.#now = clock(options.now);
    const remember = integerOption('maxRememberedStates', options.maxRememberedStates, 10_000);
    this.#remembered = new GoneStates(remember, this.#ttlMs);
  }

  /** Always `true`: the transaction is in the browser's cookie, so `take` needs the callback's cookies. */
  get bindsToBrowser(): true {
    return true;
  }

  /** The names of the transaction cookies (`<cookieName>_0` … `_2`). */
  get cookieNames(): string[] {
    return Array.from({ length: MAX_TRANSACTION_COOKIES }, (_, slot) => this.#cookies.nameOf(slot));
  }

  /**
   * Seal the transaction and return the ONE `Set-Cookie` header value that carries it.
   * `context.cookie` is the start request's `Cookie` header: with it the cookie goes into a free
   * name, or replaces the browser's oldest validation (superseded); without it always into the
   * first name (one validation per browser).
   *
   * @throws {OptionsError} when the transaction is malformed, or too large for the cookie budget
   *   (over {@link MAX_COOKIE_PAIR_BYTES}; usually a very long `redirectUri` or `idpHint`).
   */
  async put(transaction: Transaction, context?: TransactionContext): Promise<string> {
    checkTransaction(transaction);
    const now = this.#now();
    const sealExpiresAt = Math.min(transaction.expiresAt, now + this.#ttlMs);
    const jwe = await new CompactEncrypt(encoder.encode(encodeTransaction(transaction, sealExpiresAt)))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .encrypt(await this.#aesKey());
    const [, , iv, ciphertext, tag] = jwe.split('.');
    const value = `${tagOf(transaction.state)}.${iv}.${ciphertext}.${tag}`;
    const pairBytes = this.#cookies.nameOf(0).length + 1 + value.length;
    if (pairBytes > MAX_COOKIE_PAIR_BYTES) {
      throw new OptionsError(
        `The sealed transaction needs ${pairBytes} bytes, more than the ${MAX_COOKIE_PAIR_BYTES} a transaction cookie may take ` +
          `(a browser holds up to ${MAX_TRANSACTION_COOKIES} and the Cookie header must stay small); ` +
          'shorten the redirectUri or idpHint, or use a server-side transaction store',
      );
    }
    this.#remembered.sweep(now);
    const { slot, superseded } = await this.#cookies.slotFor(cookieHeader(context), async (held) => {
      const parsed = parse(held);
      const opened = parsed?.kind === 'seal' ? await this.#open(parsed.value) : undefined;
      return opened !== undefined && now < opened.until
        ? { order: opened.transaction.createdAt, state: opened.transaction.state }
        : undefined;
    });
    if (superseded !== undefined) this.#remembered.note(superseded, 'superseded', now);
    const maxAge = Math.max(0, Math.ceil((sealExpiresAt - now) / 1000)) + EXPIRED_GRACE_SECONDS;
    return this.#cookies.set(slot, value, maxAge);
  }

  /**
   * Open the transaction for `state` from the callback request's cookies (`context.cookie`,
   * required). The caller must also send {@link clearCookie} with its response.
   *
   * @throws {OptionsError} when `context.cookie` is `undefined` (fail closed).
   * @throws {ValidationError} `unknown_state`, `expired_transaction` or `replayed_transaction`,
   *   with a message that says which case it is.
   */
  async take(state: string, context?: TransactionContext): Promise<Transaction | undefined> {
    const header = cookieHeader(context);
    if (header === undefined) throw cookieRequired();
    if (typeof state !== 'string' || state === '') return undefined;
    const now = this.#now();
    const remembered = this.#remembered.get(state, now)?.kind;
    if (remembered === 'taken') throw replayedError();
    if (remembered === 'superseded') throw supersededError();

    const slots = this.#cookies.read(header);
    const tag = tagOf(state);
    let used = false;
    let reason: string | undefined;
    for (const values of slots) {
      for (const value of values) {
        const parsed = parse(value);
        if (parsed?.tag !== tag) continue;
        if (parsed.kind === 'used') {
          used = true;
          continue;
        }
        const opened = await this.#open(parsed.value);
        if (opened === undefined) {
          reason ??=
            'it does not open: it was altered, or sealed with a different secret (do all app instances share the same `secret`?)';
          continue;
        }
        if (opened.transaction.state !== state) {
          reason = 'it was sealed for another state';
          continue;
        }
        if (now >= opened.until) throw goneError('expired');
        // Checked again after the await: two callbacks for one state in flight at once.
        if (this.#remembered.get(state, now)?.kind === 'taken') throw replayedError();
        this.#remembered.note(state, 'taken', now);
        return opened.transaction;
      }
    }
    if (used) throw replayedError();
    if (reason !== undefined) {
      throw new ValidationError(`The transaction cookie for this state could not be used: ${reason}`, {
        code: 'unknown_state',
      });
    }
    throw await this.#missing(slots, now);
  }

  /**
   * The `Set-Cookie` header value to send with the callback's response: it replaces the cookie of
   * `state` in the browser whose callback `context.cookie` comes from with a small "used" marker,
   * so a reload or a second click is answered `replayed_transaction` by any app instance. Cookies
   * of other validations in the same browser are left alone; `undefined` when the request carries
   * no cookie for `state`.
   */
  clearCookie(state: string, context?: TransactionContext): string | undefined {
    const header = cookieHeader(context);
    if (header === undefined || typeof state !== 'string' || state === '') return undefined;
    const tag = tagOf(state);
    const slots = this.#cookies.read(header);
    for (let slot = 0; slot < slots.length; slot++) {
      if (slots[slot]?.some((value) => parse(value)?.tag === tag)) {
        return this.#cookies.set(slot, `${tag}.${USED}`, Math.ceil(this.#ttlMs / 1000));
      }
    }
    return undefined;
  }

  /** Why no cookie of this browser holds the state: say which case it is. */
  async #missing(slots: string[][], now: number): Promise<ValidationError> {
    if (slots.every((values) => values.length === 0))
      return noCookieError('transaction', this.#cookies.secure);
    let live = 0;
    for (const values of slots) {
      for (const value of values) {
        const parsed = parse(value);
        const opened = parsed?.kind === 'seal' ? await this.#open(parsed.value) : undefined;
        if (opened !== undefined && now < opened.until) {
          live++;
          break;
        }
      }
    }
    // Every cookie name holds another live validation: this browser started newer ones since.
    if (live >= MAX_TRANSACTION_COOKIES) return supersededError();
    return new ValidationError(
      'The transaction cookies of this browser hold other validations, none for this state: it was superseded by newer ' +
        'starts (another app instance handled them), or the callback was opened in another browser',
      { code: 'unknown_state' },
    );
  }

  /** The AES key, derived on first use (Web Crypto is async; a Worker's global scope may not use it). */
  #aesKey(): Promise<Uint8Array> {
    this.#key ??= hkdfSha256(this.#secret, HKDF_INFO);
    return this.#key;
  }

  async #open(value: string): Promise<StoredTransaction | undefined> {
    const [, iv, ciphertext, tag] = value.split('.');
    const key = await this.#aesKey();
    try {
      const { plaintext } = await compactDecrypt(`${PROTECTED}..${iv}.${ciphertext}.${tag}`, key, {
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
        maxDecompressedLength: 0,
      });
      return decodeTransaction(decoder.decode(plaintext));
    } catch {
      // Any failure to open means the cookie is not ours as sealed: never let it out.
      return undefined;
    }
  }
}
