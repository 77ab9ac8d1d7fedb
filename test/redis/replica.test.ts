/**
 * A claim and a taken transaction are answered only once a replica holds them (WAIT), on a real
 * master with a real replica (Debian's redis-server, `--replicaof`), with each client library: the
 * replica frozen (SIGSTOP) makes them fail with `store_unavailable`, never "claimed"; a server
 * without replicas is sent no WAIT at all; `waitForReplica: false` turns it off.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisOfferLedger, RedisTransactionStore, StoreError } from '../../src/redis.js';
import { browserCookie } from '../helpers/setup.js';
import { result, SECRET } from '../ledger/contract.js';
import { transaction } from '../rp/transactions-fixtures.js';
import { type Connected, connectClient, LIBRARIES } from './clients.js';
import { type RedisServer, startRedis } from './server.js';

let master: RedisServer;
let replica: RedisServer;
let single: RedisServer;
/** A client on each server, to look at it (not the one under test). */
let look: { master: Connected; replica: Connected; single: Connected };
let replicaPid: number;

beforeAll(async () => {
  [master, single] = await Promise.all([startRedis(), startRedis()]);
  replica = await startRedis(['--replicaof', '127.0.0.1', String(master.port)]);
  look = {
    master: await connectClient('ioredis 5', master.port),
    replica: await connectClient('ioredis 5', replica.port),
    single: await connectClient('ioredis 5', single.port),
  };
  const until = Date.now() + 20_000;
  while (!/master_link_status:up/.test(String(await look.replica.command(['INFO', 'replication'])))) {
    if (Date.now() > until) throw new Error('the replica did not connect to its master within 20 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  replicaPid = Number(/process_id:(\d+)/.exec(String(await look.replica.command(['INFO', 'server'])))?.[1]);
}, 30_000);
afterAll(async () => {
  if (replicaPid) process.kill(replicaPid, 'SIGCONT');
  await Promise.all(Object.values(look ?? {}).map((c) => c.close()));
  await Promise.all([replica, master, single].map((s) => s?.close()));
});

/** How many WAIT commands a server has run. */
async function waits(server: Connected): Promise<number> {
  const stats = String(await server.command(['INFO', 'commandstats']));
  return Number(/cmdstat_wait:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

describe.each(LIBRARIES)('with %s', (library) => {
  let redis: Connected;
  let alone: Connected;
  const keyPrefix = `replica-${library.replace(/\W/g, '')}:`;
  beforeAll(async () => {
    redis = await connectClient(library, master.port);
    alone = await connectClient(library, single.port);
  });
  afterAll(async () => {
    await redis?.close();
    await alone?.close();
  });

  // A replica that answers gets 5 s (a loaded machine must not fail the test); one that is frozen
  // is waited for 500 ms.
  type Options = { waitForReplica?: boolean; commandTimeoutMs?: number };
  const ledger = (client: Connected, options: Options = {}) =>
    new RedisOfferLedger({
      client: client.client,
      keyPrefix,
      secret: SECRET,
      whenUnidentifiable: 'refuse',
      commandTimeoutMs: 10_000,
      ...options,
    });
  const store = (client: Connected, options: Options = {}) =>
    new RedisTransactionStore({ client: client.client, keyPrefix, commandTimeoutMs: 10_000, ...options });
  const frozen = { commandTimeoutMs: 1_000 };
  async function started(s: RedisTransactionStore) {
    const tx = transaction({ state: randomBytes(32).toString('base64url') }, Date.now());
    return { state: tx.state, cookie: browserCookie(await s.put(tx)) };
  }
  const shopper = () => result({ reuseDetection: [randomUUID()] });

  it('waits for the replica by default where INFO shows one: the claim and the take are on it when answered', async () => {
    const offers = ledger(redis);
    const transactions = store(redis);
    // The first claim of a connection asks INFO, and the first of a server loads the script.
    await offers.claim('warm-up', shopper());
    const before = await waits(look.master);
    const someone = shopper();
    await expect(offers.claim('spring', someone)).resolves.toEqual({ claimed: true });
    const callback = await started(transactions);
    await expect(transactions.take(callback.state, callback)).resolves.toMatchObject({
      state: callback.state,
    });
    // One WAIT per claim and per take (the put of a start needs none: losing it loses nothing twice).
    expect((await waits(look.master)) - before).toBe(2);
    // What was answered is on the replica already.
    const keys = (await look.replica.command(['KEYS', `${keyPrefix}*`])) as string[];
    expect(keys.some((k) => k.includes(':offer:'))).toBe(true);
    expect(keys.some((k) => k.includes(`:tx:${callback.state}.`))).toBe(true);
  });

  it('answers store_unavailable, never claimed or taken, while no replica confirms; off with waitForReplica: false', async () => {
    expect.assertions(7);
    const offers = ledger(redis, frozen);
    const transactions = store(redis, frozen);
    const callback = await started(transactions);
    const unwaited = await started(transactions);
    // The first claim asks INFO once; after that the replica may freeze.
    await offers.claim('warm-up', shopper());
    process.kill(replicaPid, 'SIGSTOP');
    try {
      const claim = await offers.claim('summer', shopper()).catch((e: unknown) => e);
      expect(claim).toBeInstanceOf(StoreError);
      expect((claim as StoreError).code).toBe('store_unavailable');
      expect((claim as StoreError).message).toMatch(
        /No Redis replica confirmed the write within 500 ms \(WAIT\)/,
      );
      const take = await transactions.take(callback.state, callback).catch((e: unknown) => e);
      expect((take as StoreError).code).toBe('store_unavailable');
      // Without the wait, the master's answer is given: a crash now would lose it.
      const off = { waitForReplica: false };
      await expect(ledger(redis, off).claim('summer', shopper())).resolves.toEqual({ claimed: true });
      await expect(store(redis, off).take(unwaited.state, unwaited)).resolves.toMatchObject({
        state: unwaited.state,
      });
    } finally {
      process.kill(replicaPid, 'SIGCONT');
    }
    // The replica back: answered again.
    await expect(ledger(redis).claim('autumn', shopper())).resolves.toEqual({ claimed: true });
  });

  it('sends no WAIT to a server without replicas, unless told to', async () => {
    const before = await waits(look.single);
    const transactions = store(alone);
    for (let i = 0; i < 3; i++) {
      await expect(ledger(alone).claim('winter', shopper())).resolves.toEqual({ claimed: true });
      const callback = await started(transactions);
      await transactions.take(callback.state, callback);
    }
    expect(await waits(look.single)).toBe(before);
    // Told to wait where there is no replica: it says so, and what to do.
    const error = await ledger(alone, { waitForReplica: true, ...frozen })
      .claim('winter', shopper())
      .catch((e: unknown) => e);
    expect((error as StoreError).code).toBe('store_unavailable');
    expect((error as Error).message).toMatch(/waitForReplica: false/);
  });
});

it('refuses a waitForReplica that is not a boolean', () => {
  expect(
    () => new RedisTransactionStore({ client: look.master.client, waitForReplica: 'yes' as never }),
  ).toThrow(/waitForReplica/);
});
