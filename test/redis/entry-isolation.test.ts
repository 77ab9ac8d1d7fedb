/**
 * The core entry point never loads a Redis client (nor the Redis entry), and the Redis entry itself
 * loads neither client library: it works with the one the merchant passes in. Checked by what Node
 * really resolves when importing each entry, in a fresh process.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const HOOK = fileURLToPath(new URL('./fixtures/record-loads.mjs', import.meta.url));
const CLIENTS = /\/node_modules\/(redis|redis4|ioredis|@redis\/[^/]+|@ioredis\/[^/]+)\//;

/** Every URL Node resolves while importing `entry` (a path from the repo root) in a fresh process. */
async function loadsOf(entry: string, viaTsx: boolean): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'av-loads-'));
  const file = join(dir, 'loads.txt');
  try {
    await run(
      process.execPath,
      [
        ...(viaTsx ? ['--import', 'tsx'] : []),
        '--import',
        HOOK,
        '--input-type=module',
        '-e',
        `await import(${JSON.stringify(`./${entry}`)});`,
      ],
      { cwd: root, env: { ...process.env, AV_LOADS_FILE: file } },
    );
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('entry points and Redis clients', () => {
  it('the core entry (source) loads no Redis client and no part of the Redis entry', async () => {
    const loads = await loadsOf('src/index.ts', true);
    expect(loads.some((u) => u.endsWith('/src/index.ts'))).toBe(true);
    expect(loads.some((u) => u.endsWith('/src/ledger/memory.ts'))).toBe(true);
    expect(loads.filter((u) => CLIENTS.test(u))).toEqual([]);
    expect(loads.filter((u) => u.includes('/src/redis'))).toEqual([]);
  });

  it('the Redis entry (source) loads no client library either: it uses the one passed in', async () => {
    const loads = await loadsOf('src/redis.ts', true);
    expect(loads.some((u) => u.endsWith('/src/redis/transaction-store.ts'))).toBe(true);
    expect(loads.filter((u) => CLIENTS.test(u))).toEqual([]);
  });

  it.skipIf(!existsSync(join(root, 'dist/index.js')))(
    'the built core entry loads no Redis client and no Redis chunk (skipped until `npm run build` made dist/)',
    async () => {
      const loads = await loadsOf('dist/index.js', false);
      expect(loads.some((u) => u.endsWith('/dist/index.js'))).toBe(true);
      expect(loads.filter((u) => CLIENTS.test(u))).toEqual([]);
      expect(loads.filter((u) => u.endsWith('/dist/redis.js'))).toEqual([]);
      // A chunk of the core must not hold the Redis store's code either.
      for (const url of loads.filter((u) => u.includes('/dist/'))) {
        expect(readFileSync(fileURLToPath(url), 'utf8')).not.toContain('EVALSHA');
      }
    },
  );
});
