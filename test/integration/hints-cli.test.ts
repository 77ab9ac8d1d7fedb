import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/run.js';
import { type FeedServer, startFeedServer } from '../hints/feed-server.js';

const TUD = 'https://idp.tudelft.nl/idp/shibboleth';
const UVA = 'https://idp.uva.nl/saml2/idp/metadata.php';
const UZH = 'https://aai-idp.uzh.ch/idp/shibboleth';
const FEED = {
  NL: {
    [TUD]: { en: 'Delft University of Technology', nl: 'Technische Universiteit Delft' },
    [UVA]: { en: 'University of Amsterdam', nl: 'Universiteit van Amsterdam' },
  },
  CH: { [UZH]: { de: 'Universität Zürich', en: 'University of Zurich' } },
};

function capture(env: Record<string, string> = {}): CliIO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (c: string) => (out += c) },
    stderr: { write: (c: string) => (err += c) },
    env,
    out: () => out,
    err: () => err,
  };
}

let server: FeedServer;
let dir: string;
beforeAll(async () => {
  server = await startFeedServer();
  dir = await mkdtemp(join(tmpdir(), 'hints-cli-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('affiliation-validation hints refresh', () => {
  it('writes the file atomically, prints what changed, then uses its validators (304)', async () => {
    server.route('/cli-a.json', { kind: 'json', body: FEED, etag: '"a1"' });
    const out = join(dir, 'a', 'hints.json');
    const io = capture();
    const code = await runCli(['hints', 'refresh', '--source', server.url('/cli-a.json'), '--out', out], io);
    expect(io.err()).toBe('');
    expect(code).toBe(0);
    expect(io.out()).toContain('updated: 3 added, 0 removed, 0 renamed, 3 total');
    expect(io.out()).toContain(`+ ${TUD}`);
    expect(await readdir(join(dir, 'a'))).toEqual(['hints.json']);

    const before = server.requests.length;
    const again = capture();
    expect(
      await runCli(
        ['hints', 'refresh', '--source', server.url('/cli-a.json'), '--out', out, '--json'],
        again,
      ),
    ).toBe(0);
    expect(server.requests[before]?.ifNoneMatch).toBe('"a1"');
    const json = JSON.parse(again.out());
    expect(json).toMatchObject({ status: 'not-modified', total: 3, added: [], removed: [], renamed: [] });
  });

  it('reuses the sources stored in the file when --source is left out', async () => {
    server.route('/cli-b.json', { kind: 'json', body: FEED, etag: '"b1"' });
    const out = join(dir, 'b.json');
    expect(
      await runCli(
        ['hints', 'refresh', '--source', `CH=${server.url('/cli-b.json')}`, '--out', out],
        capture(),
      ),
    ).toBe(0);
    server.route('/cli-b.json', {
      kind: 'json',
      body: { NL: { [TUD]: FEED.NL[TUD], [UVA]: { en: 'UvA' } } },
      etag: '"b2"',
    });
    const io = capture({ AFFILIATION_HINTS_FILE: out });
    expect(await runCli(['hints', 'refresh', '--json'], io)).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({
      status: 'updated',
      removed: [UZH],
      renamed: [UVA],
      total: 2,
    });
  });

  it('on failure leaves the old file in place and exits 1', async () => {
    server.route('/cli-c.json', { kind: 'json', body: FEED, etag: '"c1"' });
    const out = join(dir, 'c.json');
    expect(
      await runCli(['hints', 'refresh', '--source', server.url('/cli-c.json'), '--out', out], capture()),
    ).toBe(0);
    const before = await readFile(out, 'utf8');
    for (const fault of [
      { kind: 'status', status: 500 } as const,
      { kind: 'raw', body: '{"broken":' } as const,
      { kind: 'raw', body: '{"NL":{"not an entity id":{}}}' } as const,
    ]) {
      server.route('/cli-c.json', fault);
      const io = capture();
      expect(
        await runCli(['hints', 'refresh', '--source', server.url('/cli-c.json'), '--out', out], io),
      ).toBe(1);
      expect(io.out()).toContain('failed: 0 added, 0 removed, 0 renamed, 3 total');
      expect(io.err()).toMatch(/\[feed_/);
      expect(await readFile(out, 'utf8')).toBe(before);
    }
    expect(await readdir(dir)).not.toContainEqual(expect.stringMatching(/\.tmp$/));
  });

  it('replaces an unreadable hints file, saying so', async () => {
    server.route('/cli-r.json', { kind: 'json', body: FEED, etag: '"r1"' });
    const out = join(dir, 'corrupt.json');
    await writeFile(out, '{"half a file');
    const io = capture();
    expect(await runCli(['hints', 'refresh', '--source', server.url('/cli-r.json'), '--out', out], io)).toBe(
      0,
    );
    expect(io.err()).toContain('[cache_invalid]');
    expect(JSON.parse(await readFile(out, 'utf8')).sources).toHaveLength(1);
  });

  it('exits 3 when one of several sources fails (the file keeps its last good part)', async () => {
    server.route('/cli-d1.json', { kind: 'json', body: { [TUD]: { en: 'TU Delft' } }, etag: '"d1"' });
    server.route('/cli-d2.json', { kind: 'json', body: { [UZH]: { en: 'Zurich' } }, etag: '"d2"' });
    const out = join(dir, 'd.json');
    const args = [
      'hints',
      'refresh',
      '--source',
      server.url('/cli-d1.json'),
      '--source',
      server.url('/cli-d2.json'),
      '--out',
      out,
    ];
    expect(await runCli(args, capture())).toBe(0);
    server.route('/cli-d1.json', {
      kind: 'json',
      body: { [TUD]: { en: 'TU Delft' }, [UVA]: { en: 'UvA' } },
      etag: '"d3"',
    });
    server.route('/cli-d2.json', { kind: 'reset' });
    const io = capture();
    expect(await runCli([...args, '--json'], io)).toBe(3);
    expect(JSON.parse(io.out())).toMatchObject({
      status: 'updated',
      added: [UVA],
      total: 3,
      error: { code: 'feed_unreachable' },
    });
    const search = capture();
    expect(await runCli(['hints', 'search', 'zurich', '--file', out, '--json'], search)).toBe(0);
    expect(JSON.parse(search.out())[0].entityId).toBe(UZH);
  });

  describe('the contract of docs/nightly-hints.md: remembered sources, exit codes, what removed counts', () => {
    const A = { [TUD]: { en: 'TU Delft' }, [UVA]: { en: 'UvA' }, [UZH]: { en: 'Zurich' } };
    const B = { 'https://idp.b.example.org/idp': { en: 'B University' } };
    const stored = async (file: string) =>
      (JSON.parse(await readFile(file, 'utf8')).sources as { url: string; feed?: unknown }[]).map((s) => ({
        url: s.url,
        loaded: s.feed !== undefined,
      }));

    it('a source that fails on its first refresh is remembered, and fails again loudly without --source', async () => {
      server.route('/k-a.json', { kind: 'json', body: A, etag: '"a"' });
      server.route('/k-b.json', { kind: 'status', status: 500 });
      const out = join(dir, 'k.json');
      const first = capture();
      expect(
        await runCli(
          [
            'hints',
            'refresh',
            '--source',
            server.url('/k-a.json'),
            '--source',
            server.url('/k-b.json'),
            '--out',
            out,
          ],
          first,
        ),
      ).toBe(3);
      expect(first.out()).toContain('updated: 3 added, 0 removed, 0 renamed, 3 total, 1 of 2 sources failed');
      expect(await stored(out)).toEqual([
        { url: server.url('/k-a.json'), loaded: true },
        { url: server.url('/k-b.json'), loaded: false },
      ]);

      const cron = capture();
      expect(await runCli(['hints', 'refresh', '--out', out], cron)).toBe(3);
      expect(cron.out()).toContain(
        'not-modified: 0 added, 0 removed, 0 renamed, 3 total, 1 of 2 sources failed',
      );
      expect(cron.err()).toContain(`${server.url('/k-b.json')} answered HTTP 500 [feed_http_status]`);

      server.route('/k-b.json', { kind: 'json', body: B, etag: '"b"' });
      const healed = capture();
      expect(await runCli(['hints', 'refresh', '--out', out, '--json'], healed)).toBe(0);
      expect(JSON.parse(healed.out())).toMatchObject({
        status: 'updated',
        added: ['https://idp.b.example.org/idp'],
        total: 4,
      });
    });

    it('a source dropped from the command line: its institutions count as removed', async () => {
      server.route('/l-a.json', { kind: 'json', body: A, etag: '"a"' });
      server.route('/l-b.json', { kind: 'json', body: B, etag: '"b"' });
      const out = join(dir, 'l.json');
      const both = ['--source', server.url('/l-a.json'), '--source', server.url('/l-b.json')];
      expect(await runCli(['hints', 'refresh', ...both, '--out', out], capture())).toBe(0);
      const io = capture();
      expect(
        await runCli(['hints', 'refresh', '--source', server.url('/l-a.json'), '--out', out, '--json'], io),
      ).toBe(0);
      expect(JSON.parse(io.out())).toMatchObject({
        status: 'updated',
        added: [],
        removed: ['https://idp.b.example.org/idp'],
        total: 3,
      });
      expect(await stored(out)).toEqual([{ url: server.url('/l-a.json'), loaded: true }]);
    });

    it('an unchanged source plus a new failing one exits 3, on an existing file as on a fresh one', async () => {
      server.route('/m-a.json', { kind: 'json', body: A, etag: '"a"' });
      server.route('/m-b.json', { kind: 'status', status: 404 });
      const existing = join(dir, 'm-existing.json');
      expect(
        await runCli(['hints', 'refresh', '--source', server.url('/m-a.json'), '--out', existing], capture()),
      ).toBe(0);
      const args = (out: string) => [
        'hints',
        'refresh',
        '--source',
        server.url('/m-a.json'),
        '--source',
        server.url('/m-b.json'),
        '--out',
        out,
      ];
      const onExisting = capture();
      expect(await runCli(args(existing), onExisting)).toBe(3);
      expect(onExisting.out()).toContain(
        'not-modified: 0 added, 0 removed, 0 renamed, 3 total, 1 of 2 sources failed',
      );
      const onFresh = capture();
      expect(await runCli(args(join(dir, 'm-fresh.json')), onFresh)).toBe(3);
      expect(onFresh.out()).toContain(
        'updated: 3 added, 0 removed, 0 renamed, 3 total, 1 of 2 sources failed',
      );
      // Both files now remember both sources.
      expect(await stored(existing)).toEqual(await stored(join(dir, 'm-fresh.json')));
    });

    it('when every source fails the file is left as it was and the report gives what it still serves', async () => {
      server.route('/n-a.json', { kind: 'json', body: A, etag: '"a"' });
      const out = join(dir, 'n.json');
      expect(
        await runCli(['hints', 'refresh', '--source', server.url('/n-a.json'), '--out', out], capture()),
      ).toBe(0);
      const before = await readFile(out, 'utf8');
      server.route('/n-html.json', {
        kind: 'raw',
        body: '<!doctype html><html><body>Please log in</body></html>',
        headers: { 'content-type': 'text/html; charset=utf-8' },
      });
      const io = capture();
      expect(
        await runCli(['hints', 'refresh', '--source', server.url('/n-html.json'), '--out', out], io),
      ).toBe(1);
      expect(io.out()).toContain('failed: 0 added, 0 removed, 0 renamed, 3 total, 1 of 1 sources failed');
      const err = io.err();
      expect(err).toContain('answered text/html');
      expect(err).toMatch(/check that the URL is the feed file itself/);
      expect(err.split(server.url('/n-html.json')).length - 1).toBe(1);
      expect(err).toContain('[feed_invalid_json]');
      expect(await readFile(out, 'utf8')).toBe(before);
    });

    it('a fresh file whose only source fails is not written: the next run asks for --source', async () => {
      server.route('/o.json', { kind: 'status', status: 500 });
      const out = join(dir, 'o.json');
      const io = capture();
      expect(await runCli(['hints', 'refresh', '--source', server.url('/o.json'), '--out', out], io)).toBe(1);
      expect(io.out()).toContain('failed: 0 added, 0 removed, 0 renamed, 0 total');
      await expect(readFile(out, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
      const next = capture();
      expect(await runCli(['hints', 'refresh', '--out', out], next)).toBe(2);
      expect(next.err()).toContain('--source is required');
    });
  });

  describe('sources named after a country or a region, as the service publishes them', () => {
    it('nl=URL and africa=URL name the country (or none) of per-country files; /<cc>.json names its own', async () => {
      const KE = 'https://idp.savanna.example.ke/idp/shibboleth';
      const DE = 'https://idp.example.de/idp/shibboleth';
      server.route('/feeds/netherlands.json', { kind: 'json', body: { [TUD]: { en: 'TU Delft' } } });
      server.route('/feeds/africa.json', { kind: 'json', body: { [KE]: { en: 'Savanna University' } } });
      server.route('/feeds/de.json', { kind: 'json', body: { [DE]: { de: 'Beispieluniversität' } } });
      const out = join(dir, 'regions.json');
      const io = capture();
      expect(
        await runCli(
          [
            'hints',
            'refresh',
            '--source',
            `nl=${server.url('/feeds/netherlands.json')}`,
            '--source',
            `africa=${server.url('/feeds/africa.json')}`,
            '--source',
            server.url('/feeds/de.json'),
            '--out',
            out,
          ],
          io,
        ),
      ).toBe(0);
      expect(io.err()).toBe('');
      const search = async (query: string) => {
        const s = capture();
        expect(await runCli(['hints', 'search', query, '--file', out, '--json'], s)).toBe(0);
        return JSON.parse(s.out()) as { entityId: string; country?: string }[];
      };
      expect((await search('delft'))[0]).toMatchObject({ entityId: TUD, country: 'NL' });
      expect((await search('savanna'))[0]?.entityId).toBe(KE);
      expect((await search('savanna'))[0]?.country).toBeUndefined();
      expect((await search('beispiel'))[0]).toMatchObject({ entityId: DE, country: 'DE' });
      // The names are remembered: a run without --source keeps them.
      const stored = JSON.parse(await readFile(out, 'utf8')).sources;
      expect(stored.map((s: { country?: string; region?: string }) => s.country ?? s.region)).toEqual([
        'NL',
        'africa',
        'DE',
      ]);
      expect(await runCli(['hints', 'refresh', '--out', out], capture())).toBe(0);
      expect((await search('delft'))[0]?.country).toBe('NL');
    });

    it.each([
      ['Africa=https://feeds.example.org/africa.json', /region name/],
      ['n_l=https://feeds.example.org/nl.json', /country code/],
      ['africa=not a url', /not a valid URL/],
    ])('refuses --source %s (exit 2)', async (source, message) => {
      const io = capture();
      expect(await runCli(['hints', 'refresh', '--source', source, '--out', join(dir, 'x.json')], io)).toBe(
        2,
      );
      expect(io.err()).toMatch(message);
    });
  });

  it.each([
    [['hints', 'refresh', '--source', 'not a url', '--out', 'x.json'], /sources\[0\] is not a valid URL/],
    [['hints', 'refresh', '--source', 'http://feeds.example.org/x.json', '--out', 'x.json'], /https/],
    [['hints', 'refresh', '--bogus'], /Unknown option/],
    [['hints', 'refresh', '--out', '/nonexistent-dir-for-test/none.json'], /--source is required/],
    [['hints', 'refresh', 'extra', '--source', 'https://a.example/x'], /unexpected argument/],
    [['hints', 'frobnicate'], /unknown subcommand/],
    [['hints', 'search'], /exactly one QUERY/],
    [['hints', 'search', 'delft', '--limit', '0'], /--limit/],
    [['hints', 'search', 'delft', '--limit', 'ten'], /--limit/],
    [['hints', 'search', 'delft', '--country', 'NLD'], /--country/],
    [['hints', 'search', 'delft', '--lang', 'e n'], /--lang/],
    [['hints', 'search', 'delft', '--file', '/nonexistent-dir-for-test/x.json'], /no hints file/],
    [['hints', 'search', 'delft', '--file', 'a.json', '--source', 'https://a.example/x'], /not both/],
  ])('bad arguments %j → exit 2', async (argv, message) => {
    const io = capture();
    expect(await runCli(argv, io)).toBe(2);
    expect(io.err()).toMatch(message);
  });

  it('prints its usage with --help and exit 0', async () => {
    const io = capture();
    expect(await runCli(['hints', '--help'], io)).toBe(0);
    expect(io.out()).toContain('hints refresh');
  });
});

describe('affiliation-validation hints search', () => {
  it('searches the default file with country, lang and limit', async () => {
    server.route('/cli-s.json', { kind: 'json', body: FEED, etag: '"s1"' });
    const out = join(dir, 's.json');
    const env = { AFFILIATION_HINTS_FILE: out };
    expect(await runCli(['hints', 'refresh', '--source', server.url('/cli-s.json')], capture(env))).toBe(0);

    const text = capture(env);
    expect(await runCli(['hints', 'search', 'UNIVERSIT'], text)).toBe(0);
    // Without --lang every name matches; order is by the matched name ("universitat zurich" first).
    expect(text.out().trim().split('\n')).toEqual([
      `University of Zurich\tCH\t${UZH}`,
      `University of Amsterdam\tNL\t${UVA}`,
      `Delft University of Technology\tNL\t${TUD}`,
    ]);

    const nl = capture(env);
    expect(
      await runCli(
        ['hints', 'search', 'univ', '--country', 'nl', '--lang', 'nl', '--limit', '1', '--json'],
        nl,
      ),
    ).toBe(0);
    expect(JSON.parse(nl.out())).toEqual([
      { entityId: UVA, name: 'Universiteit van Amsterdam', country: 'NL', match: 'prefix' },
    ]);

    const none = capture(env);
    expect(await runCli(['hints', 'search', 'sorbonne'], none)).toBe(0);
    expect(none.out()).toBe('no institution found\n');
  });

  it('searches straight from --source', async () => {
    server.route('/cli-t.json', { kind: 'json', body: FEED });
    const io = capture();
    expect(
      await runCli(['hints', 'search', 'zür', '--source', server.url('/cli-t.json'), '--json'], io),
    ).toBe(0);
    expect(JSON.parse(io.out())[0]).toMatchObject({ entityId: UZH, match: 'word' });
  });

  it('reports an unreadable file or a failing source as an error, exit 1', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(bad, 'not json');
    const io = capture();
    expect(await runCli(['hints', 'search', 'x', '--file', bad], io)).toBe(1);
    expect(io.err()).toContain('[cache_invalid]');
    server.route('/cli-u.json', { kind: 'status', status: 502 });
    const io2 = capture();
    expect(await runCli(['hints', 'search', 'x', '--source', server.url('/cli-u.json')], io2)).toBe(1);
    expect(io2.err()).toContain('[feed_http_status]');
  });
});
