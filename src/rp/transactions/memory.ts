import { OptionsError } from '../../core/errors.js';
import { clock, describe, integerOption } from '../../core/options.js';
import { random256 } from '../../core/random.js';
import { ValidationError } from '../errors.js';
import type { Transaction, TransactionContext, TransactionStore } from '../types.js';
import { cookieHeader, cookieRequired, MAX_TRANSACTION_COOKIES, TransactionCookies } from './cookies.js';
import { type GoneEntry, GoneStates } from './gone-states.js';
import { checkTransaction } from './options.js';
import { goneError, noCookieError, supersededError } from './outcomes.js';

/** Options of {@link MemoryTransactionStore}. @group Transactions */
export interface MemoryTransactionStoreOptions {
  /**
   * Most transactions held at once, and most taken states remembered for replay detection.
   * When full, expired entries go first, then the oldest. Default `10_000`.
   */
  maxEntries?: number | undefined;
  /**
   * Longest time a transaction is kept, in milliseconds; a transaction's own `expiresAt` applies
   * when earlier. Taken states are remembered this long. Default `600_000` (10 minutes).
   */
  ttlMs?: number | undefined;
  /** Clock, ms since the epoch. Default `Date.now`. */
  now?: (() => number) | undefined;
  /**
   * Bind each transaction to the browser that started it (RFC 9700 §2.1, OpenID Connect Core
   * 3.1.2.1): `put` returns a `Set-Cookie` header value (a 256-bit random value, HttpOnly) that the
   * start route must send with its redirect, and `take` refuses a callback whose `cookie` header
   * does not carry it, or that comes without cookie information at all (fail closed). Turn off
   * only when your app binds the `state` to the browser itself (e.g. keeps it in its own session
   * and compares). Default `true`.
   */
  bindToBrowser?: boolean | undefined;
  /**
   * Prefix of the binding cookies: a browser holds at most three, `<cookieName>_0` … `_2`. Default
   * `'__Host-av_bind'` (a sibling subdomain cannot plant one), or `'av_bind'` when `secure` is off
   * or `path` is not `/`.
   */
  cookieName?: string | undefined;
  /** `Secure` attribute of the binding cookie. Turn off only for plain-http development. Default `true`. */
  secure?: boolean | undefined;
  /** `SameSite` attribute of the binding cookie (as in `CookieTransactionStoreOptions`). Default `'lax'`. */
  sameSite?: 'lax' | 'strict' | undefined;
  /** `Path` attribute of the binding cookie; the callback route must lie under it. Default `'/'`. */
  path?: string | undefined;
}

interface Held {
  transaction: Transaction;
  /** When it expires, ms since the epoch. */
  until: number;
  /** The binding cookie's slot and value, when the store binds. */
  slot: number;
  binding: string | undefined;
  /** Order of `put`s, to find a browser's oldest validation. */
  seq: number;
}

/**
 * The default {@link TransactionStore}: a bounded in-process map. Two `Map`s, in insertion order:
 * the held transactions (oldest first) and what happened to the states that are gone (taken,
 * expired, superseded, evicted), so a second callback gets a precise answer. Expired entries are
 * swept lazily from the oldest end on each call; no timers, nothing keeps the process alive.
 *
 * - `take(state)` returns a transaction exactly once; a second `take` within `ttlMs` throws
 *   `ValidationError('replayed_transaction')`, one after expiry throws
 *   `ValidationError('expired_transaction')`, an unknown state gives `undefined`.
 * - `put` of a state that is held, or was taken or expired within `ttlMs`, throws
 *   {@link OptionsError}: states are 256-bit random values, so a repeat means a bug in the caller,
 *   and accepting it would let a taken transaction come back.
 * - When full (`maxEntries`), the oldest held transaction is dropped (its callback then gets
 *   `unknown_state`, saying so).
 * - Browser binding (option `bindToBrowser`, default on): `put` returns the `Set-Cookie` value of a
 *   binding cookie (256-bit random, `HttpOnly`); `take` refuses a browser that does not carry it
 *   (`unknown_state`) and keeps the transaction. A browser holds at most
 *   {@link MAX_TRANSACTION_COOKIES} binding cookies (`<cookieName>_0` … `_2`): given the start
 *   request's cookies (`put(tx, { cookie })`), a start uses a free one or replaces the browser's
 *   oldest validation, which is then refused as superseded.
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
  /** Held transactions by state, oldest first. */
  readonly #held = new Map<string, Held>();
  /** The state of each held transaction's binding value. */
  readonly #bindings = new Map<string, string>();
  readonly #gone: GoneStates;
  #seq = 0;

  constructor(options: MemoryTransactionStoreOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new OptionsError('MemoryTransactionStore options must be an object');
    }
    this.#maxEntries = integerOption('maxEntries', options.maxEntries, 10_000);
    this.#ttlMs = integerOption('ttlMs', options.ttlMs, 600_000);
    this.#now = clock(options.now);
    const bind = options.bindToBrowser ?? true;
    if (typeof bind !== 'boolean') {
      throw new OptionsError(`Option \`bindToBrowser\` must be a boolean, got ${describe(bind)}`);
    }
    this.#cookies = bind ? new TransactionCookies(options, 'av_bind') : undefined;
    this.#gone = new GoneStates(this.#maxEntries, this.#ttlMs);
  }

  /** Whether transactions are bound to the browser that started them (option `bindToBrowser`). */
  get bindsToBrowser(): boolean {
    return this.#cookies !== undefined;
  }

  /** Number of transactions currently held (expired ones not yet swept included). */
  get size(): number {
    return this.#held.size;
  }

  /**
   * Hold the transaction. With `bindToBrowser` (the default), return the `Set-Cookie` header value
   * of its binding cookie: send it with the redirect to the service. `context.cookie` is the start
   * request's `Cookie` header: with it the store picks a free binding cookie of this browser or
   * replaces its oldest validation; without it, it always uses the first (one validation per
   * browser).
   */
  async put(transaction: Transaction, context?: TransactionContext): Promise<string | undefined> {
    checkTransaction(transaction);
    const now = this.#now();
    this.#sweep(now);
    const { state } = transaction;
    if (this.#held.has(state) || this.#gone.get(state, now) !== undefined) {
      throw new OptionsError(
        'A transaction with this `state` is already stored, taken or expired; every transaction needs a fresh random state',
      );
    }
    if (this.#held.size >= this.#maxEntries) {
      const oldest = this.#held.keys().next();
      if (!oldest.done) this.#retire(oldest.value, 'evicted', now);
    }
    const until = Math.min(transaction.expiresAt, now + this.#ttlMs);
    const cookies = this.#cookies;
    if (cookies === undefined) {
      this.#held.set(state, { transaction, until, slot: 0, binding: undefined, seq: ++this.#seq });
      return undefined;
    }
    const { slot, superseded } = await cookies.slotFor(cookieHeader(context), (value, slot) => {
      const bound = this.#bindings.get(value);
      const held = bound === undefined ? undefined : this.#held.get(bound);
      return held?.slot === slot && now < held.until ? { order: held.seq, state: bound } : undefined;
    });
    if (superseded !== undefined) this.#retire(superseded, 'superseded', now);
    const binding = random256();
    this.#held.set(state, { transaction, until, slot, binding, seq: ++this.#seq });
    this.#bindings.set(binding, state);
    return cookies.set(slot, binding, Math.max(0, Math.ceil((until - now) / 1000)));
  }

  /**
   * Take the transaction for `state`, exactly once. When the store binds to the browser,
   * `context.cookie` (the callback's `Cookie` header) is required and must carry the
   * transaction's binding cookie, else `ValidationError('unknown_state')` says which case it is and
   * the transaction stays for the right browser.
   *
   * @throws {OptionsError} when the store binds and `context.cookie` is `undefined`.
   */
  async take(state: string, context?: TransactionContext): Promise<Transaction | undefined> {
    const cookie = cookieHeader(context);
    if (this.#cookies !== undefined && cookie === undefined) throw cookieRequired();
    if (typeof state !== 'string' || state === '') return undefined;
    const now = this.#now();
    this.#sweep(now);
    const held = this.#held.get(state);
    if (held === undefined) {
      const gone = this.#gone.get(state, now);
      if (gone === undefined) return undefined;
      throw goneError(gone.kind);
    }
    if (now >= held.until) {
      this.#retire(state, 'expired', now);
      throw goneError('expired');
    }
    if (held.binding !== undefined) this.#checkBinding(held, cookie ?? '');
    this.#retire(state, 'taken', now);
    return held.transaction;
  }

  /**
   * The `Set-Cookie` header value that deletes the binding cookie of `state` from the browser
   * whose callback `context.cookie` comes from (send it with the callback's response;
   * `callbackHandler` does), or `undefined` when that browser does not hold it (nothing to delete,
   * and a newer validation's cookie in the same slot is left alone) or the store does not bind.
   */
  clearCookie(state: string, context?: TransactionContext): string | undefined {
    const cookies = this.#cookies;
    const header = cookieHeader(context);
    if (cookies === undefined || header === undefined || typeof state !== 'string') return undefined;
    const entry = this.#held.get(state) ?? this.#gone.get(state, this.#now());
    if (entry?.binding === undefined || entry.slot === undefined) return undefined;
    const offered = cookies.read(header)[entry.slot] ?? [];
    return offered.some((value) => same(value, entry.binding as string))
      ? cookies.clear(entry.slot)
      : undefined;
  }

  /** Refuse a callback whose cookies lack the binding cookie, saying which case it is. */
  #checkBinding(held: Held, cookie: string): void {
    const cookies = this.#cookies as TransactionCookies;
    const slots = cookies.read(cookie);
    const offered = slots[held.slot] ?? [];
    if (offered.some((value) => same(value, held.binding as string))) return;
    // Not consumed: a link scanner or another browser that opens the callback URL first must not
    // spoil the validation for the shopper's own browser.
    if (slots.every((values) => values.length === 0)) throw noCookieError('binding', cookies.secure);
    // Its cookie name now holds the binding of a newer validation of this store: the same browser
    // started again (a start route that does not pass the start request's cookies reuses the name).
    const newer = offered.some((value) => {
      const state = this.#bindings.get(value);
      return state !== undefined && (this.#held.get(state)?.seq ?? 0) > held.seq;
    });
    if (newer) throw supersededError();
    throw new ValidationError(
      'The callback did not come from the browser that started this validation (its binding cookie is missing or different)',
      { code: 'unknown_state' },
    );
  }

  /** A held transaction leaves; what happened to it is remembered for `ttlMs`. */
  #retire(state: string, kind: GoneEntry['kind'], now: number): void {
    const held = this.#held.get(state);
    if (held === undefined) return;
    this.#held.delete(state);
    if (held.binding !== undefined) this.#bindings.delete(held.binding);
    this.#gone.note(
      state,
      kind,
      now,
      held.binding === undefined ? {} : { slot: held.slot, binding: held.binding },
    );
  }

  /** Expired transactions become "expired" entries, oldest first; old entries are forgotten. */
  #sweep(now: number): void {
    for (const [state, held] of this.#held) {
      if (now < held.until) break;
      this.#retire(state, 'expired', now);
    }
    this.#gone.sweep(now);
  }
}

/** Compare a cookie value with a binding value in constant time. */
function same(offered: string, expected: string): boolean {
  if (offered.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < offered.length; i++) diff |= offered.charCodeAt(i) ^ expected.charCodeAt(i);
  return diff === 0;
}
