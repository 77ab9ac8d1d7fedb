/**
 * test/types/option-types.generated.ts checks, under exactOptionalPropertyTypes, that every optional
 * member of every exported `*Options` type accepts `undefined` (compiled by `npm run typecheck`).
 * It is generated from the entry points: this test fails when it is not current, so a new options
 * type cannot go unchecked.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

it('the generated type test covers every exported *Options type of every entry point', async () => {
  const result = await new Promise<{ code: number | null; stderr: string }>((done) => {
    execFile(
      process.execPath,
      ['scripts/gen-option-types-test.mjs', '--check'],
      { cwd: root },
      (error, _stdout, stderr) => done({ code: error ? (error.code as number) : 0, stderr }),
    );
  });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
});
