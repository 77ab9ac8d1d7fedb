import { OptionsError } from '../../core/errors.js';
import { ValidationError } from '../errors.js';
import type { Transaction, TransactionStore } from '../types.js';
import { checkTransaction, clock, positiveInteger } from './options.js';

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
}

interface Tombstone {
  kind: 'taken' | 'expired';
  forgetAt: number;
}

interface Entry {
  transaction: Transaction;
  expiresAt: number;
}

/**
 * The default {@link TransactionStore}: a bounded in-process map. Every operation is O(1)
 * (amortised): expired entries are swept lazily from the oldest end on each call, so there are no
 * timers and nothing keeps the process alive.
 *
 * - `take(state)` returns a transaction exactly once; a second `take` within `ttlMs` throws
 *   `ValidationError('replayed_transaction')`, one after expiry throws
 *   `ValidationError('expired_transaction')`, an unknown state gives `undefined`.
 * - `put` of a state that is held, or was taken or expired within `ttlMs`, throws {@link OptionsError}: states
 *   are 256-bit random values, so a repeat means a bug in the caller, and accepting it would let a
 *   taken transaction come back.
 * - When full, expired transactions are dropped first, then the oldest live one (its shopper gets
 *   `undefined` on the callback, reported as `unknown_state`). Transactions expire in the order they
 *   were put unless one carries an `expiresAt` shorter than `ttlMs`; such an entry leaves by age.
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
  /** Live transactions by state, in insertion order. */
  readonly #live = new Map<string, Entry>();
  /**
   * Tombstones of taken and of expired states → when to forget them, in insertion order. They let
   * a second `take` say `replayed_transaction` or `expired_transaction` instead of "unknown".
   */
  readonly #gone = new Map<string, Tombstone>();

  constructor(options: MemoryTransactionStoreOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new OptionsError('MemoryTransactionStore options must be an object');
    }
    this.#maxEntries = positiveInteger('maxEntries', options.maxEntries, 10_000);
    this.#ttlMs = positiveInteger('ttlMs', options.ttlMs, 600_000);
    this.#now = clock(options.now);
  }

  /** Number of transactions currently held (expired ones not yet swept included). */
  get size(): number {
    return this.#live.size;
  }

  async put(transaction: Transaction): Promise<undefined> {
    checkTransaction(transaction);
    const now = this.#now();
    this.#sweep(now);
    const { state } = transaction;
    if (this.#live.has(state) || this.#gone.has(state)) {
      throw new OptionsError(
        'A transaction with this `state` is already stored, taken or expired; every transaction needs a fresh random state',
      );
    }
    if (this.#live.size >= this.#maxEntries) {
      // #sweep removed the expired entries at the old end; what is left is live: drop the oldest.
      const oldest = this.#live.keys().next();
      if (!oldest.done) this.#live.delete(oldest.value);
    }
    this.#live.set(state, { transaction, expiresAt: Math.min(transaction.expiresAt, now + this.#ttlMs) });
    return undefined;
  }

  async take(state: string): Promise<Transaction | undefined> {
    if (typeof state !== 'string' || state === '') return undefined;
    const now = this.#now();
    this.#sweep(now);
    const entry = this.#live.get(state);
    if (entry === undefined) {
      const tombstone = this.#gone.get(state);
      if (tombstone?.kind === 'taken') {
        throw new ValidationError(
          'replayed_transaction',
          'The transaction for this state was already used: the callback was submitted twice',
        );
      }
      if (tombstone?.kind === 'expired') throw expired();
      return undefined;
    }
    this.#live.delete(state);
    if (now >= entry.expiresAt) {
      this.#bury(state, 'expired', now + this.#ttlMs);
      throw expired();
    }
    this.#bury(state, 'taken', now + this.#ttlMs);
    return entry.transaction;
  }

  #bury(state: string, kind: Tombstone['kind'], forgetAt: number): void {
    this.#gone.delete(state);
    if (this.#gone.size >= this.#maxEntries) {
      const oldest = this.#gone.keys().next();
      if (!oldest.done) this.#gone.delete(oldest.value);
    }
    this.#gone.set(state, { kind, forgetAt });
  }

  /** Drop expired entries from the oldest end; each entry is dropped once, so amortised O(1). */
  #sweep(now: number): void {
    for (const [state, entry] of this.#live) {
      if (now < entry.expiresAt) break;
      this.#live.delete(state);
      this.#bury(state, 'expired', now + this.#ttlMs);
    }
    for (const [state, tombstone] of this.#gone) {
      if (now < tombstone.forgetAt) break;
      this.#gone.delete(state);
    }
  }
}

function expired(): ValidationError {
  return new ValidationError('expired_transaction', 'The transaction for this state has expired');
}
