import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocsSiteError } from '../../../src/docs-site.js';
import { makeClient, uniqueToken } from './helpers.js';

const docs = makeClient();
const token = uniqueToken('pages');
let created: number[] = [];

beforeAll(async () => {
  const results = await docs.batch(
    Array.from({ length: 25 }, (_, i) =>
      docs.posts.batchCreate({ title: `${token} ${i}`, status: 'publish' }),
    ),
  );
  expect(results.every((r) => r.ok)).toBe(true);
  created = results.map((r) => (r.body as { id: number }).id).sort((a, b) => a - b);
});

afterAll(async () => {
  if (created.length > 0) await docs.batch(created.map((id) => docs.posts.batchDelete(id, { force: true })));
});

describe('pagination against WordPress', () => {
  it('reads total and totalPages from the X-WP-Total and X-WP-TotalPages headers', async () => {
    const first = await docs.posts.list({ search: token, per_page: 10, orderby: 'id', order: 'asc' });
    expect(first.total).toBe(25);
    expect(first.totalPages).toBe(3);
    expect(first.items.map((p) => p.id)).toEqual(created.slice(0, 10));

    const last = await docs.posts.list({ search: token, per_page: 10, page: 3, orderby: 'id', order: 'asc' });
    expect(last.total).toBe(25);
    expect(last.items.map((p) => p.id)).toEqual(created.slice(20));
  });

  it('iterates over every page, in order, with and without concurrency', async () => {
    const params = { search: token, per_page: 4, orderby: 'id', order: 'asc' } as const;
    const concurrent: number[] = [];
    for await (const post of docs.posts.iterate(params, { concurrency: 4 })) concurrent.push(post.id);
    expect(concurrent).toEqual(created);

    const sequential: number[] = [];
    for await (const post of docs.posts.iterate(params, { concurrency: 1 })) sequential.push(post.id);
    expect(sequential).toEqual(created);
  });

  it('stops fetching when the loop stops early', async () => {
    const seen: number[] = [];
    for await (const post of docs.posts.iterate({
      search: token,
      per_page: 5,
      orderby: 'id',
      order: 'asc',
    })) {
      seen.push(post.id);
      if (seen.length === 7) break;
    }
    expect(seen).toEqual(created.slice(0, 7));
  });

  it("reports the site's error for a page past the end", async () => {
    const error = await docs.posts.list({ search: token, per_page: 10, page: 4 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DocsSiteError);
    expect((error as DocsSiteError).status).toBe(400);
    expect((error as DocsSiteError).code).toBe('rest_post_invalid_page_number');
  });
});
