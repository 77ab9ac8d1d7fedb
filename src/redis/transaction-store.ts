import { hash } from 'node:crypto';
import { OptionsError } from '../core/errors.js';
import { random256 } from '../core/random.js';
import { ValidationError } from '../rp/errors.js';
import { cookieHeader, MAX_TRANSACTION_COOKIES, TransactionCookies } from '../rp/transactions/cookies.js';
import { checkTransaction, describe, positiveInteger } from '../rp/transactions/options.js';
import type { Transaction, TransactionContext, TransactionStore } from '../rp/types.js';
import { type RedisClientLike, RedisConnection, script } from './connection.js';
import { StoreError } from './errors.js';

/** Options of {@link RedisTransactionStore}. @group Redis */
export interface RedisTransactionStoreOptions {
  /**
   * Your connected Redis client, shared with the rest of your app: node-redis 4 or 5
   * (`createClient()`, after `await client.connect()`) or ioredis 5 (`new Redis()`, `new
   * Redis.Cluster()`). The store never connects, disconnects or configures it.
   */
  client: RedisClientLike;
  /**
   * Prefix of every key the store writes; keep it distinct per shop when several share one Redis.
   * One key per state, `<keyPrefix>tx:<state>`: the transaction while it is held, then a tombstone
   * for `ttlMs` once taken. Up to 64 characters; no spaces, `{` or `}` (as for the offer ledger, whose
   * keys use a Redis Cluster hash tag). Default `'av:'`.
   */
  keyPrefix?: string;
  /**
   * Longest time a transaction is kept, in milliseconds (its Redis TTL); a transaction's own
   * `expiresAt` applies when earlier. Taken states are remembered this long, so a second callback
   * gets `replayed_transaction`. Default `600_000` (10 minutes).
   */
  ttlMs?: number;
  /**
   * Longest wait for one Redis command, in milliseconds; past it the call fails with
   * `StoreError('store_unavailable')`. Default `2_000`.
   */
  commandTimeoutMs?: number;
  /**
   * Bind each transaction to the browser that started it, as `MemoryTransactionStore` does: `put`
   * returns the `Set-Cookie` value of a per-transaction binding cookie (256-bit random,
   * `HttpOnly`), and `take` refuses a callback that does not carry it. Default `true`.
   */
  bindToBrowser?: boolean;
  /**
   * Prefix of the binding cookies: a browser holds at most three, `<cookieName>_0` … `_2`. Default
   * `'__Host-av_bind'`, or `'av_bind'` when `secure` is off or `path` is not `/`.
   */
  cookieName?: string;
  /** `Secure` attribute of the binding cookie. Turn off only for plain-http development. Default `true`. */
  secure?: boolean;
  /** `SameSite` attribute of the binding cookie. Default `'lax'`. */
  sameSite?: 'lax' | 'strict';
  /** `Path` attribute of the binding cookie; the callback route must lie under it. Default `'/'`. */
  path?: string;
}

const KEY_PREFIX_RE = /^[^\s{}]{0,64}$/;
/** Most binding cookie values looked at per callback (a browser holds up to 3; more is noise). */
const MAX_OFFERED = 8;
/**
 * A binding cookie value: `<start time, base 36 ms>.<16 chars of SHA-256(state)>.<256-bit random>`.
 * The time lets a start pick the browser's oldest validation when all three names are in use, and
 * the state's locator lets `clearCookie` find the name of this state's cookie, both without asking
 * Redis; only the random part is secret (Redis holds the SHA-256 of the whole value).
 */
const BINDING_RE = /^([0-9a-z]{1,11})\.([A-Za-z0-9_-]{16})\.[A-Za-z0-9_-]{43}$/;
/** Longest state accepted (the SDK's are 43 characters); bounds the key length. */
const MAX_STATE = 512;

/**
 * take: hand out the transaction once, and only to the browser holding its binding cookie.
 * KEYS[1] the state's key; ARGV[1] how long to remember the taken state (ms), ARGV[2..] SHA-256
 * digests of the binding cookie values the browser offered. A held transaction's value is
 * `<binding digest or ''>.<transaction JSON>`; a taken one's is `T` (a tombstone under the same key,
 * so `put`'s `SET NX` refuses the state too). Returns the value when taken, 'T' when it was taken
 * before, 'B' when the binding does not match (the transaction stays), 'X' for a value the store
 * did not write, nil when unknown or expired.
 * The digests compared are SHA-256 of 256-bit random values: the comparison's timing tells nothing
 * about a cookie value.
 */
const TAKE = script(`
local v = redis.call('GET', KEYS[1])
if not v then return false end
if v == 'T' then return 'T' end
local dot = string.find(v, '.', 1, true)
if not dot then return 'X' end
if dot > 1 then
  local bound = string.sub(v, 1, dot - 1)
  local ok = false
  for i = 2, #ARGV do
    if ARGV[i] == bound then ok = true break end
  end
  if not ok then return 'B' end
end
redis.call('SET', KEYS[1], 'T', 'PX', ARGV[1])
return v
`);

/**
 * A {@link TransactionStore} shared by every app instance through Redis: a transaction started on
 * one instance can be taken on any other, exactly once.
 *
 * - `take` is one Lua script, so it is atomic across instances: when several callbacks with the same
 *   `state` arrive at once, exactly one gets the transaction; the others get
 *   `ValidationError('replayed_transaction')` (the taken state is remembered for `ttlMs`).
 * - Expiry is Redis's own TTL (`PX`): after it the state is unknown (`undefined`, which the client
 *   reports as `unknown_state`).
 * - Browser binding as in `MemoryTransactionStore`, failing closed: a bound transaction is handed
 *   out only when the callback's `cookie` header carries its binding cookie; a callback without it
 *   (also one whose caller passed no cookie at all) gets `ValidationError('unknown_state')` and the
 *   transaction stays for the right browser. Redis holds only the SHA-256 of the cookie value.
 * - What Redis holds per transaction: the transaction as JSON (state, nonce, PKCE verifier, scopes,
 *   affiliation, identifier, claims request, idpHint, redirect URI, creation and expiry times) and
 *   the binding cookie's SHA-256; per taken state, a marker. Never the client secret, codes or
 *   tokens. The nonce and PKCE verifier are only useful together with an authorization code the
 *   service issues to the shopper's browser and the client secret, but keep Redis private anyway.
 * - A Redis failure (connection down, client closed, timeout, `READONLY`, …) is a
 *   `StoreError` (`store_unavailable` or `store_failed`), never an answer.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { RedisTransactionStore } from 'affiliation-validation/redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const transactions = new RedisTransactionStore({ client: redis, keyPrefix: 'shop:av:' });
 * ```
 * @group Redis
 */
export class RedisTransactionStore implements TransactionStore {
  readonly #redis: RedisConnection;
  readonly #prefix: string;
  readonly #ttlMs: number;
  readonly #cookies: TransactionCookies | undefined;

  constructor(options: RedisTransactionStoreOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new OptionsError('RedisTransactionStore options must be an object with a `client`');
    }
    const prefix = options.keyPrefix ?? 'av:';
    if (typeof prefix !== 'string' || !KEY_PREFIX_RE.test(prefix)) {
      throw new OptionsError(
        `Option \`keyPrefix\` must be up to 64 characters without spaces, "{" or "}", got ${describe(prefix)}`,
      );
    }
    this.#prefix = prefix;
    this.#ttlMs = positiveInteger('ttlMs', options.ttlMs, 600_000, 24 * 60 * 60 * 1000);
    const timeoutMs = positiveInteger('commandTimeoutMs', options.commandTimeoutMs, 2_000, 60_000);
    this.#redis = new RedisConnection(options.client, timeoutMs);
    const bind = options.bindToBrowser ?? true;
    if (typeof bind !== 'boolean') {
      throw new OptionsError(`Option \`bindToBrowser\` must be a boolean, got ${describe(bind)}`);
    }
    this.#cookies = bind ? new TransactionCookies(options, 'av_bind') : undefined;
  }

  /** Whether transactions are bound to the browser that started them (option `bindToBrowser`). */
  get bindsToBrowser(): boolean {
    return this.#cookies !== undefined;
  }

  /**
   * Hold the transaction in Redis until it expires. With `bindToBrowser` (the default), return the
   * `Set-Cookie` header value of its binding cookie: send it with the redirect to the service.
   *
   * @throws {OptionsError} when the transaction is malformed, or its state is held or was taken.
   * @throws {StoreError} when Redis cannot be reached or refuses.
   */
  async put(transaction: Transaction, _context?: TransactionContext): Promise<string | undefined> {
    checkTransaction(transaction);
    const now = Date.now();
    const lifeMs = Math.max(1, Math.min(transaction.expiresAt - now, this.#ttlMs));
    const cookies = this.#cookies;
    const binding =
      cookies === undefined ? undefined : `${now.toString(36)}.${locator(transaction.state)}.${random256()}`;
    const value = `${binding === undefined ? '' : digest(binding)}.${JSON.stringify(transaction)}`;
    // A plain SET (no script): as fast as a bare SET. `NX` refuses a state that is held or was taken
    // (its tombstone); states are 256-bit random values, so a repeat is a caller's bug.
    if (transaction.state.length > MAX_STATE) {
      throw new OptionsError(`\`transaction.state\` must be at most ${MAX_STATE} characters`);
    }
    const stored = await this.#redis.command([
      'SET',
      this.#key(transaction.state),
      value,
      'PX',
      String(lifeMs),
      'NX',
    ]);
    if (stored !== 'OK') {
      throw new OptionsError(
        'A transaction with this `state` is already stored or was taken; every transaction needs a fresh random state',
      );
    }
    if (cookies === undefined || binding === undefined) return undefined;
    const slot = this.#slotFor(cookieHeader(_context), now);
    return cookies.set(slot, binding, Math.ceil(lifeMs / 1000));
  }

  /**
   * The cookie name for a new binding: the first one the start request's cookies do not use for an
   * unexpired validation, else the one of the browser's oldest; without the start request's cookies,
   * the first (one validation per browser). Its old validation then fails as unknown in this browser.
   */
  #slotFor(header: string | undefined, now: number): number {
    if (header === undefined || this.#cookies === undefined) return 0;
    const slots = this.#cookies.read(header);
    let oldest = { slot: 0, at: Number.POSITIVE_INFINITY };
    for (let slot = 0; slot < MAX_TRANSACTION_COOKIES; slot++) {
      let at: number | undefined;
      for (const value of slots[slot] ?? []) {
        const started = BINDING_RE.exec(value)?.[1];
        if (started !== undefined) at = Math.max(at ?? 0, Number.parseInt(started, 36));
      }
      if (at === undefined || at + this.#ttlMs <= now) return slot;
      if (at < oldest.at) oldest = { slot, at };
    }
    return oldest.slot;
  }

  /**
   * Take the transaction for `state`, exactly once across all instances: the transaction,
   * `undefined` when the state is unknown or expired, or a `ValidationError`
   * (`replayed_transaction`, `expired_transaction`, `unknown_state` when the binding cookie is
   * missing or different).
   *
   * @throws {StoreError} when Redis cannot be reached or refuses; the transaction is then neither
   *   handed out nor known to be consumed.
   */
  async take(state: string, context?: TransactionContext): Promise<Transaction | undefined> {
    // Longer than any state this store accepts: unknown, without asking Redis.
    if (typeof state !== 'string' || state === '' || state.length > MAX_STATE) return undefined;
    const offered: string[] = [];
    const cookie = context?.cookie;
    if (this.#cookies !== undefined && typeof cookie === 'string' && cookie !== '') {
      const mine = locator(state);
      for (const value of this.#cookies.read(cookie).flat()) {
        if (BINDING_RE.exec(value)?.[2] === mine && offered.length < MAX_OFFERED) offered.push(digest(value));
      }
    }
    const reply = await this.#redis.run(TAKE, [this.#key(state)], [String(this.#ttlMs), ...offered]);
    if (reply === null || reply === undefined) return undefined;
    if (reply === 'T') {
      throw new ValidationError(
        'replayed_transaction',
        'The transaction for this state was already used: the callback was submitted twice',
      );
    }
    if (reply === 'B') {
      throw new ValidationError(
        'unknown_state',
        typeof cookie === 'string'
          ? 'The callback did not come from the browser that started this validation (its binding cookie is missing or different)'
          : 'The transaction is bound to the browser that started it, but no cookie header was passed: call validateCallback with the request, or with { cookie: req.headers.cookie }',
      );
    }
    const transaction = typeof reply === 'string' ? parse(reply) : undefined;
    if (transaction === undefined || transaction.state !== state) {
      throw new StoreError(
        'store_failed',
        `Redis holds a value under the key prefix ${JSON.stringify(this.#prefix)} that this store did not write; give the store its own keyPrefix`,
      );
    }
    if (Date.now() >= transaction.expiresAt) {
      throw new ValidationError('expired_transaction', 'The transaction for this state has expired');
    }
    return transaction;
  }

  /**
   * The `Set-Cookie` header value that deletes the binding cookie of `state` from the browser whose
   * callback `context.cookie` comes from (send it with the callback's response; `callbackHandler`
   * does), or `undefined` when that request holds none (another validation's cookie is never
   * touched) or the store does not bind.
   */
  clearCookie(state: string, context?: TransactionContext): string | undefined {
    const header = cookieHeader(context);
    if (this.#cookies === undefined || header === undefined || typeof state !== 'string') return undefined;
    const mine = locator(state);
    const slot = this.#cookies
      .read(header)
      .findIndex((values) => values.some((v) => BINDING_RE.exec(v)?.[2] === mine));
    return slot === -1 ? undefined : this.#cookies.clear(slot);
  }

  /** The state itself names the key: it is in the stored value anyway, and hashing it would cost a hash per call for nothing. */
  #key(state: string): string {
    return `${this.#prefix}tx:${state}`;
  }
}

/** Which state a binding cookie belongs to: 16 base64url characters of SHA-256(state). */
function locator(state: string): string {
  return digest(state).slice(0, 16);
}

/** SHA-256, base64url. The one-shot `crypto.hash` costs a third of `createHash` (bench/redis.bench.ts). */
function digest(value: string): string {
  return hash('sha256', value, 'base64url');
}

function parse(value: string): Transaction | undefined {
  const dot = value.indexOf('.');
  try {
    const t = JSON.parse(value.slice(dot + 1)) as Record<string, unknown> | null;
    if (
      typeof t === 'object' &&
      t !== null &&
      typeof t.state === 'string' &&
      typeof t.nonce === 'string' &&
      (t.responseType === 'code' || t.responseType === 'id_token') &&
      Array.isArray(t.scopes) &&
      typeof t.affiliation === 'string' &&
      typeof t.redirectUri === 'string' &&
      typeof t.createdAt === 'number' &&
      typeof t.expiresAt === 'number'
    ) {
      return t as unknown as Transaction;
    }
  } catch {
    // Not JSON: reported by the caller as a value this store did not write.
  }
  return undefined;
}
