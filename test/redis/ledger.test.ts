/** RedisOfferLedger on a real Redis, with each client library: the ledger contract, and what Redis holds. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisOfferLedger } from '../../src/redis.js';
import { ledgerContract, result, SECRET } from '../ledger/contract.js';
import { type Connected, connectClient, LIBRARIES } from './clients.js';
import { type RedisServer, startRedis } from './server.js';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedis();
});
afterAll(async () => {
  await server?.close();
});

describe.each(LIBRARIES)('RedisOfferLedger with %s', (library) => {
  let redis: Connected;
  const keyPrefix = `ledger-${library.replace(/\W/g, '')}:`;
  beforeAll(async () => {
    redis = await connectClient(library, server.port);
  });
  afterAll(async () => {
    await redis?.close();
  });

  ledgerContract({
    make: (options) => new RedisOfferLedger({ ...options, client: redis.client, keyPrefix } as never),
    pass: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    now: () => Date.now(),
  });

  it('stores only HMAC-named keys holding a claim time: no raw value, subject or offer id', async () => {
    const prefix = `raw-${randomUUID()}:`;
    const ledger = new RedisOfferLedger({
      client: redis.client,
      keyPrefix: prefix,
      secret: SECRET,
      whenUnidentifiable: 'refuse',
    });
    const rd = `rd-${randomUUID()}`;
    const subject = `sub-${randomUUID()}`;
    await ledger.claim('summer-offer', result({ identifier: 'persistent', subject, reuseDetection: [rd] }));
    const keys = (await redis.command(['KEYS', `${prefix}*`])) as string[];
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      expect(key).toMatch(new RegExp(`^${prefix}offer:\\{[A-Za-z0-9_-]{22}\\}:[A-Za-z0-9_-]{43}$`));
      expect(key).not.toContain(rd);
      expect(key).not.toContain(subject);
      expect(key).not.toContain('summer-offer');
      const value = String(await redis.command(['GET', key]));
      expect(value).toMatch(/^\d{13}$/);
      expect(Math.abs(Number(value) - Date.now())).toBeLessThan(5_000);
      // Kept forever without retentionMs.
      expect(Number(await redis.command(['PTTL', key]))).toBe(-1);
    }
  });

  it('sets the retention as the keys’ Redis TTL', async () => {
    const prefix = `ttl-${randomUUID()}:`;
    const ledger = new RedisOfferLedger({
      client: redis.client,
      keyPrefix: prefix,
      secret: SECRET,
      whenUnidentifiable: 'refuse',
      retentionMs: 86_400_000,
    });
    await ledger.claim('offer', result({ reuseDetection: [randomUUID()] }));
    const [key] = (await redis.command(['KEYS', `${prefix}*`])) as string[];
    const ttl = Number(await redis.command(['PTTL', key as string]));
    expect(ttl).toBeGreaterThan(86_000_000);
    expect(ttl).toBeLessThanOrEqual(86_400_000);
  });
});
