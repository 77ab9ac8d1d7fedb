/**
 * The README's "Several app instances" example, run as written (its package import pointed at the
 * source; `redis` and `result` — defined by the surrounding README — given as a real connected client
 * and a validation result) against a real Redis.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisTransactionStore } from '../../src/redis.js';
import { result } from '../ledger/contract.js';
import { type Connected, connectClient } from './clients.js';
import { type RedisServer, startRedis } from './server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let server: RedisServer;
let redis: Connected;
beforeAll(async () => {
  server = await startRedis();
  redis = await connectClient('node-redis 5', server.port);
});
afterAll(async () => {
  await redis?.close();
  await server?.close();
});

describe('README "Several app instances"', () => {
  it('builds a Redis transaction store and offer ledger, and claims an offer once, as written', async () => {
    const readme = await readFile(`${root}README.md`, 'utf8');
    const section = readme.split(/^## /m).find((s) => s.startsWith('Several app instances'));
    expect(section).toContain('docs/deploying.md');
    const code = section && /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(code).toContain("from 'affiliation-validation/redis'");
    const source = [
      'const { redis, result } = (globalThis as any).__avReadme;',
      (code as string).replace("'affiliation-validation/redis'", JSON.stringify(`${root}src/redis.ts`)),
      'export { transactions, offers, claimed };',
    ].join('\n');
    const dir = `${root}.tmp/redis`;
    await mkdir(dir, { recursive: true });
    const file = `${dir}/readme-example-${process.pid}-${Date.now()}.ts`;
    await writeFile(file, source);
    const shopper = result({ reuseDetection: [randomUUID()] });
    (globalThis as Record<string, unknown>).__avReadme = { redis: redis.client, result: shopper };
    process.env.AV_OFFER_SECRET = 'readme-offer-secret-0123456789abcdef-0123';
    let example: {
      transactions: unknown;
      offers: { claim: (...a: unknown[]) => Promise<unknown> };
      claimed: boolean;
    };
    try {
      example = await import(pathToFileURL(file).href);
    } finally {
      await rm(file, { force: true });
    }
    expect(example.transactions).toBeInstanceOf(RedisTransactionStore);
    expect(example.claimed).toBe(true);
    await expect(example.offers.claim('welcome-2026', shopper)).resolves.toMatchObject({ claimed: false });
  });
});
