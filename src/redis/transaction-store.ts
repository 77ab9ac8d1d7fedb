import { hash } from 'node:crypto';
import { OptionsError } from '../core/errors.js';
import { describe, integerOption } from '../core/options.js';
import { random256 } from '../core/random.js';
import { ValidationError } from '../rp/errors.js';
import {
  decodeTransaction,
  encodeTransaction,
  storedForm,
  TRANSACTION_FORM,
} from '../rp/transactions/codec.js';
import { cookieHeader, cookieRequired, TransactionCookies } from '../rp/transactions/cookies.js';
import { checkTransaction } from '../rp/transactions/options.js';
import { goneError, noCookieError } from '../rp/transactions/outcomes.js';
import type { Transaction, TransactionContext, TransactionStore } from '../rp/types.js';
import { type RedisClientLike, RedisConnection } from './connection.js';
import { StoreError } from './errors.js';

/** Options of {@link RedisTransactionStore}. @group Redis */
export interface RedisTransactionStoreOptions {
  /**
   * Your connected Redis client, shared with the rest of your app: node-redis 4 or 5
   * (`createClient()` or `createCluster()`, after `await client.connect()`) or ioredis 5 (`new
   * Redis()`, `new Redis.Cluster()`). The store never connects, disconnects or configures it. For a
   * Redis Cluster, see docs/deploying.md (client options, and what a failover does).
   */
  client: RedisClientLike;
  /**
   * Prefix of every key the store writes; keep it distinct per shop when several share one Redis.
   * One key per state, `<keyPrefix>tx:<state>`: the transaction while it is held, then a tombstone
   * for `ttlMs` once taken. Up to 64 characters; no spaces, `{` or `}` (as for the offer ledger, whose
   * keys use a Redis Cluster hash tag). Default `'av:'`.
   */
  keyPrefix?: string | undefined;
  /**
   * Longest time a transaction is kept, in milliseconds (its Redis TTL); a transaction's own
   * `expiresAt` applies when earlier. Taken states are remembered this long, so a second callback
   * gets `replayed_transaction`. Default `600_000` (10 minutes).
   */
  ttlMs?: number | undefined;
  /**
   * Longest wait for one Redis command, in milliseconds; past it the call fails with
   * `StoreError('store_unavailable')`. Default `2_000`.
   */
  commandTimeoutMs?: number | undefined;
  /**
   * Answer a claim and a taken transaction only once a replica holds it (Redis `WAIT 1`, sent with
   * the write, waiting at most half of `commandTimeoutMs`; `store_unavailable` when no replica
   * confirms), so a master that crashes after answering cannot have the promoted replica grant it a
   * second time. Default: on for a cluster client, and for a server that `INFO replication` shows with
   * replicas (asked once, at the first claim or take); `false` turns it off, `true` waits also where
   * the first look saw no replica. See docs/deploying.md.
   */
  waitForReplica?: boolean | undefined;
  /**
   * Bind each transaction to the browser that started it, as `MemoryTransactionStore` does: `put`
   * returns the `Set-Cookie` value of a per-transaction binding cookie (256-bit random,
   * `HttpOnly`), and `take` refuses a callback that does not carry it. Default `true`.
   */
  bindToBrowser?: boolean | undefined;
  /**
   * Prefix of the binding cookies: a browser holds at most three, `<cookieName>_0` … `_2`. Default
   * `'__Host-av_bind'`, or `'av_bind'` when `secure` is off or `path` is not `/`.
   */
  cookieName?: string | undefined;
  /** `Secure` attribute of the binding cookie. Turn off only for plain-http development. Default `true`. */
  secure?: boolean | undefined;
  /** `SameSite` attribute of the binding cookie. Default `'lax'`. */
  sameSite?: 'lax' | 'strict' | undefined;
  /** `Path` attribute of the binding cookie; the callback route must lie under it. Default `'/'`. */
  path?: string | undefined;
}

/**
 * A binding cookie's value: `<expiry, ms base36>.<state tag>.<256-bit random>`. The expiry lets `put`
 * reuse the slot of a finished validation and otherwise replace the earliest-expiring one, and the
 * tag (the state's first 8 characters) lets `take` and `clearCookie` find the slot of a state, all
 * without asking Redis; only the random part is a secret, and Redis holds only its SHA-256.
 */
const BINDING_RE = /^([0-9a-z]{1,11})\.([A-Za-z0-9_-]{8})\.([A-Za-z0-9_-]{43})$/;
/** Longest state accepted (the SDK's are 43 characters); bounds the key length. */
const MAX_STATE = 512;

/** What a taken transaction's key holds for `ttlMs`, so a second callback is reported as a replay. */
const TOMBSTONE = 'T';

/**
 * A {@link TransactionStore} shared by every app instance through Redis: a transaction started on
 * one instance can be taken on any other, exactly once.
 *
 * - Keys: `<keyPrefix>tx:<state>.<SHA-256 of the binding cookie's random part>` (`<keyPrefix>tx:<state>`
 *   without binding). The binding is checked by the key itself: a browser without the right cookie
 *   asks for a key that does not exist, and the transaction stays for the shopper's own browser. So
 *   no script is needed and both calls are single native commands, as cheap as `SET` + `GETDEL`.
 * - `put` is `SET … PX <life> NX`: expiry is Redis's own TTL; after it the state is unknown.
 * - `take` is `SET <key> T XX PX <ttlMs> GET`: atomically, it hands out the value and leaves a
 *   tombstone, only if the key exists. Of several callbacks with the same state and cookie, on any
 *   instances, exactly one gets the transaction; the others get `replayed_transaction`.
 * - Browser binding as in `MemoryTransactionStore`, failing closed, within the same cookie budget:
 *   at most three binding cookies per browser (`<cookieName>_0` … `_2`). `put` reads the start
 *   request's `Cookie` header and takes a free slot, or one whose validation has expired, or else
 *   the one expiring first (that validation is superseded); without it, slot 0. The cookie value is
 *   `<expiry, base36 ms>.<the state's first 8 characters>.<256-bit random>`, so all of this, and
 *   `clearCookie`, needs no Redis call. `take` without the callback's cookies (`context.cookie`
 *   undefined) throws `OptionsError` (as the memory store); with cookies lacking the binding cookie it
 *   throws `ValidationError('unknown_state')`.
 * - What Redis holds per transaction: the transaction in the stored form the cookie store seals (a
 *   JSON array: a form number, the expiry, then state, nonce, PKCE verifier, response type, scopes,
 *   affiliation, identifier, claims request, idpHint, redirect URI, creation and expiry times), under
 *   a key naming the state and the SHA-256 of the binding cookie's random part; once taken, the
 *   tombstone `T`. Never the client secret, codes or tokens. The nonce and PKCE verifier are only useful together with an
 *   authorization code the service issues to the shopper's browser and the client secret, but keep
 *   Redis private anyway.
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
  readonly #ttlMs: number;
  readonly #ttlText: string;
  readonly #cookies: TransactionCookies | undefined;

  constructor(options: RedisTransactionStoreOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new OptionsError('RedisTransactionStore options must be an object with a `client`');
    }
    this.#redis = new RedisConnection(options);
    this.#ttlMs = integerOption('ttlMs', options.ttlMs, 600_000, { max: 24 * 60 * 60 * 1000 });
    this.#ttlText = String(this.#ttlMs);
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
   * @throws {OptionsError} when the transaction is malformed, or (without binding) its state is held
   *   or was taken.
   * @throws {StoreError} when Redis cannot be reached or refuses.
   */
  async put(transaction: Transaction, context?: TransactionContext): Promise<string | undefined> {
    checkTransaction(transaction);
    const { state } = transaction;
    if (state.length > MAX_STATE) {
      throw new OptionsError(`\`transaction.state\` must be at most ${MAX_STATE} characters`);
    }
    const now = Date.now();
    const lifeMs = Math.max(1, Math.min(transaction.expiresAt - now, this.#ttlMs));
    const cookies = this.#cookies;
    const secret = cookies === undefined ? undefined : random256();
    const key = this.#key(state, secret === undefined ? undefined : digest(secret));
    // `NX` refuses a key that is held or was taken (its tombstone). With binding, the key also holds
    // a fresh random value's digest, so this fires only without binding; states are 256-bit random
    // values, so a repeat is a caller's bug either way.
    const stored = await this.#redis.command(key, [
      'SET',
      key,
      encodeTransaction(transaction, now + lifeMs),
      'PX',
      String(lifeMs),
      'NX',
    ]);
    if (stored !== 'OK') {
      throw new OptionsError(
        'A transaction with this `state` is already stored or was taken; every transaction needs a fresh random state',
      );
    }
    if (cookies === undefined || secret === undefined) return undefined;
    const value = `${(now + lifeMs).toString(36)}.${tag(state)}.${secret}`;
    // A binding cookie's value carries its expiry: the one expiring first is the oldest validation.
    const { slot } = await cookies.slotFor(cookieHeader(context), (held) => {
      const expiry = Number.parseInt(BINDING_RE.exec(held)?.[1] ?? '0', 36);
      return expiry > now ? { order: expiry } : undefined;
    });
    return cookies.set(slot, value, Math.ceil(lifeMs / 1000));
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
    const cookies = this.#cookies;
    const header = cookieHeader(context);
    if (cookies !== undefined && header === undefined) throw cookieRequired();
    // Longer than any state this store accepts: unknown, without asking Redis.
    if (typeof state !== 'string' || state === '' || state.length > MAX_STATE) return undefined;
    if (cookies === undefined) return this.#taken(state, await this.#takeKey(this.#key(state)));
    const slots = cookies.read(header ?? '');
    const mine = tag(state);
    for (const values of slots) {
      for (const value of values) {
        const binding = BINDING_RE.exec(value);
        if (binding?.[2] !== mine) continue;
        const key = this.#key(state, digest(binding[3] as string));
        const transaction = this.#taken(state, await this.#takeKey(key));
        if (transaction !== undefined) return transaction;
      }
    }
    // Not consumed: a link scanner or another browser that opens the callback URL first must not
    // spoil the validation for the shopper's own browser.
    if (slots.every((values) => values.length === 0)) throw noCookieError('binding', cookies.secure);
    throw new ValidationError(
      'No transaction for this state is waiting for this browser: unknown, expired, superseded by newer validations, or started in another browser',
      { code: 'unknown_state' },
    );
  }

  /** Swap the key's value for the tombstone, if the key exists, and read what it held (on a replica too). */
  #takeKey(key: string): Promise<unknown> {
    return this.#redis.replicated(key, ['SET', key, TOMBSTONE, 'XX', 'PX', this.#ttlText, 'GET']);
  }

  /** What a take's reply means for `state`: the transaction, `undefined` (no such key), or an error. */
  #taken(state: string, reply: unknown): Transaction | undefined {
    if (reply === null || reply === undefined) return undefined;
    if (reply === TOMBSTONE) throw goneError('taken');
    const stored = typeof reply === 'string' ? decodeTransaction(reply) : undefined;
    if (stored === undefined || stored.transaction.state !== state) {
      const form = typeof reply === 'string' ? storedForm(reply) : undefined;
      throw new StoreError(
        form !== undefined && form !== TRANSACTION_FORM
          ? `Redis holds a transaction in stored form ${form}, written by another version of affiliation-validation (this one reads form ${TRANSACTION_FORM}); run one version on every instance that shares the key prefix ${JSON.stringify(this.#redis.prefix)}`
          : `Redis holds a value under the key prefix ${JSON.stringify(this.#redis.prefix)} that this store did not write; give the store its own keyPrefix`,
        { code: 'store_failed' },
      );
    }
    if (Date.now() >= stored.until) throw goneError('expired');
    return stored.transaction;
  }

  /**
   * The `Set-Cookie` header value that deletes the binding cookie of `state` from the browser whose
   * callback `context.cookie` comes from (send it with the callback's response; `callbackHandler`
   * does), or `undefined` when that browser holds none for `state` (a newer validation's cookie is
   * left alone) or the store does not bind. Asks nothing of Redis.
   */
  clearCookie(state: string, context?: TransactionContext): string | undefined {
    const cookies = this.#cookies;
    const header = cookieHeader(context);
    if (cookies === undefined || header === undefined || typeof state !== 'string') return undefined;
    const mine = tag(state);
    const slot = cookies
      .read(header)
      .findIndex((values) => values.some((v) => BINDING_RE.exec(v)?.[2] === mine));
    return slot === -1 ? undefined : cookies.clear(slot);
  }

  /**
   * The key of a transaction: the state (it is in the stored value anyway; hashing it would cost a
   * hash per call for nothing) and the SHA-256 of its binding cookie's random part.
   */
  #key(state: string, bindingDigest?: string): string {
    return bindingDigest === undefined
      ? `${this.#redis.prefix}tx:${state}`
      : `${this.#redis.prefix}tx:${state}.${bindingDigest}`;
  }
}

/**
 * The state's tag in its binding cookie, enough to tell 3 slots apart: its first 8 characters (48
 * random bits of an SDK state; the state is in the callback URL anyway), or 8 characters of its
 * SHA-256 when they are not base64url. A clash only makes `take` try one more key.
 */
function tag(state: string): string {
  return /^[A-Za-z0-9_-]{8}/.test(state) ? state.slice(0, 8) : digest(state).slice(0, 8);
}

/** SHA-256, base64url: what names a transaction's key, instead of the binding secret itself. */
function digest(value: string): string {
  return hash('sha256', value, 'base64url');
}
