import { describe, expect, it } from 'vitest';
import { DocsSiteError } from '../../src/docs-site.js';
import { client, HttpResponse, http, post, ROOT, useServer } from './helpers.js';

const server = useServer();

/** A site with `total` posts, `perPage` per page, that counts requests in flight. */
function paginatedPosts(total: number, delayMs = 5) {
  const stats = { inFlight: 0, maxInFlight: 0, pages: [] as number[] };
  server.use(
    http.get(`${ROOT}/cms/v2/posts`, async ({ request }) => {
      const q = new URL(request.url).searchParams;
      const page = Number(q.get('page') ?? '1');
      const perPage = Number(q.get('per_page') ?? '10');
      stats.pages.push(page);
      stats.inFlight++;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      // Later pages answer faster than earlier ones, so out-of-order completion is exercised.
      await new Promise((r) => setTimeout(r, delayMs * (20 - (page % 20))));
      stats.inFlight--;
      const totalPages = Math.ceil(total / perPage);
      const ids = Array.from({ length: perPage }, (_, i) => (page - 1) * perPage + i + 1).filter(
        (id) => id <= total,
      );
      return HttpResponse.json(
        ids.map((id) => post(id)),
        { headers: { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(totalPages) } },
      );
    }),
  );
  return stats;
}

describe('iterate()', () => {
  it('yields every item in order, fetching later pages with at most `concurrency` in flight', async () => {
    const stats = paginatedPosts(95, 1);
    const ids: number[] = [];
    for await (const p of client().posts.iterate({ per_page: 10 }, { concurrency: 3 })) ids.push(p.id);
    expect(ids).toEqual(Array.from({ length: 95 }, (_, i) => i + 1));
    expect(stats.maxInFlight).toBe(3);
    expect(stats.pages[0]).toBe(1);
    expect([...stats.pages].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('defaults to 4 pages in flight', async () => {
    const stats = paginatedPosts(100, 1);
    let n = 0;
    for await (const _ of client().posts.iterate({ per_page: 10 })) n++;
    expect(n).toBe(100);
    expect(stats.maxInFlight).toBe(4);
  });

  it('stops fetching when the loop ends early', async () => {
    const stats = paginatedPosts(1000, 1);
    let n = 0;
    for await (const _ of client().posts.iterate({ per_page: 10 }, { concurrency: 2 })) {
      if (++n === 15) break;
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(stats.pages.length).toBeLessThanOrEqual(4);
  });

  it('starts at the given page and refuses a bad concurrency', async () => {
    const stats = paginatedPosts(30, 1);
    const ids: number[] = [];
    for await (const p of client().posts.iterate({ per_page: 10, page: 2 })) ids.push(p.id);
    expect(ids[0]).toBe(11);
    expect(ids).toHaveLength(20);
    expect(stats.pages).not.toContain(1);
    const it = client().posts.iterate({}, { concurrency: 0 });
    await expect(it[Symbol.asyncIterator]().next()).rejects.toMatchObject({
      code: 'invalid_param',
      param: 'concurrency',
    });
  });

  it('propagates a failing later page as a DocsSiteError', async () => {
    server.use(
      http.get(`${ROOT}/cms/v2/posts`, ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        if (page === 2) {
          return HttpResponse.json(
            { code: 'rest_post_invalid_page_number', message: 'bad page', data: { status: 400 } },
            { status: 400 },
          );
        }
        return HttpResponse.json([post(1)], { headers: { 'X-WP-Total': '3', 'X-WP-TotalPages': '3' } });
      }),
    );
    const seen: number[] = [];
    const run = async () => {
      for await (const p of client().posts.iterate()) seen.push(p.id);
    };
    await expect(run()).rejects.toMatchObject({ code: 'rest_post_invalid_page_number', status: 400 });
    expect(seen).toEqual([1]);
  });
});

describe('Page<T> from the headers', () => {
  it('treats missing pagination headers as one page of all items', async () => {
    server.use(http.get(`${ROOT}/cms/v2/posts`, () => HttpResponse.json([post(1), post(2)])));
    expect(await client().posts.list()).toMatchObject({ total: 2, totalPages: 1 });
  });

  it('refuses a pagination header that is not a count', async () => {
    server.use(
      http.get(`${ROOT}/cms/v2/posts`, () =>
        HttpResponse.json([post(1)], { headers: { 'X-WP-Total': 'many', 'X-WP-TotalPages': '1' } }),
      ),
    );
    const error = await client()
      .posts.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocsSiteError);
    expect(error).toMatchObject({ code: 'invalid_response' });
  });

  it('reports an empty list with zero pages', async () => {
    server.use(
      http.get(`${ROOT}/cms/v2/pages`, () =>
        HttpResponse.json([], { headers: { 'X-WP-Total': '0', 'X-WP-TotalPages': '0' } }),
      ),
    );
    expect(await client().pages.list()).toEqual({ items: [], total: 0, totalPages: 0 });
    const all: unknown[] = [];
    for await (const p of client().pages.iterate()) all.push(p);
    expect(all).toEqual([]);
  });
});
