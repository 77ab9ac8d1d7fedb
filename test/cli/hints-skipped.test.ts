/** `hints refresh` reports the invalid entries a feed skipped (issue 22), capped, and still exits 0. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/run.js';

const NL = 'https://feeds.example.org/nl.json';
const TUD = 'https://idp.tudelft.nl/idp/shibboleth';
const REASON = 'not an entityID (a URL or URN of at most 1024 characters)';

function capture(body: unknown): CliIO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (c: string) => (out += c) },
    stderr: { write: (c: string) => (err += c) },
    env: {},
    fetch: async () => new Response(JSON.stringify(body)),
    out: () => out,
    err: () => err,
  };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hints-skipped-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('hints refresh with invalid entries', () => {
  it('writes the valid ones, names each skipped entry on stderr, counts them on stdout, exit 0', async () => {
    const out = join(dir, 'a.json');
    const io = capture({
      [TUD]: { en: 'TU Delft' },
      'SURFnet%20BV': { en: 'SURF' },
      'aho.no': { nb: 'AHO' },
    });
    expect(await runCli(['hints', 'refresh', '--source', NL, '--out', out], io)).toBe(0);
    expect(io.out()).toContain('updated: 1 added, 0 removed, 0 renamed, 1 total, 2 invalid entries skipped');
    expect(io.err()).toBe(
      `affiliation-validation hints: ${NL}: skipped "SURFnet%20BV": ${REASON} [entry_skipped]\n` +
        `affiliation-validation hints: ${NL}: skipped "aho.no": ${REASON} [entry_skipped]\n`,
    );
    const file = JSON.parse(await readFile(out, 'utf8'));
    expect(file.sources[0].feed).toEqual({ NL: { [TUD]: { en: 'TU Delft' } } });
  });

  it('--json lists them per source', async () => {
    const io = capture({ [TUD]: { en: 'TU Delft' }, Saxion: { nl: 'Saxion' } });
    expect(
      await runCli(['hints', 'refresh', '--source', NL, '--out', join(dir, 'b.json'), '--json'], io),
    ).toBe(0);
    expect(JSON.parse(io.out()).sources).toEqual([
      { url: NL, status: 'updated', skipped: [{ path: ['Saxion'], reason: REASON }], skippedCount: 1 },
    ]);
  });

  it('a file broken in every entry but one prints 20 lines and a count, keys escaped', async () => {
    const doc: Record<string, unknown> = { [TUD]: { en: 'TU Delft' } };
    for (let i = 0; i < 300; i++) doc[`bad\nline ${i}`] = { en: 'x' };
    const io = capture(doc);
    expect(await runCli(['hints', 'refresh', '--source', NL, '--out', join(dir, 'c.json')], io)).toBe(0);
    const lines = io.err().trimEnd().split('\n');
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe(
      `affiliation-validation hints: ${NL}: skipped "bad\\u000aline 0": ${REASON} [entry_skipped]`,
    );
    expect(lines[20]).toBe(
      `affiliation-validation hints: ${NL}: and 280 more invalid entries skipped [entry_skipped]`,
    );
  });
});
