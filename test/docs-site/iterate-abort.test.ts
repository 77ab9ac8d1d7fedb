/**
 * iterate() cancels what it no longer needs: leaving the loop early, or the caller's signal, aborts
 * the page requests still in flight, so no page is fetched for nobody.
 */
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../src/core/errors.js';
import { DocsSiteError } from '../../src/docs-site.js';
import { client, post } from './helpers.js';

/**
 * A fetch for a site of 10 pages of 10 posts: the first `immediate` pages answer at once, later
 * pages only when released (`held`), and every request's signal is kept.
 */
function slowSite(immediate = 1) {
  const seen: { page: number; signal: AbortSignal | undefined }[] = [];
  const held: (() => void)[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const page = Number(url.searchParams.get('page') ?? '1');
    const signal = init?.signal ?? undefined;
    seen.push({ page, signal });
    const answer = () =>
      new Response(JSON.stringify(Array.from({ length: 10 }, (_, i) => post((page - 1) * 10 + i + 1))), {
        headers: { 'content-type': 'application/json', 'x-wp-total': '100', 'x-wp-totalpages': '10' },
      });
    if (page <= immediate) return answer();
    return new Promise<Response>((resolve, reject) => {
      held.push(() => resolve(answer()));
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }) as typeof globalThis.fetch;
  return { fetch, seen, held };
}

describe('iterate() cancellation', () => {
  it('aborts the requests in flight when the loop ends early', async () => {
    const site = slowSite(2);
    const ids: number[] = [];
    for await (const p of client({ fetch: site.fetch }).posts.iterate({ per_page: 10 }, { concurrency: 3 })) {
      ids.push(p.id);
      if (ids.length === 15) break; // half of page 2 is enough
    }
    expect(ids).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    // Pages 3, 4 and 5 were in flight (page 2 answered, so page 5 took its place): all cancelled.
    const pending = site.seen.filter((s) => s.page > 2);
    expect(pending.map((s) => s.page)).toEqual([3, 4, 5]);
    for (const s of pending) expect(s.signal?.aborted).toBe(true);
    expect(site.seen).toHaveLength(5); // and nothing new was sent
  });

  it("stops on the caller's signal with a TransportError 'aborted', cancelling what is in flight", async () => {
    const site = slowSite();
    const controller = new AbortController();
    const ids: number[] = [];
    const error = await (async () => {
      for await (const p of client({ fetch: site.fetch }).posts.iterate(
        { per_page: 10 },
        { concurrency: 2, signal: controller.signal },
      )) {
        ids.push(p.id);
        if (ids.length === 5) controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toBe('aborted');
    expect(ids).toHaveLength(10); // the page already in hand is yielded; nothing after it
    for (const s of site.seen.filter((x) => x.page > 1)) expect(s.signal?.aborted).toBe(true);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const site = slowSite();
    const iterator = client({ fetch: site.fetch })
      .posts.iterate({}, { signal: AbortSignal.abort() })
      [Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toMatchObject({ code: 'aborted' });
    expect(site.seen).toHaveLength(0);
  });

  it('completes normally with a signal that never fires, and leaves no listener behind', async () => {
    const site = slowSite();
    const controller = new AbortController();
    let added = 0;
    let removed = 0;
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<typeof add>) => {
      added++;
      return add(...args);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      removed++;
      return remove(...args);
    }) as typeof signal.removeEventListener;
    const run = (async () => {
      let n = 0;
      for await (const _ of client({ fetch: site.fetch }).posts.iterate({}, { concurrency: 16, signal })) n++;
      return n;
    })();
    await expect.poll(() => site.held.length).toBe(9);
    for (const release of site.held) release();
    expect(await run).toBe(100);
    expect(added).toBe(removed);
  });

  it('refuses a signal that is not an AbortSignal', async () => {
    const iterator = client()
      .posts.iterate({}, { signal: { aborted: false } as unknown as AbortSignal })
      [Symbol.asyncIterator]();
    const error = await iterator.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocsSiteError);
    expect(error).toMatchObject({ code: 'invalid_param', param: 'signal' });
  });
});
