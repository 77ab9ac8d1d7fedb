/**
 * One app instance in its own process, with its own client connection, driven over IPC by the
 * multi-process tests and the ledger benchmark (`fork(…, { execArgv: ['--import', 'tsx'] })`).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AffiliationResult } from '../../src/index.js';
import { AffiliationError, RedisOfferLedger, RedisTransactionStore, StoreError } from '../../src/redis.js';
import { transaction } from '../rp/transactions-fixtures.js';
import { connectClient, connectCluster, type Library } from './clients.js';

/** A callback to take: its state and the Cookie header its browser sends. */
export interface Callback {
  state: string;
  cookie: string;
}

/** What one app instance saw under load (test/redis/cluster.test.ts). */
export interface LoadReport {
  /** Per callback of `load-start`, the final outcome of taking it (retried while `store_unavailable`). */
  takes: Outcome[];
  /** Per claim of `load-start`, its final outcome. */
  claims: Outcome[];
  /** Every call, in order: when it ended (ms since the epoch), what it was, and its outcome. */
  events: { at: number; op: 'take' | 'claim' | 'fresh'; outcome: Outcome }[];
  /** The last failures' messages, when, and on which call (to tell why a test failed). */
  lastFailures: string[];
  /** How often a stuck node-redis client was made anew ({@link STUCK_MS}). */
  clientsMadeAnew: number;
}

export type WorkerMessage =
  | { type: 'init'; library: Library; port: number; cluster?: number[]; keyPrefix: string; secret: string }
  | { type: 'take'; items: { state: string; cookie: string }[] }
  | { type: 'claim'; offerId: string; results: AffiliationResult[] }
  /** Claims of several offers at once. */
  | { type: 'claims'; items: { offerId: string; result: AffiliationResult }[] }
  /** Claim `results` round-robin for `ms` milliseconds; answer how many calls completed. */
  | { type: 'claim-for'; offerId: string; results: AffiliationResult[]; ms: number }
  /** Baseline for the ledger benchmark: a bare `SET key value NX` per call, for `ms` milliseconds. */
  | { type: 'set-for'; keys: string[]; ms: number }
  /**
   * Start a load that runs until `load-stop`: every `paceMs`, take the next callback not yet
   * settled (every instance walks them in the same order, so they race for each), claim the next
   * offer, and start and finish a fresh validation of this instance's own.
   */
  | {
      type: 'load-start';
      callbacks: Callback[];
      claims: { offerId: string; result: AffiliationResult }[];
      paceMs: number;
    }
  /** Stop the load once every callback and claim has an outcome other than `store_unavailable` (or after 20 s); answer a {@link LoadReport}. */
  | { type: 'load-stop' }
  | { type: 'close' };

/** Per item: 'taken' / 'claimed' / 'already', or the error code. */
export type Outcome = string;

const send = (message: unknown) => process.send?.(message);
let session: Awaited<ReturnType<typeof init>> | undefined;
let initMessage: Extract<WorkerMessage, { type: 'init' }> | undefined;
/**
 * How long a load may fail in every step before a node-redis client is made anew, as
 * docs/deploying.md advises: after a crash a node-redis client can stay stuck on the dead node
 * (redis/node-redis#2806 until the node is back; for good in node-redis 4 and 5 before 5.11, whose
 * reconnection can end "ready" on a dead socket, redis/node-redis#3104).
 */
const STUCK_MS = 5_000;

async function init(message: Extract<WorkerMessage, { type: 'init' }>) {
  const connected =
    message.cluster === undefined
      ? await connectClient(message.library, message.port)
      : await connectCluster(message.library, message.cluster);
  const store = new RedisTransactionStore({ client: connected.client, keyPrefix: message.keyPrefix });
  const ledger = new RedisOfferLedger({
    client: connected.client,
    keyPrefix: message.keyPrefix,
    secret: message.secret,
    whenUnidentifiable: 'refuse',
  });
  return { connected, store, ledger };
}

/** 'StoreError:<code>' for a StoreError, the code of another AffiliationError, or 'untyped: …'. */
const failures: string[] = [];
function outcomeOf(error: unknown): string {
  if (error instanceof AffiliationError && !(error instanceof StoreError)) return error.code;
  failures.push(`${new Date().toISOString()} ${String(error)}`.slice(0, 300));
  if (failures.length > 5) failures.shift();
  if (error instanceof StoreError) return `StoreError:${error.code}`;
  return `untyped: ${String(error)}`;
}

const UNSETTLED = 'StoreError:store_unavailable';
let load: { control: { stopping: boolean }; report: Promise<LoadReport> } | undefined;

async function runLoad(
  message: Extract<WorkerMessage, { type: 'load-start' }>,
  control: { stopping: boolean },
): Promise<LoadReport> {
  let s = session as NonNullable<typeof session>;
  const report: LoadReport = { takes: [], claims: [], events: [], lastFailures: [], clientsMadeAnew: 0 };
  // A failure episode: failures less than 3 s apart (a stuck call takes its 2 s time limit).
  let failingSince: number | undefined;
  let failedAt = 0;
  const { callbacks, claims } = message;
  const unsettled = (list: Outcome[], n: number) =>
    Array.from({ length: n }, (_, i) => i).filter((i) => list[i] === undefined || list[i] === UNSETTLED);
  const note = (op: LoadReport['events'][number]['op'], outcome: Outcome) => {
    const at = Date.now();
    report.events.push({ at, op, outcome });
    if (outcome.startsWith('StoreError')) {
      if (at - failedAt > 3_000) failingSince = at;
      failedAt = at;
    }
    return outcome;
  };
  let stoppedAt: number | undefined;
  for (let step = 0; ; step++) {
    const takes = unsettled(report.takes, callbacks.length);
    const open = unsettled(report.claims, claims.length);
    if (control.stopping) {
      stoppedAt ??= Date.now();
      if ((takes.length === 0 && open.length === 0) || Date.now() - stoppedAt > 20_000) break;
    }
    const t = takes[0];
    if (t !== undefined) {
      const { state, cookie } = callbacks[t] as Callback;
      report.takes[t] = note(
        'take',
        await s.store
          .take(state, { cookie })
          .then((tx) => (tx?.state === state ? 'taken' : 'none'), outcomeOf),
      );
    }
    const c = open[0];
    if (c !== undefined) {
      const { offerId, result } = claims[c] as (typeof claims)[number];
      report.claims[c] = note(
        'claim',
        await s.ledger.claim(offerId, result).then((r) => (r.claimed ? 'claimed' : 'already'), outcomeOf),
      );
    }
    const fresh = transaction({ state: randomBytes(32).toString('base64url') }, Date.now());
    note(
      'fresh',
      await s.store
        .put(fresh)
        .then((setCookie) => s.store.take(fresh.state, { cookie: String(setCookie).split(';')[0] }))
        .then((tx) => (tx?.state === fresh.state ? 'ok' : 'lost'), outcomeOf),
    );
    if (step % 4 === 0) {
      // A claim of a shopper of its own, so claims keep running after the shared ones are settled.
      note(
        'claim',
        await s.ledger
          .claim(`fresh-${step % 31}`, freshResult())
          .then((r) => (r.claimed ? 'claimed' : 'already'), outcomeOf),
      );
    }
    const now = Date.now();
    if (
      failingSince !== undefined &&
      now - failedAt < 3_000 &&
      now - failingSince > STUCK_MS &&
      initMessage?.library !== 'ioredis 5'
    ) {
      const made = await init(initMessage as NonNullable<typeof initMessage>).catch(() => undefined);
      if (made) {
        s.connected.close().catch(() => undefined);
        session = s = made;
        report.clientsMadeAnew++;
      }
      failingSince = undefined;
    }
    if (!control.stopping) await new Promise((resolve) => setTimeout(resolve, message.paceMs));
  }
  report.lastFailures = [...failures];
  return report;
}

function freshResult(): AffiliationResult {
  return {
    affiliation: 'student',
    identifier: 'transient',
    subject: randomUUID(),
    transactionId: randomUUID(),
    authTime: new Date(),
    expiresAt: new Date(Date.now() + 3_600_000),
    claims: {},
    reuseDetection: [randomUUID()],
  };
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : `untyped: ${String(error)}`;
}

process.on('message', async (message: WorkerMessage) => {
  try {
    if (message.type === 'init') {
      // A worker can be given another library (or server) for the next tests.
      await session?.connected.close();
      session = await init(message);
      initMessage = message;
      send({ type: 'ready' });
    } else if (message.type === 'take') {
      const s = session!;
      const outcomes = await Promise.all(
        message.items.map(({ state, cookie }) =>
          s.store.take(state, { cookie }).then((tx) => (tx?.state === state ? 'taken' : 'none'), codeOf),
        ),
      );
      send({ type: 'done', outcomes });
    } else if (message.type === 'claim') {
      const s = session!;
      const outcomes = await Promise.all(
        message.results.map((result) =>
          s.ledger.claim(message.offerId, result).then((c) => (c.claimed ? 'claimed' : 'already'), codeOf),
        ),
      );
      send({ type: 'done', outcomes });
    } else if (message.type === 'claims') {
      const s = session!;
      const outcomes = await Promise.all(
        message.items.map(({ offerId, result }) =>
          s.ledger.claim(offerId, result).then((c) => (c.claimed ? 'claimed' : 'already'), codeOf),
        ),
      );
      send({ type: 'done', outcomes });
    } else if (message.type === 'claim-for') {
      const s = session!;
      const { offerId, results } = message;
      const calls = await callFor(message.ms, (i) => s.ledger.claim(offerId, results[i % results.length]!));
      send({ type: 'done', calls });
    } else if (message.type === 'set-for') {
      const s = session!;
      const { keys } = message;
      const calls = await callFor(message.ms, (i) =>
        s.connected.command(['SET', keys[i % keys.length]!, '1', 'NX']),
      );
      send({ type: 'done', calls });
    } else if (message.type === 'load-start') {
      const control = { stopping: false };
      load = { control, report: runLoad(message, control) };
      send({ type: 'started' });
    } else if (message.type === 'load-stop') {
      load!.control.stopping = true;
      send({ type: 'done', ...(await load!.report) });
    } else if (message.type === 'close') {
      await session?.connected.close();
      process.disconnect?.();
    }
  } catch (error) {
    send({ type: 'error', code: codeOf(error), message: String((error as Error).message) });
  }
});
// Stop with the parent.
process.on('disconnect', () => process.exit(0));

/**
 * Calls `call(i)` for `ms` milliseconds with a few calls in flight, as concurrent requests of one app
 * instance would make them; returns how many completed.
 */
async function callFor(ms: number, call: (i: number) => Promise<unknown>): Promise<number> {
  let calls = 0;
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: 8 }, async (_, lane) => {
      for (let i = lane; performance.now() < until; i += 8) {
        await call(i);
        calls++;
      }
    }),
  );
  return calls;
}
