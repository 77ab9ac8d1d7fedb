import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TransportError } from '../../src/core/errors.js';
import { backoffMs, HttpClient, retryAfterMs } from '../../src/http/client.js';

const URL_ = 'https://api.example.test/x';
const NOW = Date.parse('2026-11-22T10:00:00Z');

/** An injected fetch answering with the given responses in turn (the last repeats). */
function answering(...make: Array<() => Response>) {
  return vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => {
    const next = make[Math.min(fetch.mock.calls.length - 1, make.length - 1)];
    return (next as () => Response)();
  });
}
let fetch: ReturnType<typeof answering>;

const busy =
  (headers: Record<string, string> = {}) =>
  () =>
    new Response('busy', { status: 503, headers });
const ok = () => new Response('ok');

describe('waits between attempts (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('waits exactly the Retry-After seconds before the next attempt', async () => {
    fetch = answering(busy({ 'retry-after': '3' }), ok);
    const pending = new HttpClient({ fetch }).fetch(URL_);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect((await pending).status).toBe(200);
  });

  it('waits until the Retry-After HTTP date', async () => {
    fetch = answering(busy({ 'retry-after': new Date(NOW + 5_000).toUTCString() }), ok);
    const pending = new HttpClient({ fetch }).fetch(URL_);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect((await pending).status).toBe(200);
  });

  it('retries at once for a Retry-After date in the past', async () => {
    fetch = answering(busy({ 'retry-after': new Date(NOW - 60_000).toUTCString() }), ok);
    const pending = new HttpClient({ fetch }).fetch(URL_);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect((await pending).status).toBe(200);
  });

  it('backs off exponentially without Retry-After (jitter at its maximum)', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    fetch = answering(busy(), busy(), busy(), ok);
    const pending = new HttpClient({ fetch, retries: 3 }).fetch(URL_);
    const calls: number[] = [];
    for (const step of [199, 1, 399, 1, 799, 1]) {
      await vi.advanceTimersByTimeAsync(step);
      calls.push(fetch.mock.calls.length);
    }
    expect(calls).toEqual([1, 2, 2, 3, 3, 4]);
    expect((await pending).status).toBe(200);
  });

  it('caps one backoff step at 5 s', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    fetch = answering(busy(), busy(), busy(), busy(), busy(), busy(), ok);
    const pending = new HttpClient({ fetch, retries: 6 }).fetch(URL_);
    // Steps of 200, 400, 800, 1 600 and 3 200 ms, then 5 000 ms instead of 6 400.
    await vi.advanceTimersByTimeAsync(200 + 400 + 800 + 1_600 + 3_200);
    expect(fetch).toHaveBeenCalledTimes(6);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(fetch).toHaveBeenCalledTimes(6);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(7);
    expect((await pending).status).toBe(200);
  });

  it('backs off after a network error too', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1);
    let calls = 0;
    const failing = vi.fn(async () => {
      calls++;
      if (calls === 1)
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }),
        });
      return new Response('ok');
    });
    const pending = new HttpClient({ fetch: failing }).fetch(URL_);
    await vi.advanceTimersByTimeAsync(199);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    expect((await pending).status).toBe(200);
  });

  it('an abort during the wait ends it at once with "aborted" and no further attempt', async () => {
    fetch = answering(busy({ 'retry-after': '20' }), ok);
    const controller = new AbortController();
    const pending = new HttpClient({ fetch }).fetch(URL_, { signal: controller.signal });
    const settled = pending.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(1_000);
    controller.abort();
    const error = await settled;
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toBe('aborted');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('a per-attempt time limit fires on the fake clock', async () => {
    const hanging = vi.fn(
      (_url: string | URL | Request, init?: RequestInit) =>
        new Promise<Response>((_, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
    const settled = new HttpClient({ fetch: hanging, timeoutMs: 2_000 })
      .fetch(URL_, { method: 'POST' })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(hanging.mock.calls[0]?.[1]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled).toMatchObject({ code: 'timeout' });
  });
});

describe('retryAfterMs', () => {
  it.each([
    ['0', 0],
    ['3', 3_000],
    [' 120 ', 120_000],
    ['Sun, 22 Nov 2026 10:00:30 GMT', 30_000],
    ['Sunday, 22-Nov-26 10:00:30 GMT', 30_000],
    ['Sun, 22 Nov 2026 09:00:00 GMT', 0],
    ['-1', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    ['', undefined],
    [null, undefined],
  ])('parses %j', (value, expected) => {
    expect(retryAfterMs(value, NOW)).toBe(expected);
  });
});

describe('backoffMs', () => {
  it('stays within 0 .. min(max, base × 2^(attempt-1))', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (attempt, baseMs, maxMs, r) => {
          const wait = backoffMs(attempt, { baseMs, maxMs, random: () => r });
          return Number.isInteger(wait) && wait >= 0 && wait <= Math.min(maxMs, baseMs * 2 ** (attempt - 1));
        },
      ),
    );
  });

  it('uses full jitter: the whole range is reachable', () => {
    expect(backoffMs(3, { baseMs: 100, random: () => 0 })).toBe(0);
    expect(backoffMs(3, { baseMs: 100, random: () => 1 })).toBe(400);
    expect(backoffMs(3, { baseMs: 100, random: () => 0.5 })).toBe(200);
  });
});
