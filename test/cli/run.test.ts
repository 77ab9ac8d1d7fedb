import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
  });
  return { code, stdout, stderr };
}

describe('affiliation-validation --version', () => {
  it.each(['--version', '-v', 'version'])(
    '%s prints the version of package.json and exits 0',
    async (flag) => {
      expect(await run([flag])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    },
  );

  it('is listed in --help', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/--version, -v/);
  });

  it('an unknown option is still an unknown command (exit 2)', async () => {
    const { code, stderr } = await run(['--versoin']);
    expect(code).toBe(2);
    expect(stderr).toContain('unknown command "--versoin"');
  });
});
