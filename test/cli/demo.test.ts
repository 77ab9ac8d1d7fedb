import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: {
      stdout: { write: (s: string) => out.push(s) },
      stderr: { write: (s: string) => err.push(s) },
      env: {},
    },
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}

describe('affiliation-validation demo', () => {
  it('walks both flows against the local provider, prints every step redacted and the validated results', async () => {
    const c = capture();
    const code = await runCli(['demo'], c.io);
    const out = c.stdout();
    expect(code, c.stderr() + out).toBe(0);

    // Both validations succeed and their results are printed.
    expect(out.match(/✓ Validated by the shop: affiliation student/g)).toHaveLength(2);
    expect(out).toMatch(/transaction {2}[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    expect(out).toContain('institution  Example College');
    expect(out).toContain('Done: 2 validations completed.');

    // The browser's steps: the provider's pages, the code on the query, the fragment and the relay POST.
    expect(out).toMatch(/GET {2}http:\/\/127\.0\.0\.1:\d+\/Service\/authorization\?response_type=code&/);
    expect(out).toContain('At the service: "Select your institution"');
    expect(out).toMatch(/\/callback\?code=\[REDACTED\]&state=\[REDACTED\] {2}200/);
    expect(out).toMatch(/\/callback#id_token=\[REDACTED\]/);
    expect(out).toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/callback {2}200/);

    // Nothing secret: no raw code, token, state or nonce values.
    expect(out).not.toMatch(/eyJ[A-Za-z0-9_-]+\./);
    expect(out).not.toMatch(/[?&#](code|state|nonce|id_token)=(?!\[REDACTED\])/);
  });

  it('prints help and refuses unknown options', async () => {
    const c = capture();
    expect(await runCli(['demo', '--help'], c.io)).toBe(0);
    expect(c.stdout()).toContain('No network');
    const d = capture();
    expect(await runCli(['demo', '--fast'], d.io)).toBe(2);
  });
});
