/**
 * Redis benchmarks on a real redis-server (started here, stopped at the end), each against a
 * baseline measured in the same run:
 * (a) RedisTransactionStore put+take (browser binding on) against a bare `SET … PX` + `GETDEL` of a
 *     value of the same size under a key of the same length on the same connection, one at a time, with node-redis 5 and ioredis 5
 *     (target >= 0.8x, as the median of the rounds' ratios). `put` is one `SET … PX … NX`, `take` one `SET … XX PX … GET`: the same two
 *     round trips, so the difference is the store's own work (binding cookie, digests, JSON), shown
 *     as client CPU per pair next to Redis's own server time per command (`INFO commandstats`);
 * (b) RedisOfferLedger claims per second from 4 app processes (8 claims in flight each) against a
 *     bare `SET key 1 NX` per call from the same 4 processes.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { random256 } from '../src/core/random.js';
import { RedisTransactionStore } from '../src/redis.js';
import type { Transaction } from '../src/rp/types.js';
import { result, SECRET } from '../test/ledger/contract.js';
import { connectClient, type Library } from '../test/redis/clients.js';
import { startInstances } from '../test/redis/instances.js';
import { type RedisServer, startRedis } from '../test/redis/server.js';
import { fmt, percentile, report } from './util.js';

/**
 * Many short rounds in alternating order, each giving a ratio: on a machine shared with other work
 * the load changes over seconds, so the two sides of one round (~10 ms) see the same machine, and
 * the median of the rounds' ratios is the figure (8 rounds of 400 pairs gave medians from 0.67 to
 * 0.83 on the same code; the ratio of the totals swings with every burst of load). 96 rounds: with
 * 48, two runs of the same code gave medians 0.04 apart (the rounds' middle half spans ~0.15).
 */
const ROUNDS = 96;
const PER_ROUND = 100;
const WARM_UP = 1000;

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

async function storeVersusBare(server: RedisServer, library: Library, placement = ''): Promise<void> {
  const name = `${library}${placement}`;
  const redis = await connectClient(library, server.port);
  try {
    const store = new RedisTransactionStore({ client: redis.client, keyPrefix: 'bench:' });
    // The bare pair sends what the store sends: a key of the same length (prefix, state, binding
    // digest) and, as the value, what the store wrote to Redis for a transaction like those timed.
    const sample = transaction();
    await store.put(sample);
    const [sampleKey] = (await redis.command(['KEYS', `bench:tx:${sample.state}.*`])) as string[];
    const value = String(await redis.command(['GET', sampleKey as string]));
    const bareKey = () => `bench:bx:${random256()}.${random256()}`;
    // Keys and transactions are made before the clock starts: both sides time only the store calls.
    const bare = async (key: string) => {
      await redis.command(['SET', key, value, 'PX', '600000']);
      await redis.command(['GETDEL', key]);
    };
    const ours = async (tx: Transaction) => {
      const setCookie = (await store.put(tx)) as string;
      await store.take(tx.state, { cookie: setCookie.slice(0, setCookie.indexOf(';')) });
    };
    // A reference, not the baseline: the bare pair plus what a store of the transaction as a JSON
    // object would add (serialize it for SET, parse GETDEL's reply).
    const withJson = async (key: string, tx: Transaction) => {
      await redis.command(['SET', key, JSON.stringify(tx), 'PX', '600000']);
      JSON.parse(String(await redis.command(['GETDEL', key])));
    };
    // Warm-up (JIT), then rounds in alternating order on a shared machine.
    for (let i = 0; i < WARM_UP; i++) {
      await bare(bareKey());
      await ours(transaction());
      await withJson(bareKey(), transaction());
    }
    let bareMs = 0;
    let oursMs = 0;
    // CPU time of this process (user + system, µs): steadier than wall time on a loaded machine.
    let bareCpu = 0;
    let oursCpu = 0;
    const cpu = () => {
      const u = process.cpuUsage();
      return u.user + u.system;
    };
    const ratios: number[] = [];
    const jsonRatios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const keys = Array.from({ length: PER_ROUND }, bareKey);
      const txs = Array.from({ length: PER_ROUND }, transaction);
      const jsonKeys = Array.from({ length: PER_ROUND }, bareKey);
      const jsonTxs = Array.from({ length: PER_ROUND }, transaction);
      const timeBare = async () => {
        const start = performance.now();
        const c = cpu();
        for (const key of keys) await bare(key);
        bareCpu += cpu() - c;
        return performance.now() - start;
      };
      const timeOurs = async () => {
        const start = performance.now();
        const c = cpu();
        for (const tx of txs) await ours(tx);
        oursCpu += cpu() - c;
        return performance.now() - start;
      };
      const timeJson = async () => {
        const start = performance.now();
        for (let i = 0; i < PER_ROUND; i++) await withJson(jsonKeys[i] as string, jsonTxs[i] as Transaction);
        return performance.now() - start;
      };
      let b: number;
      let o: number;
      let j: number;
      if (round % 2) {
        o = await timeOurs();
        j = await timeJson();
        b = await timeBare();
      } else {
        b = await timeBare();
        j = await timeJson();
        o = await timeOurs();
      }
      bareMs += b;
      oursMs += o;
      ratios.push(b / o);
      jsonRatios.push(b / j);
    }
    const n = ROUNDS * PER_ROUND;
    report(`(a) ${name}: SET PX + GETDEL (baseline)`, (n * 1000) / bareMs, 'pairs/s');
    report(`(a) ${name}: RedisTransactionStore put+take`, (n * 1000) / oursMs, 'pairs/s');
    report(
      `(a) ${name}: ratio, median of ${ROUNDS} rounds (target >= 0.8)`,
      `${fmt(percentile(ratios, 50), 3)}x (middle half ${fmt(percentile(ratios, 25), 3)}–${fmt(percentile(ratios, 75), 3)}x)`,
    );
    report(`(a) ${name}: ratio of the totals`, `${fmt(bareMs / oursMs, 3)}x`);
    report(
      `(a) ${name}: reference, bare pair + JSON of the transaction, median ratio`,
      `${fmt(percentile(jsonRatios, 50), 3)}x`,
    );
    report(`(a) ${name}: client CPU per pair, baseline`, bareCpu / n, 'µs');
    report(`(a) ${name}: client CPU per pair, store`, oursCpu / n, 'µs');
    const stats = String(await redis.command(['INFO', 'commandstats']));
    for (const command of ['set', 'getdel']) {
      const perCall = new RegExp(`^cmdstat_${command}:.*usec_per_call=([0-9.]+)`, 'm').exec(stats)?.[1];
      if (perCall)
        report(`(a) ${name}: Redis server time per ${command.toUpperCase()}`, Number(perCall), 'µs');
    }
    await redis.command(['CONFIG', 'RESETSTAT']);
  } finally {
    await redis.close();
  }
}

async function ledgerFromProcesses(server: RedisServer): Promise<void> {
  const PROCESSES = 4;
  const MS = 2000;
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
    await Promise.all(instances.map((i) => i.request({ type: 'set-for', keys, ms: 300 }))); // warm-up
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

/**
 * Pin this process (every thread) and the Redis server on `port` to this process's first CPU;
 * returns what puts both back on this process's CPUs, or `undefined` when `taskset` or `pgrep` is
 * missing.
 */
function shareOneCore(port: number): (() => void) | undefined {
  try {
    const run = (command: string, args: string[]) => execFileSync(command, args, { encoding: 'utf8' });
    const servers = run('pgrep', ['-f', `redis-server 127.0.0.1:${port}`])
      .trim()
      .split('\n');
    const affinity = run('taskset', ['-pc', String(process.pid)]); // "pid 1's current affinity list: 0,1"
    const cpus = affinity.slice(affinity.lastIndexOf(':') + 1).trim();
    const pin = (list: string) => {
      run('taskset', ['-apc', list, String(process.pid)]);
      for (const pid of servers) run('taskset', ['-pc', list, pid]);
    };
    pin(cpus.split(/[,-]/)[0] as string);
    return () => pin(cpus);
  } catch {
    return undefined;
  }
}

export default async function bench(): Promise<void> {
  const server = await startRedis();
  try {
    await storeVersusBare(server, 'node-redis 5');
    await storeVersusBare(server, 'ioredis 5');
    // Again with the app and Redis on one core, as on a one-vCPU machine: round trips are shorter
    // there, so the store's own work weighs more.
    const undo = shareOneCore(server.port);
    if (undo === undefined) report('(a) one core', 'not measured: needs taskset and pgrep');
    else {
      try {
        await storeVersusBare(server, 'node-redis 5', ', app and Redis on one core');
        await storeVersusBare(server, 'ioredis 5', ', app and Redis on one core');
      } finally {
        undo();
      }
    }
    await ledgerFromProcesses(server);
  } finally {
    await server.close();
  }
}
