import { timingSafeEqual } from 'node:crypto';
import { OptionsError } from '../../core/errors.js';
import { random256 } from '../../core/random.js';
import { ValidationError } from '../errors.js';
import type { Transaction, TransactionContext, TransactionStore } from '../types.js';
import { cookieValues, TransactionCookies } from './cookies.js';
import { checkTransaction, clock, describe, positiveInteger } from './options.js';

/** Options of {@link MemoryTransactionStore}. @group Transactions */
export interface MemoryTransactionStoreOptions {
  /**
   * Most transactions held at once, and most taken states remembered for replay detection.
   * When full, expired entries go first, then the oldest. Default `10_000`.
   */
  maxEntries?: number;
  /**
   * Longest time a transaction is kept, in milliseconds; a transaction's own `expiresAt` applies
   * when earlier. Taken states are remembered this long. Default `600_000` (10 minutes).
   */
  ttlMs?: number;
  /** Clock, ms since the epoch. Default `Date.now`. */
  now?: () => number;
  /**
   * Bind each transaction to the browser that started it (RFC 9700 §2.1, OpenID Connect Core
   * 3.1.2.1): `put` returns a `Set-Cookie` header value (a 256-bit random value, HttpOnly) that the
   * start route must send with its redirect, and `take` refuses a callback whose `cookie` header
   * does not carry it. Turn off only when your app binds the `state` to the browser itself (e.g.
   * keeps it in its own session and compares). Default `true`.
   */
  bindToBrowser?: boolean;
  /**
   * Prefix of the binding cookies, one per transaction: `<cookieName>_<16 chars>`. Default
   * `'__Host-av_bind'` (a sibling subdomain cannot plant one), or `'av_bind'` when `secure` is off
   * or `path` is not `/`.
   */
  cookieName?: string;
  /** `Secure` attribute of the binding cookie. Turn off only for plain-http development. Default `true`. */
  secure?: boolean;
  /** `SameSite` attribute of the binding cookie (as in `CookieTransactionStoreOptions`). Default `'lax'`. */
  sameSite?: 'lax' | 'strict';
  /** `Path` attribute of the binding cookie; the callback route must lie under it. Default `'/'`. */
  path?: string;
}

/** What a record of the store is: a held transaction, a tombstone, or gone for good. */
const LIVE = 0;
const TAKEN = 1;
const EXPIRED = 2;
const DROPPED = 3;
type Kind = typeof LIVE | typeof TAKEN | typeof EXPIRED | typeof DROPPED;

/**
 * One state's record. It is LIVE while its transaction is held (`until` = when it expires), then a
 * tombstone, TAKEN or EXPIRED (`until` = when to forget it), then DROPPED once it left the map. The
 * record object moves through these kinds in that order only, so a queue slot that points to it
 * is current exactly when the record still has the queue's kind.
 */
interface StateRecord {
  readonly state: string;
  transaction: Transaction | undefined;
  /** The browser binding's value (base64url), when the store binds. */
  binding: string | undefined;
  kind: Kind;
  until: number;
}

/** Most queue entries one call examines while sweeping; the rest waits for the next calls. */
const SWEEP_LIMIT = 64;
/** A queue is compacted when it holds this many slots more than twice its current records. */
const COMPACT_SLACK = 1024;

/**
 * A FIFO of records in insertion order: an array with a head index. Slots whose record changed
 * kind since it was pushed are stale and skipped when they reach the head; the array is compacted
 * when stale or consumed slots outnumber the current ones, so every operation is O(1) amortised.
 */
class RecordQueue {
  #items: (StateRecord | undefined)[] = [];
  #head = 0;
  readonly #kind: (record: StateRecord) => boolean;

  constructor(current: (record: StateRecord) => boolean) {
    this.#kind = current;
  }

  push(record: StateRecord, currentCount: number): void {
    this.#items.push(record);
    if (this.#items.length - this.#head > 2 * currentCount + COMPACT_SLACK) this.#compact();
  }

  /** The oldest current record (stale slots before it are dropped), or `undefined`. */
  peek(): StateRecord | undefined {
    const items = this.#items;
    while (this.#head < items.length) {
      const record = items[this.#head] as StateRecord;
      if (this.#kind(record)) return record;
      items[this.#head++] = undefined;
    }
    this.#reset();
    return undefined;
  }

  /** Drop the head slot (after {@link peek} returned its record). */
  shift(): void {
    this.#items[this.#head++] = undefined;
    if (this.#head === this.#items.length) this.#reset();
    else if (this.#head >= COMPACT_SLACK && this.#head * 2 >= this.#items.length) this.#compact();
  }

  #reset(): void {
    this.#items = [];
    this.#head = 0;
  }

  /** Keep only current slots, in order. */
  #compact(): void {
    const kept: StateRecord[] = [];
    const items = this.#items;
    for (let i = this.#head; i < items.length; i++) {
      const record = items[i] as StateRecord;
      if (this.#kind(record)) kept.push(record);
    }
    this.#items = kept;
    this.#head = 0;
  }
}

/**
 * The default {@link TransactionStore}: a bounded in-process map. Every operation is O(1)
 * (amortised): one map holds every state, and two insertion-ordered queues (held transactions,
 * remembered states) give the oldest entries without walking the map. Expired entries are swept
 * lazily from the oldest end, a bounded number per call, so there are no timers, nothing keeps the
 * process alive, and no call pays for a large backlog at once.
 *
 * - `take(state)` returns a transaction exactly once; a second `take` within `ttlMs` throws
 *   `ValidationError('replayed_transaction')`, one after expiry throws
 *   `ValidationError('expired_transaction')`, an unknown state gives `undefined`.
 * - `put` of a state that is held, or was taken or expired within `ttlMs`, throws {@link OptionsError}: states
 *   are 256-bit random values, so a repeat means a bug in the caller, and accepting it would let a
 *   taken transaction come back.
 * - When full, expired transactions are dropped first, then the oldest live one (its shopper gets
 *   `undefined` on the callback, reported as `unknown_state`).
 *   Transactions expire in the order they were put unless one carries an `expiresAt` shorter than
 *   `ttlMs`; such an entry leaves by age (and `take` still reports it expired on time).
 *
 * - Browser binding (option `bindToBrowser`, default on): `put` returns the `Set-Cookie` value of a
 *   per-transaction binding cookie (256-bit random, `HttpOnly`); `take` with the callback's `cookie`
 *   refuses a browser that does not carry it (`unknown_state`) and keeps the transaction.
 *
 * Keep one instance per process; with several app instances behind a load balancer use
 * {@link CookieTransactionStore} or a shared store.
 *
 * @example
 * ```ts
 * const transactions = new MemoryTransactionStore({ maxEntries: 1_000, ttlMs: 5 * 60_000 });
 * ```
 * @group Transactions
 */
export class MemoryTransactionStore implements TransactionStore {
  readonly #maxEntries: number;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #cookies: TransactionCookies | undefined;
  /**
   * Every state the store knows: held transactions, and tombstones of taken and of expired states
   * that let a second `take` say `replayed_transaction` or `expired_transaction` instead of
   * "unknown".
   */
  readonly #records = new Map<string, StateRecord>();
  /** Held transactions, oldest first. */
  readonly #live = new RecordQueue((r) => r.kind === LIVE);
  /** Tombstones, oldest first (so also by the time they are forgotten). */
  readonly #gone = new RecordQueue((r) => r.kind === TAKEN || r.kind === EXPIRED);
  #liveCount = 0;
  #goneCount = 0;

  constructor(options: MemoryTransactionStoreOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new OptionsError('MemoryTransactionStore options must be an object');
    }
    this.#maxEntries = positiveInteger('maxEntries', options.maxEntries, 10_000);
    this.#ttlMs = positiveInteger('ttlMs', options.ttlMs, 600_000);
    this.#now = clock(options.now);
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

  /** Number of transactions currently held (expired ones not yet swept included). */
  get size(): number {
    return this.#liveCount;
  }

  /**
   * Hold the transaction. With `bindToBrowser` (the default), return the `Set-Cookie` header value
   * of its binding cookie: send it with the redirect to the service.
   */
  async put(transaction: Transaction, _context?: TransactionContext): Promise<string | undefined> {
    checkTransaction(transaction);
    const now = this.#now();
    this.#sweep(now);
    const { state } = transaction;
    const known = this.#records.get(state);
    if (known !== undefined) {
      if (known.kind === LIVE || now < known.until) {
        throw new OptionsError(
          'A transaction with this `state` is already stored, taken or expired; every transaction needs a fresh random state',
        );
      }
      this.#forget(known); // a tombstone past its time that no sweep reached yet
    }
    if (this.#liveCount >= this.#maxEntries) {
      // The sweep buried the expired entries at the old end (or up to SWEEP_LIMIT of them, which
      // made room): the oldest held one is unexpired. Drop it.
      const oldest = this.#live.peek();
      if (oldest !== undefined) {
        this.#live.shift();
        this.#liveCount--;
        this.#drop(oldest);
      }
    }
    const until = Math.min(transaction.expiresAt, now + this.#ttlMs);
    const cookies = this.#cookies;
    const binding = cookies === undefined ? undefined : random256();
    const record: StateRecord = { state, transaction, binding, kind: LIVE, until };
    this.#records.set(state, record);
    this.#liveCount++;
    this.#live.push(record, this.#liveCount);
    if (cookies === undefined || binding === undefined) return undefined;
    return cookies.set(state, binding, Math.max(0, Math.ceil((until - now) / 1000)));
  }

  /**
   * Take the transaction for `state`, exactly once. When it is bound to a browser and `context`
   * carries the callback's `cookie` header (a `Request` or `IncomingMessage` given to
   * `validateCallback` always does), the header must hold its binding cookie, else
   * `ValidationError('unknown_state')` and the transaction stays for the right browser. A caller
   * that passes no cookie information at all (`context.cookie` undefined) skips the check.
   */
  take(state: string, context?: TransactionContext): Promise<Transaction | undefined> {
    // Not an async function: one promise instead of an async frame plus promises, on the hot path
    // of every callback. Errors still arrive as a rejection, never as a synchronous throw.
    try {
      return Promise.resolve(this.#take(state, context?.cookie));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * The `Set-Cookie` header value that deletes the binding cookie for `state` (send it with the
   * callback's response; `callbackHandler` does), or `undefined` when the store does not bind.
   */
  clearCookie(state: string): string | undefined {
    return this.#cookies?.clear(state);
  }

  #take(state: string, cookie: string | null | undefined): Transaction | undefined {
    if (typeof state !== 'string' || state === '') return undefined;
    const now = this.#now();
    this.#sweep(now);
    const record = this.#records.get(state);
    if (record === undefined) return undefined;
    if (record.kind !== LIVE) {
      if (now >= record.until) {
        this.#forget(record);
        return undefined;
      }
      if (record.kind === TAKEN) {
        throw new ValidationError(
          'replayed_transaction',
          'The transaction for this state was already used: the callback was submitted twice',
        );
      }
      throw expired();
    }
    const transaction = record.transaction as Transaction;
    if (now >= record.until) {
      this.#bury(record, EXPIRED, now);
      throw expired();
    }
    if (record.binding !== undefined && cookie !== undefined && !this.#boundTo(record, cookie ?? '')) {
      // Not consumed: a link scanner or another browser that opens the callback URL first must not
      // spoil the validation for the shopper's own browser.
      throw new ValidationError(
        'unknown_state',
        'The callback did not come from the browser that started this validation (its binding cookie is missing or different)',
      );
    }
    this.#bury(record, TAKEN, now);
    return transaction;
  }

  /** Whether the `cookie` header carries the record's binding cookie (compared in constant time). */
  #boundTo(record: StateRecord, cookie: string): boolean {
    const expected = Buffer.from(record.binding as string, 'utf8');
    for (const value of cookieValues(cookie, (this.#cookies as TransactionCookies).nameFor(record.state))) {
      const offered = Buffer.from(value, 'utf8');
      if (offered.length === expected.length && timingSafeEqual(offered, expected)) return true;
    }
    return false;
  }

  /** A held record becomes a tombstone, remembered for `ttlMs`; the oldest goes when full. */
  #bury(record: StateRecord, kind: typeof TAKEN | typeof EXPIRED, now: number): void {
    this.#liveCount--;
    if (this.#goneCount >= this.#maxEntries) {
      const oldest = this.#gone.peek();
      if (oldest !== undefined) {
        this.#gone.shift();
        this.#forget(oldest);
      }
    }
    record.kind = kind;
    record.transaction = undefined;
    record.binding = undefined;
    record.until = now + this.#ttlMs;
    this.#goneCount++;
    this.#gone.push(record, this.#goneCount);
  }

  /** A tombstone leaves. Its queue slot, if still there, is stale from now on. */
  #forget(record: StateRecord): void {
    this.#goneCount--;
    this.#drop(record);
  }

  #drop(record: StateRecord): void {
    record.kind = DROPPED;
    record.transaction = undefined;
    this.#records.delete(record.state);
  }

  /**
   * Move expired transactions to tombstones and forget old tombstones, from the oldest end, at most
   * {@link SWEEP_LIMIT} of each per call. Each entry is swept once, so amortised O(1); `take` and
   * `put` check the times of the entry they touch themselves, so a late sweep changes no answer.
   */
  #sweep(now: number): void {
    for (let i = 0; i < SWEEP_LIMIT; i++) {
      const record = this.#live.peek();
      if (record === undefined || now < record.until) break;
      this.#live.shift();
      this.#bury(record, EXPIRED, now);
    }
    for (let i = 0; i < SWEEP_LIMIT; i++) {
      const record = this.#gone.peek();
      if (record === undefined || now < record.until) break;
      this.#gone.shift();
      this.#forget(record);
    }
  }
}

function expired(): ValidationError {
  return new ValidationError('expired_transaction', 'The transaction for this state has expired');
}
