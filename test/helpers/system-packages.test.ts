/** `npm test` on a fresh machine (issue 22): the system packages it needs, found or installed, or the command to run. */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasApt, missingPackages, plan, SYSTEM_PACKAGES } from './system-packages.js';

let empty: string;
let bin: string;
beforeAll(async () => {
  empty = await mkdtemp(join(tmpdir(), 'av-path-empty-'));
  bin = await mkdtemp(join(tmpdir(), 'av-path-bin-'));
  for (const name of ['chromium', 'firefox-esr', 'redis-server', 'apt-get', 'not-executable']) {
    await writeFile(join(bin, name), '#!/bin/sh\n');
    await chmod(join(bin, name), name === 'not-executable' ? 0o644 : 0o755);
  }
});
afterAll(async () => {
  await rm(empty, { recursive: true, force: true });
  await rm(bin, { recursive: true, force: true });
});

describe('missingPackages', () => {
  it('names every package whose executable is not on PATH, in .ci/run order', () => {
    expect(missingPackages({ PATH: empty })).toEqual(['chromium', 'firefox-esr', 'redis-server']);
    expect(SYSTEM_PACKAGES.map((p) => p.name)).toEqual(['chromium', 'firefox-esr', 'redis-server']);
  });

  it('finds them on PATH, or named by AV_CHROMIUM, AV_FIREFOX, REDIS_SERVER', () => {
    expect(missingPackages({ PATH: `${empty}:${bin}` })).toEqual([]);
    expect(
      missingPackages({
        PATH: empty,
        AV_CHROMIUM: join(bin, 'chromium'),
        REDIS_SERVER: join(bin, 'redis-server'),
      }),
    ).toEqual(['firefox-esr']);
  });

  it('a file that is not executable does not count', () => {
    expect(missingPackages({ PATH: empty, AV_FIREFOX: join(bin, 'not-executable') })).toContain(
      'firefox-esr',
    );
  });

  it('apt is there when apt-get is on PATH', () => {
    expect(hasApt({ PATH: bin })).toBe(true);
    expect(hasApt({ PATH: empty })).toBe(false);
  });
});

describe('plan', () => {
  it('nothing to do when nothing is missing', () => {
    expect(plan([], { root: false, apt: false })).toEqual({ action: 'none' });
  });

  it('installs what is missing when root with apt', () => {
    expect(plan(['firefox-esr', 'redis-server'], { root: true, apt: true })).toEqual({
      action: 'install',
      packages: ['firefox-esr', 'redis-server'],
    });
  });

  it('otherwise tells the one command to run', () => {
    const user = plan(['chromium', 'redis-server'], { root: false, apt: true });
    expect(user).toMatchObject({ action: 'tell' });
    expect(user.action === 'tell' && user.message).toContain(
      '\n  sudo apt-get install -y chromium redis-server\n',
    );
    const noApt = plan(['redis-server'], { root: true, apt: false });
    expect(noApt.action === 'tell' && noApt.message).toMatch(
      /apt-get is not on PATH[\s\S]*\n {2}apt-get install -y redis-server\n/,
    );
  });
});

describe('npm test without the packages and no way to install them', () => {
  it('stops before any test, printing the one command to run', { timeout: 120_000 }, async () => {
    // An empty PATH (node is started by its full path): no browser, no redis-server, no apt-get.
    const env: NodeJS.ProcessEnv = { PATH: empty, HOME: process.env.HOME, NO_COLOR: '1' };
    const root = resolve(import.meta.dirname, '../..');
    const run = await new Promise<{ code: number; output: string }>((done) => {
      execFile(
        process.execPath,
        [
          'node_modules/vitest/vitest.mjs',
          'run',
          '--config',
          'test/helpers/fixtures/warnings/vitest.config.ts',
          'test/helpers/fixtures/warnings/expected.fixture.ts',
        ],
        { cwd: root, env, timeout: 90_000 },
        (error, stdout, stderr) =>
          done({
            code: error ? (typeof error.code === 'number' ? error.code : -1) : 0,
            output: `${stdout}${stderr}`,
          }),
      );
    });
    expect(run.output).toContain('apt-get install -y chromium firefox-esr redis-server');
    expect(run.output).not.toMatch(/Tests\s+\d+ passed/);
    expect(run.code).not.toBe(0);
  });
});

describe('this machine', () => {
  it('has every package npm test needs (the global setup made sure)', () => {
    expect(missingPackages(process.env)).toEqual([]);
  });
});
