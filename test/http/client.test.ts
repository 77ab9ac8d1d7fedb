import { getEventListeners } from 'node:events';
import { inspect } from 'node:util';
import { delay, HttpResponse, http as mswHttp } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { OptionsError, TransportError } from '../../src/core/errors.js';
import { MAX_TIMER_MS } from '../../src/core/options.js';
import { HttpClient, type HttpOptions } from '../../src/http/client.js';

const BASE = 'https://api.example.test';

/**
 * vi.waitFor gives up after 1 s by default: too soon on a loaded 2-core CI machine. It returns as
 * soon as the condition holds, so a generous limit costs nothing.
 */
const WAIT = { timeout: 10_000 };

const server = setupServer();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
// No jitter, so the msw tests do not wait for real backoff delays (a test that wants it mocks random).
beforeEach(() => {
  vi.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => {
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

/**
 * msw intercepts the global fetch only, and the client's default is undici's own fetch: every client
 * under msw is given the global fetch, looked up at call time.
 */
const viaMsw = {
  fetch: (input: string | URL | Request, init?: RequestInit) => globalThis.fetch(input, init),
};

const fast = (options: HttpOptions = {}) => new HttpClient({ ...viaMsw, ...options });

/** A handler answering with the given statuses in turn (the last one repeats), counting the hits. */
function sequence(method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, statuses: number[]) {
  const seen: Request[] = [];
  server.use(
    mswHttp[method](`${BASE}${path}`, ({ request }) => {
      seen.push(request.clone());
      const status = statuses[Math.min(seen.length - 1, statuses.length - 1)] ?? 200;
      return new HttpResponse(`answer ${seen.length}`, { status });
    }),
  );
  return seen;
}

async function rejection(promise: Promise<unknown>): Promise<TransportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

describe('HttpClient retries', () => {
  it.each([429, 502, 503, 504])('retries a GET answered %i and returns the later success', async (status) => {
    const seen = sequence('get', '/r', [status, 200]);
    const res = await fast().fetch(`${BASE}/r`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('answer 2');
    expect(seen).toHaveLength(2);
  });

  it.each([400, 401, 404, 500, 501])('does not retry a GET answered %i', async (status) => {
    const seen = sequence('get', '/r', [status, 200]);
    const res = await fast().fetch(`${BASE}/r`);
    expect(res.status).toBe(status);
    expect(seen).toHaveLength(1);
  });

  it.each(['put', 'delete'] as const)('retries an idempotent %s and sends its body again', async (method) => {
    const seen = sequence(method, '/r', [503, 200]);
    const res = await fast().fetch(`${BASE}/r`, { method: method.toUpperCase(), body: 'same body' });
    expect(res.status).toBe(200);
    expect(seen).toHaveLength(2);
    expect(await Promise.all(seen.map((r) => r.text()))).toEqual(['same body', 'same body']);
  });

  it.each(['post', 'patch'] as const)('never retries a %s, even when asked to', async (method) => {
    const seen = sequence(method, '/r', [503, 200]);
    const res = await fast().fetch(`${BASE}/r`, { method: method.toUpperCase(), body: '{}', retry: true });
    expect(res.status).toBe(503);
    expect(seen).toHaveLength(1);
  });

  it('retry: false turns retries off for a GET', async () => {
    const seen = sequence('get', '/r', [503, 200]);
    expect((await fast().fetch(`${BASE}/r`, { retry: false })).status).toBe(503);
    expect(seen).toHaveLength(1);
  });

  it('gives up after `retries` retries and returns the last answer', async () => {
    const seen = sequence('get', '/r', [503]);
    const res = await fast({ retries: 3 }).fetch(`${BASE}/r`);
    expect(res.status).toBe(503);
    expect(await res.text()).toBe('answer 4');
    expect(seen).toHaveLength(4);
  });

  it('retries: 0 sends exactly one request', async () => {
    const seen = sequence('get', '/r', [503, 200]);
    expect((await fast({ retries: 0 }).fetch(`${BASE}/r`)).status).toBe(503);
    expect(seen).toHaveLength(1);
  });

  it('retries a GET after a network error', async () => {
    let hits = 0;
    server.use(
      mswHttp.get(`${BASE}/n`, () => {
        hits++;
        return hits === 1 ? HttpResponse.error() : HttpResponse.text('ok');
      }),
    );
    const res = await fast().fetch(`${BASE}/n`);
    expect(await res.text()).toBe('ok');
    expect(hits).toBe(2);
  });

  it('reports a network error of a POST at once as TransportError "network"', async () => {
    let hits = 0;
    server.use(
      mswHttp.post(`${BASE}/n`, () => {
        hits++;
        return HttpResponse.error();
      }),
    );
    const error = await rejection(fast().fetch(`${BASE}/n`, { method: 'POST', body: 'x' }));
    expect(error.code).toBe('network');
    expect(error.method).toBe('POST');
    expect(hits).toBe(1);
  });

  it.each([
    ['seconds', '0'],
    ['an HTTP date in the past', 'Wed, 21 Oct 2015 07:28:00 GMT'],
  ])('honours Retry-After given as %s (waits for it, here none) and retries', async (_what, value) => {
    let hits = 0;
    server.use(
      mswHttp.get(`${BASE}/ra`, () => {
        hits++;
        return hits === 1
          ? new HttpResponse('slow down', { status: 429, headers: { 'retry-after': value } })
          : HttpResponse.text('ok');
      }),
    );
    const debug = vi.fn();
    // With jitter at its maximum the backoff would be 200 ms: the Retry-After value (0) must be used instead.
    const http = new HttpClient({ ...viaMsw, logger: { debug } });
    vi.spyOn(Math, 'random').mockReturnValue(1);
    expect(await (await http.fetch(`${BASE}/ra`)).text()).toBe('ok');
    expect(hits).toBe(2);
    expect(debug).toHaveBeenCalledWith(
      'retrying request',
      expect.objectContaining({ status: 429, waitMs: 0 }),
    );
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs: returns the answer and warns', async () => {
    const seen: number[] = [];
    server.use(
      mswHttp.get(`${BASE}/slow`, () => {
        seen.push(1);
        return new HttpResponse('busy', { status: 429, headers: { 'retry-after': '3600' } });
      }),
    );
    const warn = vi.fn();
    const res = await fast({ maxRetryAfterMs: 1000, logger: { warn } }).fetch(`${BASE}/slow`);
    expect(res.status).toBe(429);
    expect(seen).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith(
      'Retry-After too long, not retrying',
      expect.objectContaining({ waitMs: 3_600_000 }),
    );
  });

  it('does not retry a request whose body is a stream (it cannot be sent twice)', async () => {
    const seen = sequence('put', '/s', [503, 200]);
    const body = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode('streamed'));
        c.close();
      },
    });
    const res = await fast().fetch(`${BASE}/s`, { method: 'PUT', body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(503);
    expect(seen).toHaveLength(1);
  });

  it('accepts a Request as input and replays its buffered body on retry', async () => {
    const seen = sequence('put', '/req', [502, 200]);
    const request = new Request(`${BASE}/req`, { method: 'PUT', body: 'payload', headers: { 'x-a': '1' } });
    const res = await fast().fetch(request);
    expect(res.status).toBe(200);
    expect(seen.map((r) => r.headers.get('x-a'))).toEqual(['1', '1']);
    expect(await Promise.all(seen.map((r) => r.text()))).toEqual(['payload', 'payload']);
  });
});

describe('HttpClient responses', () => {
  it('returns a buffered Response with status, headers, url and body', async () => {
    server.use(mswHttp.get(`${BASE}/j`, () => HttpResponse.json({ a: 1 }, { headers: { etag: '"v1"' } })));
    const res = await new HttpClient(viaMsw).fetch(`${BASE}/j`);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"v1"');
    expect(res.url).toBe(`${BASE}/j`);
    expect(await res.json()).toEqual({ a: 1 });
  });

  it('joins a body that arrives in several chunks, in order', async () => {
    server.use(
      mswHttp.get(`${BASE}/chunks`, () => {
        const parts = ['ab', 'cd', 'ef'];
        const stream = new ReadableStream({
          pull(c) {
            const part = parts.shift();
            if (part === undefined) c.close();
            else c.enqueue(new TextEncoder().encode(part));
          },
        });
        return new HttpResponse(stream);
      }),
    );
    const read = await new HttpClient(viaMsw).fetch(`${BASE}/chunks`);
    expect(await read.text()).toBe('abcdef');
  });

  it('keeps the size limit and redacts the URL in its errors', async () => {
    server.use(mswHttp.get(`${BASE}/big`, () => new HttpResponse(new Uint8Array(2000))));
    const http = new HttpClient({ ...viaMsw, maxResponseBytes: 1000 });
    const error = await rejection(http.fetch(`${BASE}/big?code=the-auth-code&x=1`));
    expect(error.code).toBe('response_too_large');
    expect(error.message).not.toContain('the-auth-code');
    expect(error.url).toBe(`${BASE}/big?code=[REDACTED]&x=1`);
  });

  it('read() gives the status, headers, final URL and the bytes of the body, within the same limit', async () => {
    server.use(
      mswHttp.get(`${BASE}/answer`, () =>
        HttpResponse.json({ ok: true }, { status: 201, headers: { 'x-kind': 'answer' } }),
      ),
      mswHttp.get(`${BASE}/big-answer`, () => new HttpResponse(new Uint8Array(2000))),
    );
    const http = new HttpClient({ ...viaMsw, maxResponseBytes: 1000 });
    const answer = await http.read(`${BASE}/answer`);
    expect(answer.status).toBe(201);
    expect(answer.headers.get('x-kind')).toBe('answer');
    expect(answer.url).toBe(`${BASE}/answer`);
    expect(new TextDecoder().decode(answer.body ?? new Uint8Array())).toBe('{"ok":true}');
    expect((await rejection(http.read(`${BASE}/big-answer`))).code).toBe('response_too_large');
  });

  it('refuses a header record with an invalid name or value before anything is sent', async () => {
    const seen = sequence('get', '/bad-header', [200]);
    const http = new HttpClient(viaMsw);
    await expect(http.fetch(`${BASE}/bad-header`, { headers: { 'x-a': 'one\r\ntwo' } })).rejects.toThrow(
      TypeError,
    );
    await expect(http.fetch(`${BASE}/bad-header`, { headers: { 'x a': '1' } })).rejects.toThrow(TypeError);
    await expect(http.fetch(`${BASE}/bad-header`, { headers: { 'x-a': 'snow \u2603' } })).rejects.toThrow(
      TypeError,
    );
    expect(seen).toHaveLength(0);
  });

  it('adds the user-agent to headers given as a Headers object or as pairs, keeping the others', async () => {
    const seen: Array<[string | null, string | null]> = [];
    server.use(
      mswHttp.get(`${BASE}/ua2`, ({ request }) => {
        seen.push([request.headers.get('user-agent'), request.headers.get('x-a')]);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const http = new HttpClient(viaMsw);
    await http.fetch(`${BASE}/ua2`, { headers: new Headers({ 'x-a': '1' }) });
    await http.fetch(`${BASE}/ua2`, { headers: [['x-a', '2']] });
    await http.fetch(`${BASE}/ua2`, {
      headers: [
        ['User-Agent', 'mine'],
        ['x-a', '3'],
      ],
    });
    expect(seen).toEqual([
      ['affiliation-validation', '1'],
      ['affiliation-validation', '2'],
      ['mine', '3'],
    ]);
  });

  it('sends a user-agent unless the caller sets one', async () => {
    const agents: Array<string | null> = [];
    server.use(
      mswHttp.get(`${BASE}/ua`, ({ request }) => {
        agents.push(request.headers.get('user-agent'));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    await new HttpClient(viaMsw).fetch(`${BASE}/ua`);
    await new HttpClient({ ...viaMsw, userAgent: 'shop/1.0' }).fetch(`${BASE}/ua`);
    await new HttpClient(viaMsw).fetch(`${BASE}/ua`, { headers: { 'user-agent': 'mine' } });
    expect(agents).toEqual(['affiliation-validation', 'shop/1.0', 'mine']);
  });

  it('hands null-body statuses back without a body', async () => {
    server.use(
      mswHttp.get(`${BASE}/nc`, () => new HttpResponse(null, { status: 304, headers: { etag: '"v"' } })),
    );
    const res = await new HttpClient(viaMsw).fetch(`${BASE}/nc`);
    expect(res.status).toBe(304);
    expect(res.body).toBeNull();
  });

  it('refuses a body whose declared content-length exceeds the limit', async () => {
    server.use(
      mswHttp.get(
        `${BASE}/big`,
        () => new HttpResponse('x'.repeat(2000), { headers: { 'content-length': '2000' } }),
      ),
    );
    const error = await rejection(new HttpClient({ ...viaMsw, maxResponseBytes: 1000 }).fetch(`${BASE}/big`));
    expect(error.code).toBe('response_too_large');
    expect(error.status).toBe(200);
    expect(error.message).toContain('2000 bytes');
  });

  it('refuses a streamed body without content-length once it passes the limit', async () => {
    let pulls = 0;
    server.use(
      mswHttp.get(`${BASE}/stream`, () => {
        const stream = new ReadableStream({
          pull(c) {
            pulls++;
            c.enqueue(new Uint8Array(400));
            if (pulls > 100) c.close();
          },
        });
        return new HttpResponse(stream);
      }),
    );
    const error = await rejection(
      new HttpClient({ ...viaMsw, maxResponseBytes: 1000 }).fetch(`${BASE}/stream`),
    );
    expect(error.code).toBe('response_too_large');
    expect(pulls).toBeLessThan(100);
  });

  it('accepts a body of exactly the limit, and the limit can be set per request', async () => {
    server.use(mswHttp.get(`${BASE}/exact`, () => new HttpResponse(new Uint8Array(1000))));
    const http = new HttpClient({ ...viaMsw, maxResponseBytes: 1000 });
    expect((await (await http.fetch(`${BASE}/exact`)).arrayBuffer()).byteLength).toBe(1000);
    const error = await rejection(http.fetch(`${BASE}/exact`, { maxResponseBytes: 999 }));
    expect(error.code).toBe('response_too_large');
  });
});

describe('HttpClient time limits and aborts', () => {
  it('times out an attempt whose headers never come', async () => {
    server.use(mswHttp.get(`${BASE}/hang`, async () => delay('infinite')));
    const error = await rejection(
      new HttpClient({ ...viaMsw, timeoutMs: 50, retries: 0 }).fetch(`${BASE}/hang`),
    );
    expect(error.code).toBe('timeout');
    expect(error.message).toContain('timed out after 50 ms');
  });

  it('times out a body that trickles in, even though bytes keep arriving', async () => {
    let sent = 0;
    server.use(
      mswHttp.get(`${BASE}/trickle`, () => {
        const stream = new ReadableStream({
          async pull(c) {
            // The first byte goes out at once, so bytes are flowing before the limit ends even when
            // a loaded machine delays timers; then one every 10 ms, always sooner than the limit.
            if (sent > 0) await new Promise((r) => setTimeout(r, 10));
            sent++;
            c.enqueue(new TextEncoder().encode('.'));
          },
        });
        return new HttpResponse(stream);
      }),
    );
    const error = await rejection(
      new HttpClient({ ...viaMsw, timeoutMs: 300, retries: 0 }).fetch(`${BASE}/trickle`),
    );
    expect(error.code).toBe('timeout');
    expect(sent).toBeGreaterThan(1);
  });

  it('honours an outer AbortSignal that is already aborted: no request is sent', async () => {
    const seen = sequence('get', '/a', [200]);
    const error = await rejection(new HttpClient(viaMsw).fetch(`${BASE}/a`, { signal: AbortSignal.abort() }));
    expect(error.code).toBe('aborted');
    expect(seen).toHaveLength(0);
  });

  it('honours an outer AbortSignal aborted while waiting for the answer', async () => {
    server.use(mswHttp.get(`${BASE}/a`, async () => delay('infinite')));
    const controller = new AbortController();
    const pending = new HttpClient(viaMsw).fetch(`${BASE}/a`, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('shopper left')), 20);
    const error = await rejection(pending);
    expect(error.code).toBe('aborted');
  });

  it('honours an outer AbortSignal aborted during the wait before a retry', async () => {
    const seen: Request[] = [];
    server.use(
      mswHttp.get(`${BASE}/b`, ({ request }) => {
        seen.push(request);
        // A 20 s Retry-After keeps the client waiting until the abort.
        return new HttpResponse('busy', { status: 503, headers: { 'retry-after': '20' } });
      }),
    );
    const controller = new AbortController();
    const http = new HttpClient(viaMsw);
    const pending = http.fetch(`${BASE}/b`, { signal: controller.signal });
    await vi.waitFor(() => expect(seen).toHaveLength(1), WAIT);
    controller.abort();
    const error = await rejection(pending);
    expect(error.code).toBe('aborted');
    expect(seen).toHaveLength(1);
  });

  it('adds no listener to a signal that many requests share (no MaxListenersExceededWarning)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived = 0;
    server.use(
      mswHttp.get(`${BASE}/shared`, async () => {
        arrived++;
        await gate;
        return HttpResponse.json({ ok: true });
      }),
    );
    const shared = new AbortController();
    const http = new HttpClient(viaMsw);
    const pending = Array.from({ length: 20 }, () => http.fetch(`${BASE}/shared`, { signal: shared.signal }));
    await vi.waitFor(() => expect(arrived).toBe(20), WAIT);
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
    release();
    expect((await Promise.all(pending)).map((r) => r.status)).toEqual(Array(20).fill(200));
  });
});

describe('HttpClient fetch', () => {
  it('calls an injected fetch as it is, without a dispatcher', async () => {
    const seen: unknown[] = [];
    const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      seen.push('dispatcher' in (init ?? {}));
      return new Response('ok');
    });
    await new HttpClient({ ...viaMsw, fetch }).fetch(`${BASE}/x`);
    expect(seen).toEqual([false]);
  });

  it('by default does not call the global fetch (it uses undici’s own)', async () => {
    const spy = vi.spyOn(globalThis, 'fetch');
    const error = await new HttpClient({ retries: 0, timeoutMs: 2_000 })
      .fetch('http://127.0.0.1:1/')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TransportError', code: 'network' });
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });
});

describe('HttpClient options', () => {
  it.each([
    ['timeoutMs', { timeoutMs: 0 }],
    ['timeoutMs', { timeoutMs: -1 }],
    ['timeoutMs', { timeoutMs: 1.5 }],
    ['timeoutMs', { timeoutMs: 2 ** 31 }],
    ['retries', { retries: 11 }],
    ['retries', { retries: Number.NaN }],
    ['maxResponseBytes', { maxResponseBytes: 0 }],
    ['maxRetryAfterMs', { maxRetryAfterMs: -5 }],
    ['fetch', { fetch: 'nope' }],
    ['secrets', { secrets: 'one' }],
    ['secrets', { secrets: [42] }],
    ['userAgent', { userAgent: 'a\r\nx-injected: 1' }],
  ])('refuses a bad %s up front, naming it', (name, options) => {
    expect(() => new HttpClient(options as HttpOptions)).toThrow(OptionsError);
    expect(() => new HttpClient(options as HttpOptions)).toThrow(name);
  });

  it('ignores unset secrets (a public client has no client secret) but redacts the others', () => {
    const http = new HttpClient({ ...viaMsw, secrets: [undefined, '', 'set-secret-1'] });
    expect(http.redact('set-secret-1 and more')).toBe('[REDACTED] and more');
  });

  it.each([
    ['a relative URL', '/just/a/path'],
    ['garbage', 'not a url at all'],
    ['a file: URL', 'file:///etc/passwd'],
    ['a data: URL', 'data:text/plain,hi'],
  ])('refuses %s up front with OptionsError, sending nothing and not retrying', async (_what, url) => {
    const fetch = vi.fn(async () => new Response('x'));
    await expect(new HttpClient({ ...viaMsw, fetch }).fetch(url)).rejects.toThrow(OptionsError);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses a Request whose body was already read', async () => {
    const request = new Request(`${BASE}/x`, { method: 'PUT', body: 'once' });
    await request.text();
    await expect(new HttpClient(viaMsw).fetch(request)).rejects.toThrow(/already read/);
  });

  it('a timeoutMs is whole milliseconds from 1 to what setTimeout can wait, for the client and per request', async () => {
    expect(() => new HttpClient({ timeoutMs: 1 })).not.toThrow();
    expect(() => new HttpClient({ timeoutMs: MAX_TIMER_MS })).not.toThrow();
    for (const bad of [0, 1.5, 2 ** 31, Number.NaN]) {
      expect(() => new HttpClient({ timeoutMs: bad })).toThrow(
        /^Option `timeoutMs` must be an integer from 1/,
      );
      await expect(new HttpClient(viaMsw).fetch(`${BASE}/x`, { timeoutMs: bad })).rejects.toThrow(
        /^Option `timeoutMs` must be an integer from 1/,
      );
    }
  });

  it('refuses a logger that is not an object', () => {
    expect(() => new HttpClient({ logger: 'console' as never })).toThrow(/logger must be an object/);
  });

  it('hands out its logger wrapped once for redaction, for callers logging about the same requests', () => {
    const lines: unknown[] = [];
    const http = new HttpClient({ secrets: ['s3cret-value-1'], logger: { info: (...a) => lines.push(a) } });
    http.logger.info?.('sent s3cret-value-1', { url: 'https://x.example/?code=abc' });
    expect(lines).toEqual([['sent [REDACTED]', { url: 'https://x.example/?code=[REDACTED]' }]]);
  });

  it('refuses a bad per-request timeoutMs', async () => {
    await expect(new HttpClient(viaMsw).fetch(`${BASE}/x`, { timeoutMs: 0 })).rejects.toThrow(OptionsError);
  });
});

describe('HttpClient redaction', () => {
  const SECRET = 'exact-client-secret-9';
  const APP_PASSWORD = 'abcd efgh ijkl mnop qrst uvwx';
  const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
  const LEAKS = [
    SECRET,
    APP_PASSWORD,
    'abcdefghijklmnopqrstuvwx',
    JWT,
    'dXNlcjpwYXNz',
    'the-code-1',
    'verifier-1',
    'pw0rd',
  ];

  function everything(error: unknown, logs: unknown[]): string {
    return [
      String(error),
      JSON.stringify(error),
      inspect(error, { depth: 10, showHidden: true }),
      (error as Error).stack ?? '',
      JSON.stringify(logs),
    ].join('\n');
  }

  it('keeps secrets out of the message, cause, stack, JSON, inspect output and logs of a network error', async () => {
    const logs: unknown[] = [];
    const log = (...args: unknown[]) => logs.push(args);
    const fetch = async (): Promise<Response> => {
      const inner = Object.assign(
        new Error(`socket closed, sent Authorization: Basic dXNlcjpwYXNz and ${SECRET}`),
        {
          code: 'ECONNRESET',
          headers: { authorization: `Bearer ${JWT}` },
          socket: { password: APP_PASSWORD },
        },
      );
      throw new TypeError(`fetch failed for code=the-code-1&code_verifier=verifier-1 ${APP_PASSWORD}`, {
        cause: inner,
      });
    };
    const http = new HttpClient({
      ...viaMsw,
      fetch,
      retries: 1,
      secrets: [SECRET, APP_PASSWORD],
      logger: { debug: log, info: log, warn: log, error: log },
    });
    const error = await rejection(
      http.fetch(`https://admin:pw0rd@docs.example.test/x?code=the-code-1&t=${JWT}`, { method: 'GET' }),
    );
    expect(error.code).toBe('network');
    expect(logs.length).toBeGreaterThan(0);
    const text = everything(error, logs);
    for (const leak of LEAKS) expect(text).not.toContain(leak);
    // What stays is useful: the root cause's code and class.
    expect(error.message).toContain('ECONNRESET');
    expect((error.cause as Error).name).toBe('TypeError');
    expect(((error.cause as Error).cause as { code?: string }).code).toBe('ECONNRESET');
  });

  it.each([
    ['an Authorization header', 'Authorization: Bearer opaque-tok-123456', 'opaque-tok-123456', []],
    [
      'Basic credentials (application password)',
      'sent Basic YWRtaW46YWJjZCBlZmdo',
      'YWRtaW46YWJjZCBlZmdo',
      [],
    ],
    ['a client_secret parameter', 'body client_id=a&client_secret=cs-value-77', 'cs-value-77', []],
    ['a client_secret in JSON', '{"client_secret":"cs-json-88"}', 'cs-json-88', []],
    ['an authorization code', 'callback ?code=authz-code-99&state=s', 'authz-code-99', []],
    ['a PKCE verifier', 'code_verifier=pkce-verifier-00', 'pkce-verifier-00', []],
    ['an access token', '{"access_token":"at-value-11"}', 'at-value-11', []],
    ['a refresh token', 'refresh_token=rt-value-22', 'rt-value-22', []],
    ['URL userinfo', 'GET https://admin:userinfo-pw@docs.example.test/', 'userinfo-pw', []],
    ['a JWT', `token ${JWT}`, JWT, []],
    [
      'an exact configured secret',
      'boom configured-secret-33',
      'configured-secret-33',
      ['configured-secret-33'],
    ],
    ['an application password', `login ${APP_PASSWORD}`, APP_PASSWORD, [APP_PASSWORD]],
  ])(
    'keeps %s out of messages, logs, String/JSON/inspect of the error',
    async (_what, text, secret, secrets) => {
      const logs: unknown[] = [];
      const log = (...args: unknown[]) => logs.push(args);
      const fetch = async (): Promise<Response> => {
        throw new TypeError(`fetch failed: ${text}`, {
          cause: Object.assign(new Error(text), { code: 'EPIPE' }),
        });
      };
      const http = new HttpClient({
        ...viaMsw,
        fetch,
        retries: 1,
        secrets,
        logger: { debug: log, info: log, warn: log, error: log },
      });
      const error = await rejection(http.fetch(`${BASE}/t`));
      expect(logs.length).toBeGreaterThan(0);
      expect(everything(error, logs)).not.toContain(secret);
    },
  );

  it('keeps the URL userinfo the global fetch puts in its own error message out of the error', async () => {
    const error = await rejection(
      new HttpClient({ ...viaMsw, retries: 0 }).fetch('https://user:pw0rd@api.example.test/x'),
    );
    expect(everything(error, [])).not.toContain('pw0rd');
  });

  it('keeps secrets in an abort reason out of the error', async () => {
    const error = await rejection(
      new HttpClient({ ...viaMsw, secrets: [SECRET] }).fetch(`${BASE}/x`, {
        signal: AbortSignal.abort(new Error(`bye ${SECRET}`)),
      }),
    );
    expect(error.code).toBe('aborted');
    expect(everything(error, [])).not.toContain(SECRET);
  });

  it('carries no Response, Request or headers as enumerable properties', async () => {
    server.use(
      mswHttp.get(
        `${BASE}/big`,
        () => new HttpResponse('x'.repeat(50), { headers: { 'content-length': '50' } }),
      ),
    );
    const error = await rejection(new HttpClient({ ...viaMsw, maxResponseBytes: 10 }).fetch(`${BASE}/big`));
    for (const value of Object.values(error)) {
      expect(value).not.toBeInstanceOf(Response);
      expect(value).not.toBeInstanceOf(Request);
      expect(value).not.toBeInstanceOf(Headers);
    }
    expect(Object.keys(error).sort()).toEqual(['code', 'method', 'name', 'status', 'url', 'userMessage']);
  });

  it('logs the retried request with a redacted URL', async () => {
    const seen = sequence('get', '/l', [503, 200]);
    const debug = vi.fn();
    await fast({ logger: { debug }, secrets: [SECRET] }).fetch(
      `${BASE}/l?client_secret=${SECRET}&code=the-code-1`,
    );
    expect(seen).toHaveLength(2);
    const text = JSON.stringify(debug.mock.calls);
    expect(text).toContain('retrying request');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('the-code-1');
  });
});
