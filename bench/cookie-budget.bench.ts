/**
 * The Cookie header a shop receives from one browser after many starts, store by store (issue 9; the
 * real-browser figure is bench/cookies.bench.ts): each transaction
 * store with its cookie budget, against the same starts with one cookie per start and no budget (the
 * behaviour before, measured in the same run by giving each cookie its own name). Bytes, not time.
 */
import { randomBytes } from 'node:crypto';
import { CookieTransactionStore, MemoryTransactionStore } from '../src/rp/transactions/index.js';
import type { Transaction, TransactionStore } from '../src/rp/types.js';
import { report } from './util.js';

const T0 = Date.now();

function transaction(i: number): Transaction {
  return {
    state: randomBytes(32).toString('base64url'),
    nonce: randomBytes(32).toString('base64url'),
    codeVerifier: randomBytes(32).toString('base64url'),
    responseType: 'code',
    scopes: ['openid', 'student'],
    affiliation: 'student',
    idpHint: `https://idp.university-${i}.example.edu/idp/shibboleth`,
    redirectUri: 'https://shop.example.com/callback',
    createdAt: T0 + i,
    expiresAt: T0 + i + 600_000,
  };
}

/** Name → value, as a browser keeps them; the Cookie header it sends. */
async function starts(store: TransactionStore, n: number, budget: boolean): Promise<number> {
  const jar = new Map<string, string>();
  const header = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  for (let i = 0; i < n; i++) {
    const set = await store.put(transaction(i), { cookie: header() });
    const pair = (set ?? '').split(';')[0] ?? '';
    const eq = pair.indexOf('=');
    jar.set(budget ? pair.slice(0, eq) : `${pair.slice(0, eq)}_${i}`, pair.slice(eq + 1));
  }
  return Buffer.byteLength(header());
}

export default async function run(): Promise<void> {
  for (const n of [25, 1_000]) {
    for (const [name, make] of [
      [
        'CookieTransactionStore',
        () => new CookieTransactionStore({ secret: randomBytes(32), now: () => T0 }),
      ],
      ['MemoryTransactionStore', () => new MemoryTransactionStore({ now: () => T0 })],
    ] as const) {
      const unbounded = await starts(make(), n, false);
      const bounded = await starts(make(), n, true);
      report(`${name}: Cookie header after ${n} starts, one cookie per start (baseline)`, unbounded, 'bytes');
      report(`${name}: Cookie header after ${n} starts, with the budget (≤ 3 cookies)`, bounded, 'bytes');
    }
  }
}
