/**
 * One app instance in its own process, with its own client connection, driven over IPC by the
 * multi-process tests and the ledger benchmark (`fork(…, { execArgv: ['--import', 'tsx'] })`).
 */
import type { AffiliationResult } from '../../src/index.js';
import { RedisOfferLedger, RedisTransactionStore } from '../../src/redis.js';
import { connectClient, type Library } from './clients.js';

export type WorkerMessage =
  | { type: 'init'; library: Library; port: number; keyPrefix: string; secret: string }
  | { type: 'take'; items: { state: string; cookie: string }[] }
  | { type: 'claim'; offerId: string; results: AffiliationResult[] }
  /** Claim `results` round-robin for `ms` milliseconds; answer how many calls completed. */
  | { type: 'claim-for'; offerId: string; results: AffiliationResult[]; ms: number }
  /** Baseline for the ledger benchmark: a bare `SET key value NX` per call, for `ms` milliseconds. */
  | { type: 'set-for'; keys: string[]; ms: number }
  | { type: 'close' };

/** Per item: 'taken' / 'claimed' / 'already', or the error code. */
export type Outcome = string;

const send = (message: unknown) => process.send?.(message);
let session: Awaited<ReturnType<typeof init>> | undefined;

async function init(message: Extract<WorkerMessage, { type: 'init' }>) {
  const connected = await connectClient(message.library, message.port);
  const store = new RedisTransactionStore({ client: connected.client, keyPrefix: message.keyPrefix });
  const ledger = new RedisOfferLedger({
    client: connected.client,
    keyPrefix: message.keyPrefix,
    secret: message.secret,
    whenUnidentifiable: 'refuse',
  });
  return { connected, store, ledger };
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : `untyped: ${String(error)}`;
}

process.on('message', async (message: WorkerMessage) => {
  try {
    if (message.type === 'init') {
      session = await init(message);
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
