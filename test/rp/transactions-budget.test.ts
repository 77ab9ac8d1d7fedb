/**
 * Issue 9: whatever the store, one browser holds at most 3 transaction cookies, the newest 3
 * validations; older starts are superseded, and the Cookie header stays under 4 KB after any number
 * of starts.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/rp/errors.js';
import {
  CookieTransactionStore,
  MAX_COOKIE_PAIR_BYTES,
  MAX_TRANSACTION_COOKIES,
  MemoryTransactionStore,
} from '../../src/rp/transactions/index.js';
import type { Transaction, TransactionStore } from '../../src/rp/types.js';
import { CookieJar, transaction as fixture } from './transactions-fixtures.js';

const T0 = 1_700_000_000_000;
const SECRET = 'a-32-byte-or-longer-test-secret-value!!';
/** What some CDNs and proxies accept for all request headers of one kind; nginx's default is 8 KB. */
const FOUR_KB = 4096;

/** A long but realistic transaction: a 43-character state, claims, a long hint and redirect URI. */
function start(i: number, now: number): Transaction {
  return fixture(
    {
      state: randomBytes(32).toString('base64url'),
      scopes: ['openid', 'faculty+staff', 'persistent'],
      affiliation: 'faculty+staff',
      identifier: 'persistent',
      claims: { id_token: { reuse_detection: null }, userinfo: { reuse_detection: null } },
      idpHint: `https://idp.${'university-of-somewhere-'.repeat(3)}${i}.example.edu/idp/shibboleth`,
      redirectUri: 'https://checkout.merchant-with-a-long-name.example.com/affiliation/callback',
    },
    now,
  );
}

const stores: [string, (now: () => number) => TransactionStore][] = [
  ['MemoryTransactionStore', (now) => new MemoryTransactionStore({ now })],
  ['CookieTransactionStore', (now) => new CookieTransactionStore({ secret: SECRET, now })],
];

async function rejectionOf(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

describe.each(stores)('%s: the cookie budget of one browser', (_name, make) => {
  it.each([25, 1_000])(
    'after %i starts: at most 3 cookies, a Cookie header under 4 KB, the newest 3 validate, the others are superseded',
    async (starts) => {
      const clock = { now: T0 };
      const store = make(() => clock.now);
      const jar = new CookieJar(() => clock.now);
      jar.apply('shop_session=0123456789abcdef0123456789abcdef; Path=/'); // the shop's own cookie
      const states: string[] = [];
      let largest = 0;
      for (let i = 0; i < starts; i++) {
        clock.now = T0 + i * 10; // one start every 10 ms: all of them still unexpired
        const tx = start(i, clock.now);
        states.push(tx.state);
        jar.apply(await store.put(tx, { cookie: jar.header() }));
        largest = Math.max(largest, Buffer.byteLength(jar.header()));
      }
      expect(jar.names().length).toBe(1 + MAX_TRANSACTION_COOKIES);
      expect(largest).toBeLessThanOrEqual(FOUR_KB);
      const header = jar.header();
      console.info(`${_name}: Cookie header after ${starts} starts: ${Buffer.byteLength(header)} bytes`);

      // The newest three validate, in any order, each exactly once.
      for (const state of states.slice(-MAX_TRANSACTION_COOKIES).reverse()) {
        await expect(store.take(state, { cookie: header })).resolves.toMatchObject({ state });
      }
      // Every older one is refused as superseded.
      for (const state of states.slice(0, -MAX_TRANSACTION_COOKIES)) {
        const error = await rejectionOf(store.take(state, { cookie: header }));
        expect(error.code).toBe('unknown_state');
        expect(error.message).toMatch(/superseded by a newer one started in the same browser/);
        expect(error.userMessage).toMatch(/start the validation again/);
      }
    },
  );

  it('two tabs: both validations complete, in either order, while a third start is still room', async () => {
    const store = make(() => T0);
    const jar = new CookieJar(() => T0);
    const a = start(1, T0);
    const b = start(2, T0);
    jar.apply(await store.put(a, { cookie: jar.header() }));
    jar.apply(await store.put(b, { cookie: jar.header() }));
    await expect(store.take(b.state, { cookie: jar.header() })).resolves.toMatchObject({ state: b.state });
    jar.apply(store.clearCookie?.(b.state, { cookie: jar.header() }));
    // A new start after B's callback reuses B's name, not A's.
    const c = start(3, T0);
    jar.apply(await store.put(c, { cookie: jar.header() }));
    await expect(store.take(a.state, { cookie: jar.header() })).resolves.toMatchObject({ state: a.state });
    await expect(store.take(c.state, { cookie: jar.header() })).resolves.toMatchObject({ state: c.state });
  });

  it('without the start request’s cookies, each start replaces the previous one (one validation per browser)', async () => {
    const store = make(() => T0);
    const jar = new CookieJar(() => T0);
    const a = start(1, T0);
    const b = start(2, T0);
    jar.apply(await store.put(a));
    jar.apply(await store.put(b));
    expect(jar.names()).toHaveLength(1);
    await expect(store.take(b.state, { cookie: jar.header() })).resolves.toBeDefined();
    const error = await rejectionOf(store.take(a.state, { cookie: jar.header() }));
    expect(error.code).toBe('unknown_state');
  });

  it('an expired validation frees its cookie name for the next start', async () => {
    const clock = { now: T0 };
    const store = make(() => clock.now);
    const jar = new CookieJar(() => clock.now);
    const old = [start(1, T0), start(2, T0), start(3, T0)];
    for (const tx of old) jar.apply(await store.put(tx, { cookie: jar.header() }));
    clock.now = T0 + 300_000;
    const fresh = start(4, clock.now);
    jar.apply(await store.put({ ...fresh, expiresAt: clock.now + 600_000 }, { cookie: jar.header() }));
    clock.now = T0 + 600_000; // the first three expired
    const next = start(5, clock.now);
    jar.apply(await store.put({ ...next, expiresAt: clock.now + 600_000 }, { cookie: jar.header() }));
    await expect(store.take(fresh.state, { cookie: jar.header() })).resolves.toBeDefined();
    await expect(store.take(next.state, { cookie: jar.header() })).resolves.toBeDefined();
  });
});

describe('CookieTransactionStore: the budget in bytes', () => {
  it('never puts more than 3 × 1,022 bytes (+ separators) into the Cookie header: 3,070 bytes', async () => {
    const store = new CookieTransactionStore({ secret: SECRET, cookieName: 'x'.repeat(64) });
    // Grow the hint until the store refuses it: the largest cookie it ever sets.
    let largest = 0;
    for (let length = 20; length < 2_000; length += 7) {
      const tx = fixture({ idpHint: `https://idp.example.edu/${'h'.repeat(length)}` });
      const set = await store.put(tx).catch(() => undefined);
      if (set === undefined) break;
      largest = Math.max(largest, Buffer.byteLength(set.split(';')[0] ?? ''));
    }
    expect(largest).toBeGreaterThan(MAX_COOKIE_PAIR_BYTES - 10);
    expect(largest).toBeLessThanOrEqual(MAX_COOKIE_PAIR_BYTES);
    const worst = MAX_TRANSACTION_COOKIES * MAX_COOKIE_PAIR_BYTES + (MAX_TRANSACTION_COOKIES - 1) * 2;
    expect(worst).toBe(3_070);
  });

  it('a typical transaction cookie takes about 0.4 KB', async () => {
    const store = new CookieTransactionStore({ secret: SECRET });
    const set = await store.put(fixture({ idpHint: 'https://idp.example.edu/idp/shibboleth' }));
    const bytes = Buffer.byteLength(set.split(';')[0] ?? '');
    console.info(`typical transaction cookie: ${bytes} bytes`);
    expect(bytes).toBeLessThan(500);
  });

  it('several instances: an evicted validation is reported as superseded by the instance that did not see the start', async () => {
    const starter = new CookieTransactionStore({ secret: SECRET, now: () => T0 });
    const other = new CookieTransactionStore({ secret: SECRET, now: () => T0 });
    const jar = new CookieJar(() => T0);
    const txs = [1, 2, 3, 4].map((i) => start(i, T0));
    for (const tx of txs) jar.apply(await starter.put(tx, { cookie: jar.header() }));
    const first = txs[0] as Transaction;
    const error = await rejectionOf(other.take(first.state, { cookie: jar.header() }));
    expect(error.code).toBe('unknown_state');
    expect(error.message).toMatch(/superseded/);
  });
});
