/** RedisTransactionStore on a real Redis, with each client library. */
import { createHash, randomBytes } from 'node:crypto';
import { createCluster } from 'redis';
import { createCluster as createCluster4 } from 'redis4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OptionsError } from '../../src/core/errors.js';
import { MemoryOfferLedger } from '../../src/index.js';
import { RedisTransactionStore, StoreError } from '../../src/redis.js';
import { ValidationError } from '../../src/rp/errors.js';
import { encodeTransaction } from '../../src/rp/transactions/codec.js';
import type { Transaction } from '../../src/rp/types.js';
import { CLIENT_SECRET } from '../helpers/op-mock.js';
import { browserCookie, newClient, useOp } from '../helpers/setup.js';
import { transaction as fixture } from '../rp/transactions-fixtures.js';
import { type Connected, connectClient, LIBRARIES } from './clients.js';
import { type RedisServer, startRedis } from './server.js';

const { op } = useOp();

/** A fresh transaction with its own random state, expiring in 10 minutes. */
function transaction(overrides: Parameters<typeof fixture>[0] = {}) {
  return fixture({ state: randomBytes(32).toString('base64url'), ...overrides }, Date.now());
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'no error',
    (error: unknown) => `${(error as Error).constructor.name}:${(error as { code?: string }).code}`,
  );
}

let server: RedisServer;
beforeAll(async () => {
  server = await startRedis();
});
afterAll(async () => {
  await server?.close();
});

describe.each(LIBRARIES)('RedisTransactionStore with %s', (library) => {
  let redis: Connected;
  const keyPrefix = `store-${library.replace(/\W/g, '')}:`;
  const newStore = (options: Partial<ConstructorParameters<typeof RedisTransactionStore>[0]> = {}) =>
    new RedisTransactionStore({ client: redis.client, keyPrefix, ...options });
  beforeAll(async () => {
    redis = await connectClient(library, server.port);
  });
  afterAll(async () => {
    await redis?.close();
  });

  it('hands a transaction to the browser that started it, exactly once', async () => {
    const store = newStore();
    expect(store.bindsToBrowser).toBe(true);
    const tx = transaction();
    const setCookie = await store.put(tx);
    expect(setCookie).toMatch(
      /^__Host-av_bind_0=[0-9a-z]+\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{43}; Max-Age=600; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    const cookie = `session=1; ${browserCookie(setCookie)}`;
    // Any instance (another store object on another connection) can take it.
    const other = await connectClient(library, server.port);
    try {
      const elsewhere = new RedisTransactionStore({ client: other.client, keyPrefix });
      await expect(elsewhere.take(tx.state, { cookie })).resolves.toEqual(tx);
    } finally {
      await other.close();
    }
    expect(await codeOf(store.take(tx.state, { cookie }))).toBe('ValidationError:replayed_transaction');
    expect(store.clearCookie(tx.state, { cookie })).toMatch(/^__Host-av_bind_0=; Max-Age=0; /);
    // Nothing to delete in a browser that does not hold it, and never without the callback's cookies.
    expect(store.clearCookie(tx.state, { cookie: 'session=1' })).toBeUndefined();
    expect(store.clearCookie(tx.state)).toBeUndefined();
  });

  it("tags a binding cookie with the state's first 8 characters, or its digest's for other states", async () => {
    const store = newStore();
    // One browser with three validations: two states sharing their first 8 characters (same tag:
    // take tries both keys) and one that does not start with 8 base64url characters.
    const shared = randomBytes(32).toString('base64url');
    const other = shared[8] === 'x' ? 'y' : 'x'; // a different 9th character (1 in 64 would repeat it)
    const states = [shared, `${shared.slice(0, 8)}${other}${shared.slice(9)}`, 'a.b/c+d=e'];
    const txs = states.map((state) => transaction({ state }));
    const browser = new Map<string, string>(); // cookie name → value, as a browser keeps them
    const jar = () => [...browser].map(([name, value]) => `${name}=${value}`).join('; ');
    const headOf = (state: string) =>
      /^[A-Za-z0-9_-]{8}/.test(state)
        ? state.slice(0, 8)
        : createHash('sha256').update(state).digest('base64url').slice(0, 8);
    for (const tx of [...txs, transaction({ state: 's1' })]) {
      const [name, value] = browserCookie((await store.put(tx, { cookie: jar() })) as string).split('=') as [
        string,
        string,
      ];
      expect(value.split('.')[1]).toBe(headOf(tx.state));
      if (tx.state === 's1') {
        await expect(store.take('s1', { cookie: `${name}=${value}` })).resolves.toEqual(tx);
      } else browser.set(name, value);
    }
    for (const tx of [txs[1], txs[0], txs[2]]) {
      await expect(store.take(tx?.state as string, { cookie: jar() })).resolves.toEqual(tx);
    }
  });

  it('refuses another browser, and a caller that passes no cookie (fail closed), keeping the transaction', async () => {
    const store = newStore();
    const tx = transaction();
    const cookie = browserCookie(await store.put(tx));
    const [name, value] = cookie.split('=') as [string, string];
    const wrong = `${name}=${value.slice(0, -1)}${value.endsWith('A') ? 'B' : 'A'}`;
    for (const context of [{ cookie: '' }, { cookie: 'session=abc' }, { cookie: wrong }, { cookie: null }]) {
      const error = await store.take(tx.state, context).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).code).toBe('unknown_state');
      expect((error as Error).message).not.toContain(value);
    }
    for (const context of [{}, undefined]) {
      await expect(store.take(tx.state, context)).rejects.toThrow(OptionsError);
    }
    const other = transaction();
    const otherCookie = browserCookie(await store.put(other));
    expect(await codeOf(store.take(tx.state, { cookie: otherCookie }))).toBe('ValidationError:unknown_state');
    await expect(store.take(tx.state, { cookie: `${name}=stale; ${cookie}` })).resolves.toEqual(tx);
  });

  it('without browser binding, sets no cookie and needs none', async () => {
    const store = newStore({ bindToBrowser: false });
    expect(store.bindsToBrowser).toBe(false);
    expect(store.clearCookie('x')).toBeUndefined();
    const tx = transaction();
    await expect(store.put(tx)).resolves.toBeUndefined();
    await expect(store.take(tx.state)).resolves.toEqual(tx);
  });

  it('refuses an unknown state: unknown_state when binding, undefined without', async () => {
    expect(await codeOf(newStore().take('no-such-state', { cookie: '' }))).toBe(
      'ValidationError:unknown_state',
    );
    const unbound = newStore({ bindToBrowser: false });
    await expect(unbound.take('no-such-state')).resolves.toBeUndefined();
    await expect(unbound.take('')).resolves.toBeUndefined();
    await expect(unbound.take('x'.repeat(513))).resolves.toBeUndefined();
  });

  it('without binding, refuses a state that is held or was taken', async () => {
    const store = newStore({ bindToBrowser: false });
    const tx = transaction();
    await store.put(tx);
    await expect(store.put(tx)).rejects.toThrow(/fresh random state/);
    await expect(store.take(tx.state)).resolves.toEqual(tx);
    await expect(store.put(tx)).rejects.toThrow(OptionsError);
    expect(await codeOf(store.take(tx.state))).toBe('ValidationError:replayed_transaction');
  });

  it("expires transactions with Redis's own TTL (ttlMs, or the transaction's earlier expiresAt)", async () => {
    const store = newStore({ ttlMs: 300 });
    const tx = transaction();
    const cookie = browserCookie(await store.put(tx));
    const [txKey] = (await redis.command(['KEYS', `${keyPrefix}tx:${tx.state}*`])) as string[];
    const ttl = Number(await redis.command(['PTTL', txKey as string]));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(300);
    const unbound = newStore({ bindToBrowser: false });
    const short = transaction({ expiresAt: Date.now() + 200 });
    await unbound.put(short);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await codeOf(store.take(tx.state, { cookie }))).toBe('ValidationError:unknown_state');
    await expect(unbound.take(short.state)).resolves.toBeUndefined();
    expect(await redis.command(['EXISTS', txKey as string])).toBe(0);
  });

  it('keeps in Redis only the transaction and a digest of the binding: no client secret, no cookie value', async () => {
    const prefix = `raw-${randomBytes(6).toString('hex')}:`;
    const store = newStore({ keyPrefix: prefix });
    const tx = transaction({ idpHint: 'https://idp.example.edu/idp' });
    const cookie = browserCookie(await store.put(tx));
    const keys = (await redis.command(['KEYS', `${prefix}*`])) as string[];
    expect(keys).toHaveLength(1);
    // The state and the SHA-256 of the binding cookie's random part name the key; the cookie's
    // secret is nowhere.
    const value = cookie.split('=')[1] as string;
    const secret = value.slice(value.lastIndexOf('.') + 1);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(keys[0]).toBe(
      `${prefix}tx:${tx.state}.${createHash('sha256').update(secret).digest('base64url')}`,
    );
    const stored = String(await redis.command(['GET', keys[0] as string]));
    expect(`${keys[0]} ${stored}`).not.toContain(secret);
    expect(stored).not.toContain(CLIENT_SECRET);
    // The documented form, the same the cookie store seals: a JSON array in a fixed order, led by
    // the form number 2 and the stored copy's expiry (here the transaction's own), absent fields 0.
    expect(stored).toBe(encodeTransaction(tx, tx.expiresAt));
    expect(JSON.parse(stored)).toEqual([
      2,
      tx.expiresAt,
      tx.state,
      tx.nonce,
      tx.codeVerifier,
      tx.responseType,
      tx.scopes,
      tx.affiliation,
      0,
      0,
      'https://idp.example.edu/idp',
      tx.redirectUri,
      tx.createdAt,
      tx.expiresAt,
    ]);
    await store.take(tx.state, { cookie });
    // Taken: a tombstone under the same key, remembered for ttlMs.
    expect(await redis.command(['KEYS', `${prefix}*`])).toEqual(keys);
    expect(await redis.command(['GET', keys[0] as string])).toBe('T');
  });

  it('hands back every field of the transaction as it was put, optional ones included', async () => {
    const store = newStore();
    const full = transaction({
      identifier: 'persistent',
      claims: { id_token: { reuse_detection: null }, userinfo: { reuse_detection: null } },
      idpHint: 'https://idp.example.edu/idp',
      scopes: ['openid', 'employee', 'persistent'],
      affiliation: 'employee',
    });
    const implicit = transaction({ responseType: 'id_token', codeVerifier: undefined });
    for (const tx of [full, implicit]) {
      const cookie = browserCookie(await store.put(tx));
      // toEqual tells null from undefined: absent fields must come back absent, not null.
      expect(await store.take(tx.state, { cookie })).toEqual(tx);
    }
  });

  /** A store without binding under its own prefix, holding one transaction, and that key. */
  const putUnbound = async (label: string) => {
    const store = newStore({
      keyPrefix: `${label}-${randomBytes(6).toString('hex')}:`,
      bindToBrowser: false,
    });
    const tx = transaction();
    await store.put(tx);
    const [key] = (await redis.command(['KEYS', `${label}-*tx:${tx.state}`])) as string[];
    return { store, tx, key: key as string };
  };

  /** The stored form of `tx` (form 2) with the elements at the given positions replaced. */
  const storedWith = (tx: Transaction, changes: Record<number, unknown>) => {
    const form: unknown[] = [2, tx.expiresAt, tx.state, tx.nonce, 0, 'code', ['openid'], 'student', 0, 0, 0];
    form.push(tx.redirectUri, tx.createdAt, tx.expiresAt);
    for (const [at, value] of Object.entries(changes)) form[Number(at)] = value;
    return JSON.stringify(form);
  };

  it.each([
    ['the transaction as a JSON object (another form)', (tx: Transaction) => JSON.stringify(tx)],
    ['another form', (tx: Transaction) => storedWith(tx, { 0: 3 })],
    ['an array of the wrong length', (tx: Transaction) => JSON.stringify([2, tx.expiresAt, tx.state])],
    ['scopes that are not a list', (tx: Transaction) => storedWith(tx, { 6: 'openid' })],
    ['a number that is a string', (tx: Transaction) => storedWith(tx, { 13: String(tx.expiresAt) })],
    ['an expiry that is a string', (tx: Transaction) => storedWith(tx, { 1: String(tx.expiresAt) })],
    ['an identifier outside the spec', (tx: Transaction) => storedWith(tx, { 8: 'pairwise' })],
    ['a claims request that is a list', (tx: Transaction) => storedWith(tx, { 9: [] })],
  ])('refuses %s under its key as store_failed, never as a transaction', async (_what, form) => {
    // The control: the unchanged form is taken, so the refusal comes from the change.
    const control = await putUnbound('form');
    await redis.command(['SET', control.key, storedWith(control.tx, {})]);
    await expect(control.store.take(control.tx.state)).resolves.toMatchObject({ state: control.tx.state });
    const { store, tx, key } = await putUnbound('form');
    await redis.command(['SET', key, form(tx)]);
    expect(await codeOf(store.take(tx.state))).toBe('StoreError:store_failed');
  });

  it('says when a transaction was stored by another version of the SDK (a rolling deploy)', async () => {
    const { store, tx, key } = await putUnbound('version');
    // Form 1, as the SDK before the shared codec wrote it.
    const old = [
      1,
      tx.state,
      tx.nonce,
      null,
      'code',
      ['openid'],
      'student',
      null,
      null,
      null,
      tx.redirectUri,
    ];
    await redis.command(['SET', key, JSON.stringify([...old, tx.createdAt, tx.expiresAt])]);
    const error = await store.take(tx.state).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('store_failed');
    expect((error as Error).message).toMatch(/stored form 1, written by another version .* reads form 2/);
    expect((error as Error).message).not.toContain(tx.nonce);
  });

  it('refuses a stored copy past its own expiry as expired_transaction, before Redis drops the key', async () => {
    const { store, tx, key } = await putUnbound('until');
    await redis.command(['SET', key, storedWith(tx, { 1: Date.now() - 1 })]);
    expect(await codeOf(store.take(tx.state))).toBe('ValidationError:expired_transaction');
  });

  it('reports a value it did not write, or a key of another type, as store_failed', async () => {
    const { store, tx, key } = await putUnbound('foreign');
    await redis.command(['SET', key, 'not ours']);
    expect(await codeOf(store.take(tx.state))).toBe('StoreError:store_failed');
    await redis.command(['DEL', key]);
    await redis.command(['LPUSH', key, 'x']);
    const error = await store.take(tx.state).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('store_failed');
    expect((error as StoreError).redisError).toBe('WRONGTYPE');
  });

  it('keeps at most three binding cookies per browser: free slots first, then the one expiring first', async () => {
    const store = newStore();
    let jar = 'session=1';
    const started: { tx: ReturnType<typeof transaction>; name: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const tx = transaction({ expiresAt: Date.now() + 600_000 - (i === 1 ? 60_000 : 0) });
      const pair = browserCookie(await store.put(tx, { cookie: jar }));
      const name = pair.split('=')[0] as string;
      started.push({ tx, name });
      // The browser replaces a cookie of the same name.
      jar = [...jar.split('; ').filter((c) => !c.startsWith(`${name}=`)), pair].join('; ');
    }
    expect(started.map((s) => s.name.slice(-1))).toEqual(['0', '1', '2', '1', '0']);
    expect(jar.split('; ').filter((c) => c.startsWith('__Host-av_bind_'))).toHaveLength(3);
    // The three newest validations work from this browser, in any order; the superseded ones do not.
    for (const i of [4, 2, 3])
      await expect(store.take(started[i]!.tx.state, { cookie: jar })).resolves.toEqual(started[i]!.tx);
    for (const i of [0, 1])
      expect(await codeOf(store.take(started[i]!.tx.state, { cookie: jar }))).toBe(
        'ValidationError:unknown_state',
      );
    // A finished validation's slot is free again once the callback cleared its cookie.
    const clear = store.clearCookie(started[3]!.tx.state, { cookie: jar }) as string;
    expect(clear).toMatch(/^__Host-av_bind_1=;/);
    jar = jar
      .split('; ')
      .filter((c) => !c.startsWith('__Host-av_bind_1='))
      .join('; ');
    expect(browserCookie(await store.put(transaction(), { cookie: jar }))).toMatch(/^__Host-av_bind_1=/);
  });

  it('turns READONLY (a replica after failover) into store_unavailable, and works again after', async () => {
    const store = newStore();
    const admin = await connectClient(library, server.port);
    try {
      // A master that does not exist: this server turns read-only and stays so until REPLICAOF NO ONE.
      await admin.command(['REPLICAOF', '127.0.0.1', '1']);
      const error = await store.put(transaction()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect((error as StoreError).code).toBe('store_unavailable');
      expect((error as StoreError).redisError).toBe('READONLY');
    } finally {
      await admin.command(['REPLICAOF', 'NO', 'ONE']);
      await admin.close();
    }
    const tx = transaction();
    const cookie = browserCookie(await store.put(tx));
    await expect(store.take(tx.state, { cookie })).resolves.toEqual(tx);
  });

  it('gives up after commandTimeoutMs when Redis does not answer', async () => {
    const store = newStore({ commandTimeoutMs: 100 });
    const tx = transaction();
    const cookie = browserCookie(await store.put(tx));
    const admin = await connectClient(library, server.port);
    try {
      await admin.command(['CLIENT', 'PAUSE', '600', 'ALL']);
      const error = await store.take(tx.state, { cookie }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect((error as StoreError).code).toBe('store_unavailable');
      expect((error as Error).message).toMatch(/did not answer within 100 ms/);
    } finally {
      await admin.command(['CLIENT', 'UNPAUSE']);
      await admin.close();
    }
  });

  it('fails with store_unavailable on a closed client, and never queues the command', async () => {
    const own = await connectClient(library, server.port);
    const store = new RedisTransactionStore({ client: own.client, keyPrefix });
    await own.close();
    const error = await store.put(transaction()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('store_unavailable');
    expect((error as Error).message).toMatch(/closed|end/);
  });

  it('serves AffiliationClient end to end, with the offer ledger on the result', async () => {
    const store = newStore();
    const client = await newClient({ transactions: store });
    const ledger = new MemoryOfferLedger({
      secret: 'ledger-secret-0123456789abcdef-0123456789',
      whenUnidentifiable: 'refuse',
    });
    const request = await client.createAuthorizationRequest({
      affiliation: 'student',
      claims: { id_token: { reuse_detection: null } },
    });
    const callback = await op.authorize(request.url);
    const result = await client.validateCallback(callback, { cookie: browserCookie(request.setCookie) });
    expect(result.reuseDetection).toEqual(['rd-1', 'rd-2']);
    await expect(ledger.claim('welcome', result)).resolves.toEqual({ claimed: true });
    // The callback again: the transaction was taken.
    const replay = await client
      .validateCallback(callback, { cookie: browserCookie(request.setCookie) })
      .catch((e: unknown) => e);
    expect((replay as ValidationError).code).toBe('replayed_transaction');
  });
});

describe('RedisTransactionStore options', () => {
  it.each([
    ['node-redis 5', () => createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:1' }] })],
    ['node-redis 4', () => createCluster4({ rootNodes: [{ url: 'redis://127.0.0.1:1' }] })],
  ] as const)('takes a %s cluster client, and says when it was never connected', async (_library, make) => {
    const cluster = make();
    // A cluster has `isOpen` but no `isReady`, and routes a command by its first key.
    expect('isReady' in cluster).toBe(false);
    const store = new RedisTransactionStore({ client: cluster });
    const error = await store.put(transaction()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('store_unavailable');
    expect((error as Error).message).toMatch(/cluster client is closed or was never connected/);
  });

  it('refuses something that is not a Redis client, and bad options, naming them', () => {
    expect(() => new RedisTransactionStore({ client: {} as never })).toThrow(/node-redis client.*ioredis/);
    expect(() => new RedisTransactionStore(undefined as never)).toThrow(OptionsError);
    const client = { isReady: true, isOpen: true, sendCommand: async () => null };
    expect(() => new RedisTransactionStore({ client, keyPrefix: 'a{b}' })).toThrow(/keyPrefix/);
    expect(() => new RedisTransactionStore({ client, ttlMs: 0 })).toThrow(/ttlMs/);
    expect(() => new RedisTransactionStore({ client, commandTimeoutMs: -1 })).toThrow(/commandTimeoutMs/);
    expect(() => new RedisTransactionStore({ client, bindToBrowser: 'yes' as never })).toThrow(
      /bindToBrowser/,
    );
    expect(() => new RedisTransactionStore({ client, secure: false, cookieName: '__Host-x' })).toThrow(
      /__Host-/,
    );
  });
});
