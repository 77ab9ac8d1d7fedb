import { afterEach, describe, expect, it, vi } from 'vitest';
import { OptionsError } from '../../src/core/errors.js';
import { MemoryTransactionStore } from '../../src/rp/transactions/index.js';
import type { TransactionStore } from '../../src/rp/types.js';
import { codeOf, transaction } from './transactions-fixtures.js';

const T0 = 1_700_000_000_000;

/** A store at a fixed clock; unbound, since the browser binding has its own tests (transactions-binding). */
function storeAt(options: ConstructorParameters<typeof MemoryTransactionStore>[0] = {}) {
  const clock = { now: T0 };
  const store = new MemoryTransactionStore({ now: () => clock.now, bindToBrowser: false, ...options });
  return { store, clock };
}

describe('MemoryTransactionStore', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('implements TransactionStore; put returns a binding cookie, or nothing with bindToBrowser: false', async () => {
    const store: TransactionStore = new MemoryTransactionStore();
    expect(store.bindsToBrowser).toBe(true);
    expect(await store.put(transaction())).toMatch(/^__Host-av_bind_0=[A-Za-z0-9_-]{43}; /);
    const unbound: TransactionStore = new MemoryTransactionStore({ bindToBrowser: false });
    expect(await unbound.put(transaction())).toBeUndefined();
  });

  it('returns a transaction exactly once, then reports the replay', async () => {
    const { store } = storeAt();
    const tx = transaction();
    await store.put(tx);
    expect(await store.take(tx.state)).toEqual(tx);
    expect(await codeOf(store.take(tx.state))).toBe('replayed_transaction');
    expect(await codeOf(store.take(tx.state))).toBe('replayed_transaction');
  });

  it('returns undefined for an unknown or empty state', async () => {
    const { store } = storeAt();
    await store.put(transaction());
    expect(await store.take('never-issued')).toBeUndefined();
    expect(await store.take('')).toBeUndefined();
    expect(await store.take(undefined as unknown as string)).toBeUndefined();
  });

  it('keeps transactions apart by state', async () => {
    const { store } = storeAt();
    const a = transaction({ state: 'a' });
    const b = transaction({ state: 'b', affiliation: 'member' });
    await store.put(a);
    await store.put(b);
    expect(await store.take('b')).toEqual(b);
    expect(await store.take('a')).toEqual(a);
  });

  it('expires after ttlMs (injected clock)', async () => {
    const { store, clock } = storeAt({ ttlMs: 60_000 });
    await store.put(transaction({ state: 'a', expiresAt: T0 + 3_600_000 }));
    await store.put(transaction({ state: 'b', expiresAt: T0 + 3_600_000 }));
    clock.now = T0 + 59_999;
    expect(await store.take('a')).toBeDefined();
    clock.now = T0 + 60_000;
    expect(await codeOf(store.take('b'))).toBe('expired_transaction');
    // A second take of an expired state still says expired, not replayed and not unknown.
    expect(await codeOf(store.take('b'))).toBe('expired_transaction');
  });

  it("honours a transaction's own earlier expiresAt", async () => {
    const { store, clock } = storeAt({ ttlMs: 600_000 });
    await store.put(transaction({ expiresAt: T0 + 1_000 }));
    clock.now = T0 + 1_000;
    expect(await codeOf(store.take(transaction().state))).toBe('expired_transaction');
  });

  it('reports expiry even after a sweep removed the entry (fake timers, default clock)', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    const store = new MemoryTransactionStore({ ttlMs: 1_000, bindToBrowser: false });
    await store.put(transaction({ state: 'old', expiresAt: T0 + 10_000 }));
    vi.setSystemTime(T0 + 5_000);
    await store.put(transaction({ state: 'new', expiresAt: T0 + 10_000 })); // sweeps 'old'
    expect(store.size).toBe(1);
    expect(await codeOf(store.take('old'))).toBe('expired_transaction');
    expect(await store.take('new')).toBeDefined();
  });

  it('forgets taken states after ttlMs: a late replay is then unknown', async () => {
    const { store, clock } = storeAt({ ttlMs: 1_000 });
    await store.put(transaction());
    await store.take(transaction().state);
    clock.now = T0 + 999;
    expect(await codeOf(store.take(transaction().state))).toBe('replayed_transaction');
    clock.now = T0 + 1_000;
    expect(await store.take(transaction().state)).toBeUndefined();
  });

  it('refuses a second put of a held, taken or expired state with an OptionsError', async () => {
    const { store, clock } = storeAt({ ttlMs: 1_000 });
    await store.put(transaction({ state: 'held' }));
    await expect(store.put(transaction({ state: 'held' }))).rejects.toThrow(OptionsError);
    await store.put(transaction({ state: 'taken' }));
    await store.take('taken');
    await expect(store.put(transaction({ state: 'taken' }))).rejects.toThrow(
      /already stored, taken or expired/,
    );
    await store.put(transaction({ state: 'expired' }));
    clock.now = T0 + 1_000;
    await store.take('unrelated'); // sweeps
    await expect(store.put(transaction({ state: 'expired' }))).rejects.toThrow(OptionsError);
  });

  it('is bounded: when full it evicts expired entries first', async () => {
    const { store, clock } = storeAt({ maxEntries: 3, ttlMs: 1_000 });
    await store.put(transaction({ state: 'a', expiresAt: T0 + 10_000 }));
    clock.now = T0 + 500;
    await store.put(transaction({ state: 'b', expiresAt: T0 + 10_000 }));
    await store.put(transaction({ state: 'c', expiresAt: T0 + 10_000 }));
    clock.now = T0 + 1_000; // 'a' expired
    await store.put(transaction({ state: 'd', expiresAt: T0 + 10_000 }));
    expect(store.size).toBe(3);
    expect(await codeOf(store.take('a'))).toBe('expired_transaction');
    expect(await store.take('b')).toBeDefined();
    expect(await store.take('c')).toBeDefined();
    expect(await store.take('d')).toBeDefined();
  });

  it('is bounded: when full of live entries it evicts the oldest, and says so on its callback', async () => {
    const { store } = storeAt({ maxEntries: 3 });
    for (const state of ['a', 'b', 'c', 'd', 'e']) await store.put(transaction({ state }));
    expect(store.size).toBe(3);
    await expect(store.take('a')).rejects.toThrow(
      /dropped because the store was full \(raise `maxEntries`\)/,
    );
    expect(await codeOf(store.take('b'))).toBe('unknown_state');
    for (const state of ['c', 'd', 'e']) expect(await store.take(state)).toBeDefined();
  });

  it('bounds the remembered taken states too', async () => {
    const { store } = storeAt({ maxEntries: 2 });
    for (const state of ['a', 'b', 'c']) {
      await store.put(transaction({ state }));
      await store.take(state);
    }
    expect(await store.take('a')).toBeUndefined(); // forgotten: the oldest tombstone was dropped
    expect(await codeOf(store.take('b'))).toBe('replayed_transaction');
    expect(await codeOf(store.take('c'))).toBe('replayed_transaction');
  });

  it('stays bounded under many transactions', async () => {
    const { store, clock } = storeAt({ maxEntries: 100, ttlMs: 10_000 });
    for (let i = 0; i < 5_000; i++) {
      clock.now = T0 + i * 10;
      await store.put(transaction({ state: `s${i}`, expiresAt: clock.now + 60_000 }));
      if (i % 2 === 0) await store.take(`s${i}`);
      expect(store.size).toBeLessThanOrEqual(100);
    }
  });

  it('sweeps a backlog of expired transactions lazily, and still answers them as expired', async () => {
    const { store, clock } = storeAt({ ttlMs: 1_000 });
    for (let i = 0; i < 500; i++) await store.put(transaction({ state: `old${i}`, expiresAt: T0 + 60_000 }));
    clock.now = T0 + 1_000; // all 500 expired at once
    await store.put(transaction({ state: 'fresh', expiresAt: T0 + 60_000 }));
    expect(store.size).toBe(1);
    expect(await codeOf(store.take('old499'))).toBe('expired_transaction');
    expect(await codeOf(store.take('old0'))).toBe('expired_transaction');
    await expect(store.put(transaction({ state: 'old250' }))).rejects.toThrow(OptionsError);
    expect(await store.take('fresh')).toBeDefined();
  });

  it('forgets a tombstone on time even before a sweep reaches it', async () => {
    const { store, clock } = storeAt({ ttlMs: 1_000 });
    for (let i = 0; i < 300; i++) {
      await store.put(transaction({ state: `s${i}`, expiresAt: T0 + 60_000 }));
      await store.take(`s${i}`);
    }
    expect(await codeOf(store.take('s299'))).toBe('replayed_transaction');
    clock.now = T0 + 1_000;
    // The first call sweeps only part of the 300 tombstones; s299 is among the last.
    expect(await store.take('s299')).toBeUndefined();
    expect(await store.take('s298')).toBeUndefined();
    // A state whose tombstone is past its time may be used again.
    await store.put(transaction({ state: 's297', expiresAt: T0 + 60_000 }));
    expect(await store.take('s297')).toBeDefined();
    expect(await codeOf(store.take('s297'))).toBe('replayed_transaction');
  });

  it('stays correct in a long put+take run behind a long-lived transaction', async () => {
    const { store, clock } = storeAt({ maxEntries: 500, ttlMs: 60_000 });
    await store.put(transaction({ state: 'first', expiresAt: T0 + 600_000 }));
    for (let i = 0; i < 20_000; i++) {
      clock.now = T0 + i;
      await store.put(transaction({ state: `s${i}`, expiresAt: T0 + 600_000 }));
      expect(await store.take(`s${i}`)).toBeDefined();
    }
    expect(store.size).toBe(1);
    // The remembered states are the latest maxEntries ones.
    expect(await codeOf(store.take('s19999'))).toBe('replayed_transaction');
    expect(await codeOf(store.take('s19500'))).toBe('replayed_transaction');
    expect(await store.take('s19499')).toBeUndefined();
    expect(await store.take('first')).toBeDefined();
  });

  it('when full, drops the oldest held transaction, also with remembered states between them', async () => {
    const { store } = storeAt({ maxEntries: 3 });
    await store.put(transaction({ state: 'a' }));
    await store.put(transaction({ state: 'b' }));
    await store.take('b');
    await store.put(transaction({ state: 'c' }));
    await store.put(transaction({ state: 'd' }));
    await store.put(transaction({ state: 'e' })); // full with a, c, d: a goes
    expect(store.size).toBe(3);
    expect(await codeOf(store.take('a'))).toBe('unknown_state');
    expect(await codeOf(store.take('b'))).toBe('replayed_transaction');
    for (const state of ['c', 'd', 'e']) expect(await store.take(state)).toBeDefined();
  });

  it('reports every take failure as a rejection, never a synchronous throw', async () => {
    let broken = false;
    const store = new MemoryTransactionStore({
      bindToBrowser: false,
      now: () => {
        if (broken) throw new Error('clock broke');
        return T0;
      },
    });
    await store.put(transaction({ state: 'a' }));
    await store.take('a');
    let replay: Promise<unknown> | undefined;
    expect(() => {
      replay = store.take('a');
    }).not.toThrow();
    expect(await codeOf(replay as Promise<unknown>)).toBe('replayed_transaction');
    broken = true;
    let failing: Promise<unknown> | undefined;
    expect(() => {
      failing = store.take('b');
    }).not.toThrow();
    await expect(failing).rejects.toThrow('clock broke');
  });

  it('keeps no timer alive', async () => {
    vi.useFakeTimers();
    const store = new MemoryTransactionStore();
    await store.put(transaction());
    expect(vi.getTimerCount()).toBe(0);
  });

  it('validates options up front, naming the option', () => {
    expect(() => new MemoryTransactionStore({ maxEntries: 0 })).toThrow(/`maxEntries`/);
    expect(() => new MemoryTransactionStore({ maxEntries: 1.5 })).toThrow(/`maxEntries`/);
    expect(() => new MemoryTransactionStore({ ttlMs: -1 })).toThrow(/`ttlMs`/);
    expect(() => new MemoryTransactionStore({ ttlMs: Number.NaN })).toThrow(/`ttlMs`/);
    expect(() => new MemoryTransactionStore({ ttlMs: '600000' as unknown as number })).toThrow(OptionsError);
    expect(() => new MemoryTransactionStore({ now: 5 as unknown as () => number })).toThrow(/`now`/);
    expect(() => new MemoryTransactionStore(null as unknown as undefined)).toThrow(OptionsError);
  });

  it('refuses a malformed transaction in put', async () => {
    const store = new MemoryTransactionStore();
    await expect(store.put(transaction({ state: '' }))).rejects.toThrow(/transaction.state/);
    await expect(store.put(transaction({ expiresAt: Number.NaN }))).rejects.toThrow(/transaction.expiresAt/);
  });
});
