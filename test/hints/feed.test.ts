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
    const stop = feed.startAutoRefresh({ everyMs: 60_000, jitterMs: 10_000, retryMs: 5_000 });
    expect(() => feed.startAutoRefresh()).toThrow(/already running/);

    await vi.advanceTimersByTimeAsync(0);
    expect(at).toEqual([0]);
    expect(updates).toEqual([1]);

    version = 2;
    await vi.advanceTimersByTimeAsync(64_999); // 60 000 + 0.5 × 10 000 jitter
    expect(at).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(at).toEqual([0, 65_000]);
    expect(updates).toEqual([1, 2]);

    version = 3;
    await vi.advanceTimersByTimeAsync(65_000);
    expect(at).toEqual([0, 65_000, 130_000]);
    expect(errors.map((e) => e.code)).toEqual(['feed_http_status']);
    expect(feed.size).toBe(2);

    // After a failure: retryMs (5 000) + jitter (5 000), doubling while it keeps failing.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(at).toEqual([0, 65_000, 130_000, 140_000]);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(at).toEqual([0, 65_000, 130_000, 140_000, 155_000]);
    expect(errors).toHaveLength(3);

    // Back to normal after a success.
    version = 2;
    await vi.advanceTimersByTimeAsync(25_000);
    expect(at.at(-1)).toBe(180_000);
    await vi.advanceTimersByTimeAsync(65_000);
    expect(at.at(-1)).toBe(245_000);

    stop();
    stop();
    const calls = at.length;
    await vi.advanceTimersByTimeAsync(10 * 65_000);
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
