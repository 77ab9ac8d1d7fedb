/**
 * Several app instances — separate processes, each with its own Redis connection — against one real
 * Redis: the same state or the same shopper at once gives exactly one success; Redis stopped in the
 * middle gives typed errors and no success; after Redis restarts the same processes work again.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AffiliationResult } from '../../src/index.js';
import { RedisTransactionStore } from '../../src/redis.js';
import { browserCookie } from '../helpers/setup.js';
import { result, SECRET } from '../ledger/contract.js';
import { transaction } from '../rp/transactions-fixtures.js';
import { type Connected, connectClient, LIBRARIES } from './clients.js';
import { type Instance, startInstances } from './instances.js';
import { type RedisServer, startRedis } from './server.js';

const INSTANCES = 4;

describe.each(LIBRARIES)(`${INSTANCES} app instances with %s against one Redis`, (library) => {
  let server: RedisServer;
  let redis: Connected;
  let instances: Instance[];
  const keyPrefix = 'multi:';

  beforeAll(async () => {
    server = await startRedis();
    redis = await connectClient(library, server.port);
    instances = await startInstances(INSTANCES, { library, port: server.port, keyPrefix, secret: SECRET });
  }, 60_000);
  afterAll(async () => {
    await Promise.all((instances ?? []).map((i) => i.close()));
    await redis?.close();
    await server?.close();
  });

  /** Start `count` transactions through this process's store; what each callback carries. */
  async function started(count: number) {
    const store = new RedisTransactionStore({ client: redis.client, keyPrefix });
    return Promise.all(
      Array.from({ length: count }, async () => {
        const tx = transaction({ state: randomBytes(32).toString('base64url') }, Date.now());
        return { state: tx.state, cookie: browserCookie(await store.put(tx)) };
      }),
    );
  }

  /** Per shopper, one result per instance: other transient subjects, sharing one reuse_detection value. */
  function shoppers(count: number): AffiliationResult[][] {
    return Array.from({ length: count }, () => {
      const rd = randomUUID();
      return Array.from({ length: INSTANCES }, (_, i) =>
        result({ reuseDetection: i % 2 ? [rd] : [randomUUID(), rd] }),
      );
    });
  }

  async function raceTakes(items: { state: string; cookie: string }[]) {
    const answers = await Promise.all(instances.map((i) => i.request({ type: 'take', items })));
    return items.map((_, n) => answers.map((a) => a.outcomes[n]));
  }

  async function raceClaims(offerId: string, people: AffiliationResult[][]) {
    const answers = await Promise.all(
      instances.map((instance, i) =>
        instance.request({ type: 'claim', offerId, results: people.map((p) => p[i] as AffiliationResult) }),
      ),
    );
    return people.map((_, n) => answers.map((a) => a.outcomes[n]));
  }

  it('the same state taken by every instance at once gives exactly one transaction', async () => {
    const items = await started(100);
    for (const outcomes of await raceTakes(items)) {
      expect(outcomes.filter((o) => o === 'taken')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'replayed_transaction')).toHaveLength(INSTANCES - 1);
    }
  });

  it('the same shopper claiming one offer from every instance at once gives exactly one `claimed`', async () => {
    for (const outcomes of await raceClaims(`offer-${randomUUID()}`, shoppers(100))) {
      expect(outcomes.filter((o) => o === 'claimed')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'already')).toHaveLength(INSTANCES - 1);
    }
  });

  it('Redis stopped: typed errors and no success; restarted: the same processes work again', async () => {
    const items = await started(10);
    // This process keeps starting and finishing validations while Redis goes away under it.
    const store = new RedisTransactionStore({ client: redis.client, keyPrefix });
    const log: { startedAfterStop: boolean; outcome: string }[] = [];
    let stopped = false;
    let running = true;
    const load = (async () => {
      while (running) {
        const startedAfterStop = stopped;
        const tx = transaction({ state: randomBytes(32).toString('base64url') }, Date.now());
        let outcome: string;
        try {
          const setCookie = await store.put(tx);
          outcome = (await store.take(tx.state, { cookie: browserCookie(setCookie) })) ? 'ok' : 'none';
        } catch (error) {
          outcome = (error as { code?: string }).code ?? 'untyped';
        }
        log.push({
          startedAfterStop,
          outcome: outcome === 'ok' || outcome === 'none' ? outcome : String(outcome),
        });
        if (outcome !== 'ok') await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await server.stop();
    stopped = true;
    // Until a few operations started after the stop have finished (one in flight may wait for the
    // command timeout).
    for (let i = 0; i < 100 && log.filter((l) => l.startedAfterStop).length < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    running = false;
    await load;
    expect(log.filter((l) => !l.startedAfterStop && l.outcome === 'ok').length).toBeGreaterThan(0);
    expect(log.filter((l) => l.startedAfterStop).length).toBeGreaterThan(0);
    for (const l of log) expect(['ok', 'store_unavailable']).toContain(l.outcome);
    for (const l of log.filter((l) => l.startedAfterStop)) expect(l.outcome).toBe('store_unavailable');

    for (const outcomes of await raceTakes(items)) {
      expect(outcomes).toEqual(Array(INSTANCES).fill('store_unavailable'));
    }
    for (const outcomes of await raceClaims('offer-outage', shoppers(10))) {
      expect(outcomes).toEqual(Array(INSTANCES).fill('store_unavailable'));
    }

    await server.start();
    // The clients reconnect by themselves; wait until every instance is served again.
    await Promise.all(
      instances.map(async (instance) => {
        for (let attempt = 0; ; attempt++) {
          const { outcomes } = await instance.request({
            type: 'claim',
            offerId: 'probe',
            results: [result({ reuseDetection: [randomUUID()] })],
          });
          if (outcomes[0] === 'claimed') return;
          expect(outcomes[0]).toBe('store_unavailable');
          if (attempt > 100) throw new Error('the instance did not reconnect to Redis within 10 s');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }),
    );
    // This process's own client reconnects by itself too.
    for (let attempt = 0; ; attempt++) {
      const probe = transaction({ state: randomBytes(32).toString('base64url') }, Date.now());
      const error = await store.put(probe).then(
        () => undefined,
        (e: { code?: string }) => e,
      );
      if (error === undefined) break;
      expect(error.code).toBe('store_unavailable');
      if (attempt > 100) throw new Error('this process did not reconnect to Redis within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Redis keeps nothing on disk in these tests: the transactions started before are gone.
    for (const outcomes of await raceTakes(items)) {
      expect(outcomes).toEqual(Array(INSTANCES).fill('unknown_state'));
    }
    const fresh = await started(20);
    for (const outcomes of await raceTakes(fresh))
      expect(outcomes.filter((o) => o === 'taken')).toHaveLength(1);
    for (const outcomes of await raceClaims('offer-after', shoppers(20))) {
      expect(outcomes.filter((o) => o === 'claimed')).toHaveLength(1);
    }
  }, 60_000);
});
