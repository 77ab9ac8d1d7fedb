/**
 * Redis benchmarks on a real redis-server (started here, stopped at the end), each against a
 * baseline measured in the same run:
 * (a) RedisTransactionStore put+take (browser binding on) against a bare `SET … PX` + `GETDEL` of a
 *     value of the same size under a key of the same length on the same connection, one at a time,
 *     with node-redis 5 and ioredis 5. Both are two round trips; the difference is the store's own
 *     work (the binding cookie, a SHA-256, the transaction's JSON, the command timer).
 * (b) RedisOfferLedger claims per second from 4 app processes (8 claims in flight each) against a
 *     bare `SET key 1 NX` per call from the same 4 processes.
 * (c) What waiting for a replica costs a claim (`waitForReplica`, on by default where the server has
 *     replicas): on a master with one replica, one claim at a time, with the wait and without it,
 *     against a bare `SET key 1 NX` on the same connection; alternating rounds.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { random256 } from '../src/core/random.js';
import { RedisOfferLedger, RedisTransactionStore } from '../src/redis.js';
import type { Transaction } from '../src/rp/types.js';
import { result, SECRET } from '../test/ledger/contract.js';
import { connectClient, type Library } from '../test/redis/clients.js';
import { startInstances } from '../test/redis/instances.js';
import { type RedisServer, startRedis } from '../test/redis/server.js';
import { fmt, percentile, report } from './util.js';

/**
 * Short rounds in alternating order, each giving a ratio: on a shared machine the load changes over
 * seconds, so the two sides of one round see the same machine; the median ratio is the figure.
 */
const ROUNDS = 24;
const PER_ROUND = 100;
const WARM_UP = 300;

function transaction(): Transaction {
  const now = Date.now();
  return {
    state: random256(),
    nonce: random256(),
    codeVerifier: random256(),
    responseType: 'code',
    scopes: ['openid', 'student'],
    affiliation: 'student',
    redirectUri: 'https://shop.example/callback',
    createdAt: now,
    expiresAt: now + 600_000,
  };
}

async function storeVersusBare(server: RedisServer, library: Library): Promise<void> {
  const redis = await connectClient(library, server.port);
  try {
    const store = new RedisTransactionStore({ client: redis.client, keyPrefix: 'bench:' });
    // The bare pair sends what the store sends: a key of the same length and the value the store
    // wrote for a transaction like those timed.
    const sample = transaction();
    await store.put(sample);
    const [sampleKey] = (await redis.command(['KEYS', `bench:tx:${sample.state}.*`])) as string[];
    const value = String(await redis.command(['GET', sampleKey as string]));
    const bareKey = () => `bench:bx:${random256()}.${random256()}`;
    const bare = async (key: string) => {
      await redis.command(['SET', key, value, 'PX', '600000']);
      await redis.command(['GETDEL', key]);
    };
    const ours = async (tx: Transaction) => {
      const setCookie = (await store.put(tx)) as string;
      await store.take(tx.state, { cookie: setCookie.slice(0, setCookie.indexOf(';')) });
    };
    for (let i = 0; i < WARM_UP; i++) {
      await bare(bareKey());
      await ours(transaction());
    }
    let bareMs = 0;
    let oursMs = 0;
    const ratios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Keys and transactions are made before the clock starts: both sides time only Redis calls.
      const keys = Array.from({ length: PER_ROUND }, bareKey);
      const txs = Array.from({ length: PER_ROUND }, transaction);
      const time = async (run: () => Promise<void>) => {
        const start = performance.now();
        await run();
        return performance.now() - start;
      };
      const timeBare = () =>
        time(async () => {
          for (const key of keys) await bare(key);
        });
      const timeOurs = () =>
        time(async () => {
          for (const tx of txs) await ours(tx);
        });
      const [b, o] = round % 2 ? [await timeBare(), await timeOurs()] : [0, 0];
      const [o2, b2] = round % 2 ? [0, 0] : [await timeOurs(), await timeBare()];
      bareMs += b + b2;
      oursMs += o + o2;
      ratios.push((b + b2) / (o + o2));
    }
    const n = ROUNDS * PER_ROUND;
    report(`(a) ${library}: SET PX + GETDEL (baseline)`, (n * 1000) / bareMs, 'pairs/s');
    report(`(a) ${library}: RedisTransactionStore put+take`, (n * 1000) / oursMs, 'pairs/s');
    report(
      `(a) ${library}: ratio, median of ${ROUNDS} rounds`,
      `${fmt(percentile(ratios, 50), 3)}x (middle half ${fmt(percentile(ratios, 25), 3)}–${fmt(percentile(ratios, 75), 3)}x)`,
    );
  } finally {
    await redis.close();
  }
}

async function ledgerFromProcesses(server: RedisServer): Promise<void> {
  const PROCESSES = 4;
  const MS = 1000;
  const instances = await startInstances(PROCESSES, {
    library: 'node-redis 5',
    port: server.port,
    keyPrefix: 'bench:',
    secret: SECRET,
  });
  try {
    // Every process claims the same shoppers (each a fresh reuse_detection value plus one shared
    // with another process's variant): first claims, already-claimed answers and races all happen.
    const shoppers = Array.from({ length: 4000 }, () => randomUUID());
    const offerId = `bench-${randomUUID()}`;
    const claimsFor = (p: number) =>
      shoppers.map((rd, i) => result({ reuseDetection: (i + p) % 2 ? [rd] : [rd, randomUUID()] }));
    const keys = shoppers.map((rd) => `bench:bare:${rd}`);
    await Promise.all(instances.map((i) => i.request({ type: 'set-for', keys, ms: 200 }))); // warm-up
    const bare = await Promise.all(
      instances.map((i) => i.request<{ calls: number }>({ type: 'set-for', keys, ms: MS })),
    );
    const claims = await Promise.all(
      instances.map((i, p) =>
        i.request<{ calls: number }>({ type: 'claim-for', offerId, results: claimsFor(p), ms: MS }),
      ),
    );
    const bareRate = (bare.reduce((a, b) => a + b.calls, 0) * 1000) / MS;
    const claimRate = (claims.reduce((a, b) => a + b.calls, 0) * 1000) / MS;
    report(`(b) ${PROCESSES} processes: bare SET NX (baseline)`, bareRate, 'ops/s');
    report(`(b) ${PROCESSES} processes: RedisOfferLedger.claim`, claimRate, 'claims/s');
    report('(b) ratio', `${fmt(claimRate / bareRate, 3)}x`);
  } finally {
    await Promise.all(instances.map((i) => i.close()));
  }
}

async function claimWithReplica(master: RedisServer, library: Library): Promise<void> {
  const redis = await connectClient(library, master.port);
  try {
    // Each claim a new shopper: a first claim, which writes.
    const claims = (waitForReplica: boolean | undefined) => {
      const ledger = new RedisOfferLedger({
        client: redis.client,
        keyPrefix: 'bench:wait:',
        secret: SECRET,
        whenUnidentifiable: 'refuse',
        waitForReplica,
      });
      return () => ledger.claim('bench', result({ reuseDetection: [randomUUID()] }));
    };
    const sides = {
      bare: () => redis.command(['SET', `bench:wait:bare:${randomUUID()}`, '1', 'NX']),
      without: claims(false),
      // The default: INFO shows the replica.
      with: claims(undefined),
    };
    for (let i = 0; i < WARM_UP; i++) for (const side of Object.values(sides)) await side();
    const perCall: Record<keyof typeof sides, number[]> = { bare: [], without: [], with: [] };
    const order = Object.keys(sides) as (keyof typeof sides)[];
    for (let round = 0; round < ROUNDS; round++) {
      // A different order each round, so no side always follows another.
      for (const name of round % 2 ? order : [...order].reverse()) {
        const start = performance.now();
        for (let i = 0; i < PER_ROUND; i++) await sides[name]();
        perCall[name].push(((performance.now() - start) * 1000) / PER_ROUND);
      }
    }
    const median = (name: keyof typeof sides) => percentile(perCall[name], 50);
    const added = perCall.with.map((w, i) => w - (perCall.without[i] as number));
    report(`(c) ${library}: SET NX (baseline)`, median('bare'), 'µs per call');
    report(`(c) ${library}: claim, waitForReplica: false`, median('without'), 'µs per claim');
    report(`(c) ${library}: claim, waiting for the replica (default)`, median('with'), 'µs per claim');
    report(
      `(c) ${library}: the wait adds, median of ${ROUNDS} rounds`,
      `${fmt(percentile(added, 50), 0)} µs per claim (middle half ${fmt(percentile(added, 25), 0)}–${fmt(percentile(added, 75), 0)})`,
    );
  } finally {
    await redis.close();
  }
}

export default async function bench(): Promise<void> {
  console.log(
    `  load average before: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')} (2 shared cores)`,
  );
  const server = await startRedis();
  try {
    await storeVersusBare(server, 'node-redis 5');
    await storeVersusBare(server, 'ioredis 5');
    await ledgerFromProcesses(server);
  } finally {
    await server.close();
  }
  const master = await startRedis();
  const replica = await startRedis(['--replicaof', '127.0.0.1', String(master.port)]);
  try {
    const probe = await connectClient('ioredis 5', master.port);
    while (!/state=online/.test(String(await probe.command(['INFO', 'replication'])))) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await probe.close();
    await claimWithReplica(master, 'node-redis 5');
    await claimWithReplica(master, 'ioredis 5');
  } finally {
    await replica.close();
    await master.close();
  }
  console.log(
    `  load average after: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
}
