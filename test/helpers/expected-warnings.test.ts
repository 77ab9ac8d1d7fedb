/**
 * Proof that `npm test` fails on a process warning a test does not expect by name (issue 22): the
 * project's vitest config (its setup file included) runs one fixture file at a time in a child
 * process, which must exit non-zero for each kind of unexpected warning, and zero for expected ones.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const FIXTURES = 'test/helpers/fixtures/warnings';

interface Run {
  code: number;
  output: string;
}

function runFixture(name: string): Promise<Run> {
  // The child must not think it is a worker of this run.
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CI: 'true' };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'FORCE_COLOR') delete env[key];
  return new Promise((done) => {
    execFile(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--config',
        `${FIXTURES}/vitest.config.ts`,
        `${FIXTURES}/${name}.fixture.ts`,
      ],
      { cwd: root, env, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        done({ code, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

describe('a process warning no test expects fails the run', () => {
  it.each([
    [
      'in-test',
      /× adds an 11th listener[\s\S]*UnexpectedWarningError: unexpected process warning while this test ran[\s\S]*MaxListenersExceededWarning: Possible EventEmitter memory leak/,
    ],
    [
      'at-import',
      /UnexpectedWarningError: a process warning was emitted outside a test[\s\S]*ImportTimeWarning: emitted while the file is imported/,
    ],
    [
      'after-last-test',
      /UnexpectedWarningError: a process warning was emitted outside a test[\s\S]*LateWarning: emitted after the last test/,
    ],
    [
      'after-test-timer',
      /× a later test that does nothing wrong[\s\S]*LeftBehindWarning: emitted by a timer the test left behind/,
    ],
  ])('a warning %s: the run exits non-zero and names it', { timeout: 120_000 }, async (name, message) => {
    const run = await runFixture(name);
    expect(run.output).toMatch(message);
    expect(run.code).toBe(1);
  });

  it('warnings expected by name or code, and the SDK id_token deprecation: the run passes', {
    timeout: 120_000,
  }, async () => {
    const run = await runFixture('expected');
    expect(run.output).toMatch(/Tests\s+3 passed \(3\)/);
    expect(run.output).not.toMatch(/Warning:/);
    expect(run.code).toBe(0);
  });
});
