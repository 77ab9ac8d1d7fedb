import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HintFeed, type HintFeedError, OptionsError } from '../../src/hints.js';
import { mswFetch } from '../helpers/msw-fetch.js';

const FEED = 'https://feeds.example.org/institutions.json';
const TUD = 'https://idp.tudelft.nl/idp/shibboleth';
const UVA = 'https://idp.uva.nl/saml2/idp/metadata.php';

/**
 * vi.waitFor gives up after 1 s by default: too soon on a loaded 2-core CI machine. It returns as
 * soon as the condition holds, so a generous limit costs nothing.
 */
const WAIT = { timeout: 10_000 };

const server = setupServer();
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
  vi.restoreAllMocks(); // Math.random is pinned by the auto-refresh test
  expect(unhandled).toEqual([]);
});
afterAll(() => {
  server.close();
  process.off('unhandledRejection', onUnhandled);
});

describe('HintFeed options are validated up front, naming the option', () => {
  it.each([
    [{}, /sources/],
    [{ sources: [] }, /sources must be a non-empty array/],
    [{ sources: ['not a url'] }, /sources\[0\] is not a valid URL/],
    [{ sources: ['ftp://feeds.example.org/x'] }, /sources\[0\] must be an https: URL/],
    [{ sources: ['http://feeds.example.org/x'] }, /sources\[0\] must be an https: URL/],
    [{ sources: [FEED, FEED] }, /sources\[1\] is listed twice/],
    [{ sources: [{ url: FEED, country: 'NLD' }] }, /sources\[0\]\.country/],
    [{ sources: [{ country: 'NL' }] }, /sources\[0\]/],
    [{ sources: [{ url: FEED, region: 'Africa' }] }, /sources\[0\]\.region must be a lower-case region name/],
    [{ sources: [{ url: FEED, region: 'eu' }] }, /sources\[0\]\.region/],
    [{ sources: [{ url: FEED, region: 'africa', country: 'ZA' }] }, /names a country and a region/],
    [{ sources: [FEED], cacheFile: '' }, /cacheFile/],
    [{ sources: [FEED], maxBytes: 0 }, /maxBytes/],
    [{ sources: [FEED], maxBytes: 1.5 }, /maxBytes/],
    [{ sources: [FEED], timeoutMs: -1 }, /timeoutMs/],
    [{ sources: [FEED], timeoutMs: 2 ** 31 }, /timeoutMs/],
    [{ sources: [FEED], retries: 11 }, /retries/],
    [{ sources: [FEED], fetch: 'fetch' }, /fetch/],
    [{ sources: [FEED], logger: 'console' }, /logger/],
  ])('%j', (options, message) => {
    expect(() => new HintFeed(options as never)).toThrow(OptionsError);
    expect(() => new HintFeed(options as never)).toThrow(message);
  });

  it('accepts http: on loopback hosts only, and URL objects', () => {
    expect(
      () => new HintFeed({ sources: ['http://127.0.0.1:8080/x', 'http://localhost/x', 'http://[::1]/y'] }),
    ).not.toThrow();
    expect(
      () => new HintFeed({ sources: [new URL(FEED), { url: new URL(`${FEED}?b`), country: 'nl' }] }),
    ).not.toThrow();
  });

  it('validates auto-refresh options', () => {
    const feed = new HintFeed({ sources: [FEED] });
    expect(() => feed.startAutoRefresh({ everyMs: 0 })).toThrow(/everyMs/);
    expect(() => feed.startAutoRefresh({ everyMs: 1000, jitterMs: -1 })).toThrow(/jitterMs/);
    expect(() => feed.startAutoRefresh({ everyMs: 2 ** 31 })).toThrow(/everyMs/);
    expect(() => feed.startAutoRefresh({ retryMs: 0 })).toThrow(/retryMs/);
    expect(() => feed.startAutoRefresh({ immediate: 'yes' as never })).toThrow(/immediate/);
  });
});

describe('HintFeed fetching', () => {
  it('goes through the injected fetch, with conditional headers and an accept header', async () => {
    const seen: Headers[] = [];
    const fetch = vi.fn(async (_input: string | URL | Request, init?: RequestInit) => {
      seen.push(new Headers(init?.headers));
      return seen.length === 1
        ? new Response(JSON.stringify({ [TUD]: { en: 'TU Delft' } }), { headers: { etag: 'W/"1"' } })
        : new Response(null, { status: 304 });
    });
    const feed = new HintFeed({ sources: [FEED], fetch });
    expect((await feed.refresh()).status).toBe('updated');
    expect((await feed.refresh()).status).toBe('not-modified');
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(seen[0]?.get('accept')).toBe('application/json');
    expect(seen[0]?.has('if-none-match')).toBe(false);
    expect(seen[1]?.get('if-none-match')).toBe('W/"1"');
  });

  it('sends the userinfo of a source URL as Basic authorization, not in the URL', async () => {
    const fetch = vi.fn(
      async (_input: string | URL | Request, _init?: RequestInit) =>
        new Response(JSON.stringify({ [TUD]: { en: 'TU Delft' } })),
    );
    const feed = new HintFeed({ sources: ['https://feed%20user:p%40ss@feeds.example.org/x.json'], fetch });
    expect((await feed.refresh()).status).toBe('updated');
    expect(String(fetch.mock.calls[0]?.[0])).toBe('https://feeds.example.org/x.json');
    const auth = new Headers(fetch.mock.calls[0]?.[1]?.headers).get('authorization');
    expect(auth).toBe(`Basic ${Buffer.from('feed user:p@ss').toString('base64')}`);
  });

  it('redacts credentials of a source URL in errors and logs', async () => {
    server.use(
      http.get('https://feeds.example.org/secret.json', () => new HttpResponse('x', { status: 500 })),
    );
    const warn = vi.fn();
    const feed = new HintFeed({
      sources: ['https://user:hunter2-password@feeds.example.org/secret.json?token=abcd1234secret'],
      logger: { warn },
      retries: 0,
      fetch: mswFetch,
    });
    const result = await feed.refresh();
    expect(result.error?.code).toBe('feed_http_status');
    const everything = JSON.stringify([
      result.error?.message,
      result.error?.source,
      result.sources,
      warn.mock.calls,
    ]);
    expect(everything).not.toContain('hunter2-password');
    expect(everything).not.toContain('abcd1234secret');
  });
});

describe('what a source is', () => {
  const body = JSON.stringify({ [TUD]: { en: 'TU Delft' } });
  const serve = async () => new Response(body);

  it.each([
    ['https://feeds.example.org/nl.json', 'NL'],
    ['https://feeds.example.org/v2/de.json?x=1', 'DE'],
    ['https://feeds.example.org/NL.json', undefined], // the service names its files in lower case
    ['https://feeds.example.org/en.json', undefined], // not a country
    ['https://feeds.example.org/zz.json', undefined],
    ['https://feeds.example.org/africa.json', undefined],
    ['https://feeds.example.org/display_names.json', undefined],
  ])('%s gives its records the country %s', async (url, country) => {
    const feed = new HintFeed({ sources: [url], fetch: serve });
    await feed.refresh();
    expect(feed.get(TUD)?.country).toBe(country);
  });

  it('a country or region given wins over the file name', async () => {
    const feed = new HintFeed({
      sources: [{ url: 'https://feeds.example.org/nl.json', country: 'be' }],
      fetch: serve,
    });
    await feed.refresh();
    expect(feed.get(TUD)?.country).toBe('BE');
    const region = new HintFeed({
      sources: [{ url: 'https://feeds.example.org/nl.json', region: 'net' }],
      fetch: serve,
    });
    await region.refresh();
    expect(region.get(TUD)?.country).toBeUndefined();
  });

  it('a web page instead of the feed is reported with its content type and what to check, URL once', async () => {
    const feed = new HintFeed({
      sources: [FEED],
      fetch: async () =>
        new Response('<!doctype html><title>Sign in</title>', {
          headers: { 'content-type': 'text/html; charset=utf-8' },
        }),
    });
    const { error } = await feed.refresh();
    expect(error?.code).toBe('feed_invalid_json');
    expect(error?.message).toBe(
      `${FEED} answered text/html (37 bytes), not a JSON feed: check that the URL is the feed file itself (such as …/nl.json), not a web page, a login page or a maintenance page`,
    );
  });

  it('a body that is not JSON under a JSON content type says so', async () => {
    const feed = new HintFeed({
      sources: [FEED],
      fetch: async () => new Response('{"cut', { headers: { 'content-type': 'application/json' } }),
    });
    expect((await feed.refresh()).error?.message).toMatch(
      /answered application\/json but the body is not valid JSON \(5 bytes\)/,
    );
  });
});

describe('HintFeed.startAutoRefresh', () => {
  it('refreshes at once, then every everyMs (+ jitter), sooner after a failure, emitting events; stop ends it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const start = Date.now();
    const at: number[] = [];
    let version = 1;
    const feed = new HintFeed({
      sources: [FEED],
      retries: 0,
      fetch: async () => {
        at.push(Date.now() - start);
        if (version === 3) return new Response('x', { status: 500 });
        const body =
          version === 1 ? { [TUD]: { en: 'TU Delft' } } : { [TUD]: { en: 'TU Delft' }, [UVA]: { en: 'UvA' } };
        return new Response(JSON.stringify(body));
      },
    });
    const updates: number[] = [];
    const errors: HintFeedError[] = [];
    feed.on('update', (r) => updates.push(r.total));
    feed.on('error', (e) => errors.push(e));
    // A refresh hashes the body with Web Crypto, which answers from outside the fake clock: each step
    // waits (on real turns of the event loop) until the refresh it started has finished.
    const advance = async (ms: number) => {
      await vi.advanceTimersByTimeAsync(ms);
      while (feed.refreshing) await new Promise((resolve) => setImmediate(resolve));
    };
    const stop = feed.startAutoRefresh({ everyMs: 60_000, jitterMs: 10_000, retryMs: 5_000 });
    expect(() => feed.startAutoRefresh()).toThrow(/already running/);

    await advance(0);
    expect(at).toEqual([0]);
    expect(updates).toEqual([1]);

    version = 2;
    await advance(64_999); // 60 000 + 0.5 × 10 000 jitter
    expect(at).toEqual([0]);
    await advance(1);
    expect(at).toEqual([0, 65_000]);
    expect(updates).toEqual([1, 2]);

    version = 3;
    await advance(65_000);
    expect(at).toEqual([0, 65_000, 130_000]);
    expect(errors.map((e) => e.code)).toEqual(['feed_http_status']);
    expect(feed.size).toBe(2);

    // After a failure: retryMs (5 000) + jitter (5 000), doubling while it keeps failing.
    await advance(10_000);
    expect(at).toEqual([0, 65_000, 130_000, 140_000]);
    await advance(15_000);
    expect(at).toEqual([0, 65_000, 130_000, 140_000, 155_000]);
    expect(errors).toHaveLength(3);

    // Back to normal after a success.
    version = 2;
    await advance(25_000);
    expect(at.at(-1)).toBe(180_000);
    await advance(65_000);
    expect(at.at(-1)).toBe(245_000);

    stop();
    stop();
    const calls = at.length;
    await advance(10 * 65_000);
    expect(at).toHaveLength(calls);
    // Stopped, it can be started again.
    const stop2 = feed.startAutoRefresh({ immediate: false });
    stop2();
  });

  it("never keeps the process alive: its timers are unref'd", () => {
    const feed = new HintFeed({ sources: [FEED] });
    const count = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = count();
    const stop = feed.startAutoRefresh({ everyMs: 3_600_000, immediate: false });
    expect(count()).toBe(before);
    stop();
  });

  it('with no error listener, failures are logged and never thrown or left unhandled', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    server.use(http.get(FEED, () => HttpResponse.error()));
    const warn = vi.fn();
    const feed = new HintFeed({ sources: [FEED], retries: 0, logger: { warn }, fetch: mswFetch });
    const stop = feed.startAutoRefresh({ everyMs: 1_000, jitterMs: 0, retryMs: 1_000 });
    await vi.advanceTimersByTimeAsync(0);
    await vi.waitFor(
      () =>
        expect(warn).toHaveBeenCalledWith(
          'hints refresh problem',
          expect.objectContaining({ code: 'feed_unreachable' }),
        ),
      WAIT,
    );
    await vi.advanceTimersByTimeAsync(3_000);
    expect(warn.mock.calls.length).toBeGreaterThanOrEqual(3);
    stop();
  });

  it('a tick while a refresh is running joins it instead of fetching twice', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    const feed = new HintFeed({
      sources: [FEED],
      timeoutMs: 600_000,
      fetch: async () => {
        calls++;
        await gate;
        return new Response(JSON.stringify({ [TUD]: { en: 'TU Delft' } }));
      },
    });
    const manual = feed.refresh();
    const stop = feed.startAutoRefresh({ everyMs: 1_000, jitterMs: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    release();
    expect((await manual).status).toBe('updated');
    stop();
  });
});

describe('HintFeed.loaded, ready() and close()', () => {
  const ok = () => new Response(JSON.stringify({ [TUD]: { en: 'TU Delft' } }));
  const down = () => new Response('x', { status: 500 });

  it('without a schedule, ready() runs one refresh and resolves once a list is served', async () => {
    const fetch = vi.fn(async () => ok());
    const feed = new HintFeed({ sources: [FEED], fetch });
    expect(feed.loaded).toBe(false);
    await feed.ready();
    expect(feed.loaded).toBe(true);
    expect(feed.has(TUD)).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
    // Already loaded: no new fetch.
    await feed.ready();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('without a schedule, ready() rejects as soon as its refresh fails, with that failure as cause', async () => {
    const feed = new HintFeed({ sources: [FEED], retries: 0, fetch: async () => down() });
    await expect(feed.ready()).rejects.toMatchObject({
      name: 'HintFeedError',
      code: 'not_loaded',
      message: expect.stringMatching(/has not loaded after a failed refresh.*answered HTTP 500/),
      cause: expect.objectContaining({ code: 'feed_http_status' }),
    });
    expect(feed.loaded).toBe(false);
  });

  it('with a schedule, ready() waits through failed attempts until one succeeds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let calls = 0;
    const feed = new HintFeed({
      sources: [FEED],
      retries: 0,
      fetch: async () => (++calls < 3 ? down() : ok()),
    });
    const stop = feed.startAutoRefresh({ everyMs: 60_000, jitterMs: 0, retryMs: 1_000 });
    let ready = false;
    const waiting = feed.ready({ timeoutMs: 10_000 }).then(() => (ready = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(2);
    expect(ready).toBe(false);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls).toBe(3);
    await waiting;
    expect(ready).toBe(true);
    stop();
  });

  it('ready({ timeoutMs }) gives up with not_loaded, naming the last problem', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const feed = new HintFeed({ sources: [FEED], retries: 0, fetch: async () => down() });
    const stop = feed.startAutoRefresh({ everyMs: 60_000, jitterMs: 0, retryMs: 1_000 });
    const outcome = feed.ready({ timeoutMs: 5_000 }).then(
      () => 'resolved',
      (e: HintFeedError) => e,
    );
    await vi.advanceTimersByTimeAsync(5_000);
    const error = await outcome;
    expect(error).toMatchObject({ code: 'not_loaded' });
    expect((error as HintFeedError).message).toMatch(/within 5000 ms.*HTTP 500/);
    stop();
  });

  it('validates its options', async () => {
    const feed = new HintFeed({ sources: [FEED], fetch: async () => ok() });
    await expect(feed.ready({ timeoutMs: 0 })).rejects.toThrow(/timeoutMs/);
    await expect(feed.ready({ timeoutMs: 1.5 })).rejects.toBeInstanceOf(OptionsError);
  });

  it('close() stops the schedule, rejects waiting ready() calls, and refresh() then reports feed_closed', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let calls = 0;
    const feed = new HintFeed({
      sources: [FEED],
      retries: 0,
      fetch: async () => {
        calls++;
        return down();
      },
    });
    feed.startAutoRefresh({ everyMs: 60_000, jitterMs: 0, retryMs: 1_000 });
    const waiting = feed.ready({ timeoutMs: 600_000 }).then(
      () => 'resolved',
      (e: HintFeedError) => e.code,
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    await feed.close();
    expect(await waiting).toBe('feed_closed');
    await vi.advanceTimersByTimeAsync(600_000);
    expect(calls).toBe(1);
    expect(await feed.refresh()).toMatchObject({ status: 'failed', error: { code: 'feed_closed' } });
    await expect(feed.ready()).rejects.toMatchObject({ code: 'feed_closed' });
    expect(() => feed.startAutoRefresh()).toThrow(/closed/);
    await feed.close(); // twice is harmless
  });

  it('close() aborts an in-flight refresh and the list keeps answering', async () => {
    let calls = 0;
    const feed = new HintFeed({
      sources: [FEED],
      retries: 0,
      fetch: async (_input, init) => {
        if (++calls === 1) return ok();
        // Answers only when aborted.
        return new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
        );
      },
    });
    await feed.refresh();
    const inFlight = feed.refresh();
    await vi.waitFor(() => expect(calls).toBe(2), WAIT);
    await feed.close();
    expect((await inFlight).status).toBe('failed');
    expect(feed.has(TUD)).toBe(true);
  });
});
