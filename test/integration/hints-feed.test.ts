import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SOURCE_CONCURRENCY } from '../../src/hints/feed.js';
import { HintFeed, HintFeedError, TransportError } from '../../src/hints.js';
import { type Behaviour, type FeedServer, startFeedServer } from '../hints/feed-server.js';

const TUD = 'https://idp.tudelft.nl/idp/shibboleth';
const UVA = 'https://idp.uva.nl/saml2/idp/metadata.php';
const UZH = 'https://aai-idp.uzh.ch/idp/shibboleth';
const URN = 'urn:mace:terena.org:nl:vu:idp';

const V1 = {
  NL: {
    [TUD]: { en: 'Delft University of Technology', nl: 'Technische Universiteit Delft' },
    [UVA]: { en: 'University of Amsterdam', nl: 'Universiteit van Amsterdam' },
    [URN]: { en: 'Vrije Universiteit Amsterdam' },
  },
  CH: { [UZH]: { de: 'Universität Zürich', en: 'University of Zurich' } },
};
// UVA renamed, URN removed, a new one added.
const NEW = 'https://idp.ethz.ch/idp/shibboleth';
const V2 = {
  NL: {
    [TUD]: { en: 'Delft University of Technology', nl: 'Technische Universiteit Delft' },
    [UVA]: { en: 'UvA – University of Amsterdam', nl: 'Universiteit van Amsterdam' },
  },
  CH: { [UZH]: { de: 'Universität Zürich', en: 'University of Zurich' }, [NEW]: { en: 'ETH Zurich' } },
};

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
let server: FeedServer;
let dir: string;

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  server = await startFeedServer();
  dir = await mkdtemp(join(tmpdir(), 'hints-feed-'));
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await server.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  server.requests.length = 0;
});
afterEach(() => {
  expect(unhandled).toEqual([]);
});

/**
 * The time limit of every feed here. Requests that time out on purpose do so on a fake clock (see
 * {@link refreshPastTimeLimit}), so no test waits for it and a busy machine cannot turn an answer
 * into a timeout.
 */
const TIME_LIMIT_MS = 20_000;

/**
 * vi.waitFor gives up after 1 s by default: too soon on a loaded 2-core CI machine. It returns as
 * soon as the condition holds, so a generous limit costs nothing.
 */
const WAIT = { timeout: 10_000 };

/**
 * Refresh a feed whose source `p` does not answer in time: once the request has reached the server,
 * the fake clock (the HTTP layer's time limit is a setTimeout) jumps past `TIME_LIMIT_MS`.
 */
async function refreshPastTimeLimit(feed: HintFeed, p: string) {
  const sent = server.requests.filter((r) => r.path === p).length;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    const pending = feed.refresh();
    await vi.waitFor(() => expect(server.requests.filter((r) => r.path === p).length).toBe(sent + 1), WAIT);
    await vi.advanceTimersByTimeAsync(TIME_LIMIT_MS);
    return await pending;
  } finally {
    vi.useRealTimers();
  }
}

let n = 0;
function path(): string {
  return `/feed-${++n}.json`;
}

async function loaded(p: string, extra: Partial<ConstructorParameters<typeof HintFeed>[0]> = {}) {
  server.route(p, { kind: 'json', body: V1, etag: '"v1"' });
  const feed = new HintFeed({ sources: [server.url(p)], retries: 0, timeoutMs: TIME_LIMIT_MS, ...extra });
  const first = await feed.refresh();
  expect(first.status).toBe('updated');
  return feed;
}

describe('HintFeed against a real HTTP server', () => {
  it('loads a combined feed: 200 → updated, every entityID added', async () => {
    const p = path();
    const feed = await loaded(p);
    expect(feed.size).toBe(4);
    expect(feed.has(TUD)).toBe(true);
    expect(feed.has('https://unknown.example.org/idp')).toBe(false);
    expect(feed.get(UZH)).toEqual({
      entityId: UZH,
      names: { de: 'Universität Zürich', en: 'University of Zurich' },
      country: 'CH',
    });
    expect(feed.lastResult?.added).toEqual([TUD, UVA, URN, UZH]);
    expect(server.requests[0]?.ifNoneMatch).toBeUndefined();
    expect(feed.updatedAt).toBeInstanceOf(Date);
  });

  it('sends If-None-Match and treats 304 as not-modified without parsing', async () => {
    const p = path();
    const feed = await loaded(p);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const result = await feed.refresh();
      expect(result).toMatchObject({ status: 'not-modified', added: [], removed: [], renamed: [], total: 4 });
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
    expect(server.requests.at(-1)?.ifNoneMatch).toBe('"v1"');
  });

  it('uses Last-Modified when there is no ETag', async () => {
    const p = path();
    const lastModified = 'Wed, 21 Oct 2026 07:28:00 GMT';
    server.route(p, { kind: 'json', body: V1, lastModified });
    const feed = new HintFeed({ sources: [server.url(p)], retries: 0 });
    expect((await feed.refresh()).status).toBe('updated');
    expect((await feed.refresh()).status).toBe('not-modified');
    expect(server.requests.at(-1)?.ifModifiedSince).toBe(lastModified);
  });

  it('a changed ETag with the same bytes costs no parsing', async () => {
    const p = path();
    const feed = await loaded(p);
    server.route(p, { kind: 'json', body: V1, etag: '"v1-again"' });
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect((await feed.refresh()).status).toBe('not-modified');
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
    // …and the new ETag is what is sent next time.
    await feed.refresh();
    expect(server.requests.at(-1)?.ifNoneMatch).toBe('"v1-again"');
  });

  it('a changed ETag reports added, removed and renamed entityIDs', async () => {
    const p = path();
    const feed = await loaded(p);
    const updates: unknown[] = [];
    feed.on('update', (r) => updates.push(r));
    server.route(p, { kind: 'json', body: V2, etag: '"v2"' });
    const result = await feed.refresh();
    expect(result).toMatchObject({
      status: 'updated',
      added: [NEW],
      removed: [URN],
      renamed: [UVA],
      total: 4,
    });
    expect(result.error).toBeUndefined();
    expect(updates).toEqual([result]);
    expect(feed.has(URN)).toBe(false);
    expect(feed.displayName(UVA, 'en')).toBe('UvA – University of Amsterdam');
    expect(feed.search('eth')[0]?.entityId).toBe(NEW);
  });

  const faults: [string, Behaviour, string, Record<string, unknown>?][] = [
    ['HTTP 500', { kind: 'status', status: 500 }, 'feed_http_status'],
    ['HTTP 404', { kind: 'status', status: 404 }, 'feed_http_status'],
    ['a timeout (no answer)', { kind: 'hang' }, 'feed_timeout'],
    ['a connection reset', { kind: 'reset' }, 'feed_unreachable'],
    [
      'a truncated body (connection closed early)',
      { kind: 'truncate', body: '{"NL":{"https://a', declaredLength: 800 },
      'feed_unreachable',
    ],
    [
      'a truncated body (framing intact)',
      { kind: 'raw', body: '{"NL":{"https://idp.a.nl/idp":{"en":"A' },
      'feed_invalid_json',
    ],
    ['invalid JSON', { kind: 'raw', body: '<html>maintenance</html>' }, 'feed_invalid_json'],
    [
      'invalid UTF-8',
      { kind: 'raw', body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
      'feed_invalid_json',
    ],
    ['the wrong shape (array)', { kind: 'raw', body: '[1,2,3]' }, 'feed_invalid_shape'],
    ['the wrong shape (number names)', { kind: 'raw', body: `{"${TUD}":{"en":42}}` }, 'feed_invalid_shape'],
    [
      'a mixed (ambiguous) document',
      { kind: 'raw', body: `{"NL":{},"${TUD}":{"en":"x"}}` },
      'feed_ambiguous_shape',
    ],
    ['an empty feed', { kind: 'raw', body: '{}' }, 'feed_empty'],
    [
      'an oversized body',
      { kind: 'raw', body: `{"NL":{"${TUD}":{"en":"${'x'.repeat(900)}"}}}` },
      'feed_too_large',
    ],
    [
      'an oversized body (declared)',
      { kind: 'raw', body: 'x'.repeat(4000), headers: { 'content-length': '4000' } },
      'feed_too_large',
    ],
    ['a body that trickles', { kind: 'trickle', chunk: ' ', everyMs: 20 }, 'feed_timeout'],
  ];

  it.each(faults)('after %s the last good list is still served', async (_name, fault, code) => {
    const p = path();
    const feed = await loaded(p, { maxBytes: 900 });
    const errors: HintFeedError[] = [];
    feed.on('error', (e) => errors.push(e));
    server.route(p, fault);
    const result = code === 'feed_timeout' ? await refreshPastTimeLimit(feed, p) : await feed.refresh();
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(HintFeedError);
    expect(result.error?.code).toBe(code);
    expect(result.error?.source).toBe(server.url(p));
    expect(result.sources).toEqual([
      { url: server.url(p), status: 'failed', error: result.error, skipped: [], skippedCount: 0 },
    ]);
    expect(errors).toEqual([result.error]);
    expect(result).toMatchObject({ added: [], removed: [], renamed: [], total: 4 });
    expect(feed.size).toBe(4);
    expect(feed.has(TUD)).toBe(true);
    expect(feed.search('delft')[0]?.entityId).toBe(TUD);
    // The validators of the last good copy are still the ones sent.
    server.route(p, { kind: 'json', body: V1, etag: '"v1"' });
    expect((await feed.refresh()).status).toBe('not-modified');
  });

  it('keeps the transport error as cause and reports the HTTP status', async () => {
    const p = path();
    const feed = await loaded(p);
    server.route(p, { kind: 'hang' });
    const timeout = await refreshPastTimeLimit(feed, p);
    expect(timeout.error?.cause).toBeInstanceOf(TransportError);
    server.route(p, { kind: 'status', status: 503 });
    const status = await feed.refresh();
    expect(status.error?.status).toBe(503);
  });

  it('without a listener, a failure is not an unhandled "error" event', async () => {
    const p = path();
    const warn = vi.fn();
    const feed = await loaded(p, { logger: { warn } });
    server.route(p, { kind: 'status', status: 500 });
    expect(feed.listenerCount('error')).toBe(0);
    await expect(feed.refresh()).resolves.toMatchObject({ status: 'failed' });
    expect(warn).toHaveBeenCalledWith(
      'hints refresh problem',
      expect.objectContaining({ code: 'feed_http_status' }),
    );
  });

  it('a throwing listener does not break the refresh', async () => {
    const p = path();
    const error = vi.fn();
    const feed = await loaded(p, { logger: { error } });
    feed.on('update', () => {
      throw new Error('listener bug');
    });
    server.route(p, { kind: 'json', body: V2, etag: '"v2"' });
    await expect(feed.refresh()).resolves.toMatchObject({ status: 'updated' });
    expect(error).toHaveBeenCalled();
  });

  it('follows redirects on https/loopback, refuses one to plain http elsewhere, and a loop', async () => {
    const target = path();
    server.route(target, { kind: 'json', body: V1, etag: '"r"' });
    const moved = path();
    server.route(moved, { kind: 'raw', status: 301, body: '', headers: { location: target } });
    const feed = new HintFeed({ sources: [server.url(moved)], retries: 0 });
    expect(await feed.refresh()).toMatchObject({ status: 'updated', total: 4 });

    const downgraded = path();
    server.route(downgraded, {
      kind: 'raw',
      status: 302,
      body: '',
      headers: { location: 'http://feeds.example.org/x.json' },
    });
    const insecure = new HintFeed({ sources: [server.url(downgraded)], retries: 0 });
    const refused = await insecure.refresh();
    expect(refused.error?.code).toBe('feed_http_status');
    expect(refused.error?.message).toContain('not https');

    const loop = path();
    server.route(loop, { kind: 'raw', status: 307, body: '', headers: { location: loop } });
    const looping = new HintFeed({ sources: [server.url(loop)], retries: 0 });
    expect((await looping.refresh()).error?.message).toMatch(/redirected more than 5 times/);
  });

  it("does not send a source's credentials to another origin after a redirect", async () => {
    const target = path();
    server.route(target, { kind: 'json', body: V1 });
    const moved = path();
    // 127.0.0.1 → localhost: the same server, another origin.
    server.route(moved, {
      kind: 'raw',
      status: 302,
      body: '',
      headers: { location: server.url(target).replace('127.0.0.1', 'localhost') },
    });
    const url = server.url(moved).replace('http://', 'http://feeduser:feedpass@');
    const feed = new HintFeed({ sources: [url], retries: 0 });
    expect((await feed.refresh()).status).toBe('updated');
    const first = server.requests.find((r) => r.path === moved);
    const second = server.requests.find((r) => r.path === target);
    expect(first?.authorization).toBe(`Basic ${Buffer.from('feeduser:feedpass').toString('base64')}`);
    expect(second?.host).toMatch(/^localhost:/);
    expect(second?.authorization).toBeUndefined();
  });

  it('accepts a feed that starts with a UTF-8 byte order mark', async () => {
    const p = path();
    server.route(p, { kind: 'raw', body: `\ufeff${JSON.stringify(V1)}` });
    const feed = new HintFeed({ sources: [server.url(p)], retries: 0 });
    expect(await feed.refresh()).toMatchObject({ status: 'updated', total: 4 });
  });

  it('refuses a 304 to a request that sent no validators', async () => {
    const p = path();
    server.route(p, { kind: 'raw', status: 304, body: '' });
    const feed = new HintFeed({ sources: [server.url(p)], retries: 0 });
    const result = await feed.refresh();
    expect(result.status).toBe('failed');
    expect(result.error?.code).toBe('feed_http_status');
    expect(feed.size).toBe(0);
  });

  it('concurrent refresh() calls share one fetch', async () => {
    const p = path();
    let release!: () => void;
    server.route(p, {
      kind: 'gate',
      body: V1,
      etag: '"g"',
      release: new Promise<void>((r) => (release = r)),
    });
    const feed = new HintFeed({ sources: [server.url(p)], retries: 0 });
    const a = feed.refresh();
    const b = feed.refresh();
    const c = feed.refresh();
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(feed.refreshing).toBe(true);
    await vi.waitFor(() => expect(server.requests.filter((r) => r.path === p)).toHaveLength(1), WAIT);
    release();
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra).toBe(rb);
    expect(ra.status).toBe('updated');
    expect(server.requests.filter((r) => r.path === p)).toHaveLength(1);
    expect(feed.refreshing).toBe(false);
  });

  it('a slow older refresh never overwrites the result of a newer one', async () => {
    const p = path();
    let release!: () => void;
    server.route(p, { kind: 'gate', body: V1, release: new Promise<void>((r) => (release = r)) });
    const feed = new HintFeed({ sources: [server.url(p)], retries: 0 });
    const older = feed.refresh();
    await vi.waitFor(() => expect(server.requests.filter((r) => r.path === p)).toHaveLength(1), WAIT);
    server.route(p, { kind: 'json', body: V2, etag: '"v2"' });
    const newer = await feed.refresh({ force: true });
    expect(newer.status).toBe('updated');
    expect(feed.has(NEW)).toBe(true);
    release();
    const late = await older;
    // The older answer (V1) is discarded; its caller sees the newer result.
    expect(late).toBe(newer);
    expect(feed.has(NEW)).toBe(true);
    expect(feed.has(URN)).toBe(false);
    expect((await feed.refresh()).status).toBe('not-modified');
  });
});

describe('several sources', () => {
  it('merges them, the first listed source winning per language and for the country', async () => {
    const a = path();
    const b = path();
    server.route(a, { kind: 'json', body: { [TUD]: { en: 'TU Delft' }, [UVA]: { nl: 'UvA' } }, etag: '"a"' });
    server.route(b, {
      kind: 'json',
      body: { BE: { [TUD]: { en: 'Other name', nl: 'TU Delft (nl)' } }, NL: { [UZH]: { en: 'Zurich' } } },
      etag: '"b"',
    });
    const feed = new HintFeed({
      sources: [{ url: server.url(a), country: 'nl' }, server.url(b)],
      retries: 0,
    });
    const result = await feed.refresh();
    expect(result.status).toBe('updated');
    expect(feed.get(TUD)).toEqual({
      entityId: TUD,
      names: { en: 'TU Delft', nl: 'TU Delft (nl)' },
      country: 'NL',
    });
    expect(feed.get(UZH)?.country).toBe('NL');
    expect(feed.size).toBe(3);
  });

  it('when one source fails, its last good part is kept and the others still update', async () => {
    const a = path();
    const b = path();
    server.route(a, { kind: 'json', body: { [TUD]: { en: 'TU Delft' } }, etag: '"a1"' });
    server.route(b, { kind: 'json', body: { [UZH]: { en: 'Zurich' } }, etag: '"b1"' });
    const feed = new HintFeed({ sources: [server.url(a), server.url(b)], retries: 0 });
    expect((await feed.refresh()).total).toBe(2);
    server.route(a, {
      kind: 'json',
      body: { [TUD]: { en: 'TU Delft' }, [UVA]: { en: 'UvA' } },
      etag: '"a2"',
    });
    server.route(b, { kind: 'status', status: 500 });
    const result = await feed.refresh();
    expect(result.status).toBe('updated');
    expect(result.added).toEqual([UVA]);
    expect(result.removed).toEqual([]);
    expect(result.error?.code).toBe('feed_http_status');
    expect(result.sources.map((s) => s.status)).toEqual(['updated', 'failed']);
    expect(feed.has(UZH)).toBe(true);
    // Only the failed source fails again: 304 on a, 500 on b → nothing changed, status failed.
    const again = await feed.refresh();
    expect(again.status).toBe('failed');
    expect(again.sources.map((s) => s.status)).toEqual(['not-modified', 'failed']);
  });
});

describe('cacheFile', () => {
  it('persists the last good copy with its validators and serves it after a restart', async () => {
    const p = path();
    const cacheFile = join(dir, 'restart', 'hints.json');
    server.route(p, { kind: 'json', body: V1, etag: '"c1"', lastModified: 'Wed, 21 Oct 2026 07:28:00 GMT' });
    const first = new HintFeed({ sources: [server.url(p)], cacheFile, retries: 0 });
    expect((await first.refresh()).status).toBe('updated');
    const stored = JSON.parse(await readFile(cacheFile, 'utf8'));
    expect(stored.sources[0]).toMatchObject({
      url: server.url(p),
      etag: '"c1"',
      lastModified: 'Wed, 21 Oct 2026 07:28:00 GMT',
    });
    expect(await readdir(join(dir, 'restart'))).toEqual(['hints.json']);

    // A restarted process: the network does not answer, the list is served from the cache at once.
    server.route(p, { kind: 'hang' });
    const restarted = await HintFeed.open({
      sources: [server.url(p)],
      cacheFile,
      retries: 0,
      timeoutMs: TIME_LIMIT_MS,
    });
    expect(restarted.size).toBe(4);
    expect(restarted.has(TUD)).toBe(true);
    expect(restarted.get(UZH)?.country).toBe('CH');
    expect(restarted.search('zurich')[0]?.entityId).toBe(UZH);
    const failed = await refreshPastTimeLimit(restarted, p);
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe('feed_timeout');
    expect(restarted.size).toBe(4);

    // …and its stored validators are sent: the feed answers 304.
    server.route(p, { kind: 'json', body: V1, etag: '"c1"' });
    const before = server.requests.length;
    expect((await restarted.refresh()).status).toBe('not-modified');
    expect(server.requests[before]?.ifNoneMatch).toBe('"c1"');
  });

  it('lists every source in the file, also one that has never loaded, and serves the file at once after a restart', async () => {
    const a = path();
    const b = path();
    server.route(a, { kind: 'json', body: V1, etag: '"a"' });
    server.route(b, { kind: 'status', status: 500 });
    const cacheFile = join(dir, 'remember.json');
    const sources = [server.url(a), { url: server.url(b), region: 'africa' }];
    const feed = new HintFeed({ sources, cacheFile, retries: 0 });
    expect((await feed.refresh()).sources.map((s) => s.status)).toEqual(['updated', 'failed']);
    await feed.close();
    const stored = JSON.parse(await readFile(cacheFile, 'utf8')).sources;
    expect(stored).toHaveLength(2);
    expect(stored[0]).toMatchObject({ url: server.url(a), etag: '"a"' });
    expect(stored[1]).toEqual({ url: server.url(b), region: 'africa' });

    const restarted = await HintFeed.open({ sources, cacheFile, retries: 0 });
    expect(restarted.loaded).toBe(true);
    expect(restarted.size).toBe(4);
    await restarted.ready();
    await restarted.close();
  });

  it('a source given another country than the one it was cached under is fetched whole again', async () => {
    const p = path();
    const cacheFile = join(dir, 'recountry.json');
    server.route(p, { kind: 'json', body: { [TUD]: { en: 'TU Delft' } }, etag: '"x"' });
    const nl = new HintFeed({ sources: [{ url: server.url(p), country: 'NL' }], cacheFile, retries: 0 });
    await nl.refresh();
    const be = await HintFeed.open({
      sources: [{ url: server.url(p), country: 'BE' }],
      cacheFile,
      retries: 0,
    });
    expect(be.get(TUD)?.country).toBe('NL'); // served from the file until the refresh
    const before = server.requests.length;
    expect(await be.refresh()).toMatchObject({ status: 'updated' });
    expect(server.requests[before]?.ifNoneMatch).toBeUndefined();
    expect(be.get(TUD)?.country).toBe('BE');
  });

  it('a failed refresh leaves the cache file untouched', async () => {
    const p = path();
    const cacheFile = join(dir, 'untouched.json');
    const feed = await loaded(p, { cacheFile });
    const before = await readFile(cacheFile, 'utf8');
    server.route(p, { kind: 'raw', body: 'not json' });
    expect((await feed.refresh()).status).toBe('failed');
    expect(await readFile(cacheFile, 'utf8')).toBe(before);
  });

  it('a feed made with new seeds from the cache on its first refresh', async () => {
    const p = path();
    const cacheFile = join(dir, 'lazy.json');
    await loaded(p, { cacheFile });
    const feed = new HintFeed({ sources: [server.url(p)], cacheFile, retries: 0 });
    expect(feed.size).toBe(0);
    const result = await feed.refresh();
    expect(result.status).toBe('not-modified');
    expect(feed.size).toBe(4);
  });

  it('a corrupt cache file is reported, not thrown, and overwritten by the next good refresh', async () => {
    const p = path();
    const cacheFile = join(dir, 'corrupt.json');
    await writeFile(cacheFile, '{"format":"something else"');
    server.route(p, { kind: 'json', body: V1, etag: '"v1"' });
    const feed = await HintFeed.open({ sources: [server.url(p)], cacheFile, retries: 0 });
    expect(feed.size).toBe(0);
    const load = await feed.load();
    expect(load.status).toBe('invalid');
    expect(load.error?.code).toBe('cache_invalid');
    expect((await feed.refresh()).status).toBe('updated');
    expect(JSON.parse(await readFile(cacheFile, 'utf8')).format).toBe('affiliation-validation/hints-cache');
  });

  it('a cache entry that fails validation is skipped, the rest is used', async () => {
    const p = path();
    const cacheFile = join(dir, 'bad-entry.json');
    await writeFile(
      cacheFile,
      JSON.stringify({
        format: 'affiliation-validation/hints-cache',
        version: 1,
        savedAt: new Date().toISOString(),
        sources: [
          { url: server.url(p), fetchedAt: new Date().toISOString(), etag: '"x"', feed: { nope: 1 } },
        ],
      }),
    );
    const feed = await HintFeed.open({ sources: [server.url(p)], cacheFile, retries: 0 });
    expect(feed.size).toBe(0);
  });

  it('a cache file that cannot be written is reported while the list still updates', async () => {
    const p = path();
    const blocker = join(dir, 'blocker');
    await writeFile(blocker, 'a file, not a directory');
    server.route(p, { kind: 'json', body: V1, etag: '"v1"' });
    const feed = new HintFeed({
      sources: [server.url(p)],
      cacheFile: join(blocker, 'hints.json'),
      retries: 0,
    });
    const result = await feed.refresh();
    expect(result.status).toBe('updated');
    expect(result.error?.code).toBe('cache_write_failed');
    expect(feed.size).toBe(4);
  });

  it('never writes credentials of a source URL to the cache file', async () => {
    const p = path();
    const cacheFile = join(dir, 'secret.json');
    server.route(p, { kind: 'json', body: V1, etag: '"v1"' });
    const url = `${server.url(p)}?token=s3cr3t-value`;
    const feed = new HintFeed({ sources: [url], cacheFile, retries: 0 });
    expect((await feed.refresh()).status).toBe('updated');
    const text = await readFile(cacheFile, 'utf8');
    expect(text).not.toContain('s3cr3t-value');
    const restarted = await HintFeed.open({ sources: [url], cacheFile, retries: 0 });
    expect(restarted.size).toBe(4);
  });
});

describe('a refresh of about 80 sources, as the service publishes them', () => {
  it('prints no warning and keeps at most SOURCE_CONCURRENCY requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const many = createServer((req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      const i = Number(/\d+/.exec(req.url ?? '')?.[0]);
      // A short wait, so that requests overlap whenever the feed lets them.
      setTimeout(() => {
        res.on('close', () => inFlight--);
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ [`https://idp${i}.example.org/idp`]: `University ${i}` }));
      }, 20);
    });
    await new Promise<void>((resolve) => many.listen(0, '127.0.0.1', resolve));
    const { port } = many.address() as AddressInfo;
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const sources = Array.from({ length: 80 }, (_, i) => `http://127.0.0.1:${port}/feeds/${i}.json`);
      const feed = new HintFeed({ sources, retries: 0 });
      const result = await feed.refresh();
      expect(result.status).toBe('updated');
      expect(result.sources.map((s) => s.status)).toEqual(sources.map(() => 'updated'));
      expect(feed.size).toBe(80);
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(SOURCE_CONCURRENCY);
      await feed.close();
      // A warning is emitted on the next tick after the listener that causes it.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.name)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      many.closeAllConnections();
      await new Promise((resolve) => many.close(resolve));
    }
  });
});
