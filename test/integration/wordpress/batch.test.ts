import { describe, expect, it } from 'vitest';
import { DocsSiteError } from '../../../src/docs-site.js';
import { makeClient, uniqueToken } from './helpers.js';

const docs = makeClient();

/** Ids of the posts (any status but trash) whose title holds the token. */
async function idsWith(token: string): Promise<number[]> {
  const ids: number[] = [];
  for await (const post of docs.posts.iterate({ search: token, status: ['any'], per_page: 100 }))
    ids.push(post.id);
  return ids.sort((a, b) => a - b);
}

async function removeAll(ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const results = await docs.batch(ids.map((id) => docs.posts.batchDelete(id, { force: true })));
  expect(results.every((r) => r.ok)).toBe(true);
}

describe('batch against WordPress', () => {
  it('runs a normal batch item by item: created, updated, and a failed item with its own error', async () => {
    const token = uniqueToken('normal');
    const existing = await docs.posts.create({ title: `${token} existing`, status: 'draft' });
    const results = await docs.batch([
      docs.posts.batchCreate({ title: `${token} one`, status: 'draft' }),
      docs.posts.batchUpdate(existing.id, { title: `${token} renamed` }),
      // Valid for the client, refused by the site: the post does not exist.
      docs.posts.batchUpdate(999_999_999, { title: `${token} nowhere` }),
      docs.pages.batchCreate({ title: `${token} page`, status: 'draft' }),
    ]);

    expect(results.map((r) => [r.ok, r.status])).toEqual([
      [true, 201],
      [true, 200],
      [false, 404],
      [true, 201],
    ]);
    expect(results[0]!.body).toMatchObject({ title: { raw: `${token} one` } });
    expect(results[1]!.body).toMatchObject({ id: existing.id, title: { raw: `${token} renamed` } });
    const failure = results[2]!.error;
    expect(failure).toBeInstanceOf(DocsSiteError);
    expect(failure?.status).toBe(404);
    expect(failure?.code).toBe('rest_post_invalid_id');
    expect(results[0]!.error).toBeUndefined();

    const createdPage = results[3]!.body as { id: number };
    expect((await docs.pages.delete(createdPage.id, { force: true })).deleted).toBe(true);
    await removeAll(await idsWith(token));
  });

  it('runs nothing of a require-all-validate batch with one invalid item', async () => {
    const token = uniqueToken('atomic');
    const results = await docs.batch(
      [
        docs.posts.batchCreate({ title: `${token} a`, status: 'draft' }),
        // Passes the client's checks (a template is any string); the site knows no such template.
        docs.posts.batchCreate({ title: `${token} b`, status: 'draft', template: 'no-such-template' }),
        docs.posts.batchCreate({ title: `${token} c`, status: 'draft' }),
      ],
      { validation: 'require-all-validate' },
    );

    expect(results).toHaveLength(3);
    expect(results.every((r) => !r.ok)).toBe(true);
    expect(results[1]!.status).toBe(400);
    expect(results[1]!.error?.code).toBe('rest_invalid_param');
    expect(results[1]!.error?.data).toMatchObject({ params: { template: expect.any(String) } });
    // The site sends the item's empty headers as `[]`.
    expect(results[1]!.headers).toEqual({});
    for (const i of [0, 2]) {
      expect(results[i]!.status).toBeUndefined();
      expect(results[i]!.error?.code).toBe('batch_not_executed');
    }
    // Nothing was executed.
    expect(await idsWith(token)).toEqual([]);
  });

  it('runs a valid require-all-validate batch', async () => {
    const token = uniqueToken('atomicok');
    const results = await docs.batch(
      [docs.posts.batchCreate({ title: `${token} a` }), docs.posts.batchCreate({ title: `${token} b` })],
      { validation: 'require-all-validate' },
    );
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    const ids = await idsWith(token);
    expect(ids).toHaveLength(2);
    await removeAll(ids);
  });

  it('splits a normal batch of 30 into calls of at most 25, and every item is created', async () => {
    const token = uniqueToken('split');
    const progress: number[] = [];
    const results = await docs.batch(
      Array.from({ length: 30 }, (_, i) =>
        docs.posts.batchCreate({ title: `${token} ${i}`, status: 'publish' }),
      ),
      { onProgress: ({ done, total }) => progress.push(done / total) },
    );
    expect(results).toHaveLength(30);
    expect(results.every((r) => r.ok && r.status === 201)).toBe(true);
    // Results come back in request order.
    expect(results.map((r) => (r.body as { title: { raw: string } }).title.raw)).toEqual(
      Array.from({ length: 30 }, (_, i) => `${token} ${i}`),
    );
    expect(progress).toEqual([25 / 30, 1]);
    const ids = await idsWith(token);
    expect(ids).toHaveLength(30);
    await removeAll(ids);
    expect(await idsWith(token)).toEqual([]);
  });

  it('runs a normal batch of 60 with concurrency 2: every item created once, results in request order', async () => {
    const token = uniqueToken('concurrent');
    const results = await docs.batch(
      Array.from({ length: 60 }, (_, i) =>
        docs.posts.batchCreate({ title: `${token} ${i}`, status: 'publish' }),
      ),
      { concurrency: 2 },
    );
    expect(results.every((r) => r.ok && r.status === 201)).toBe(true);
    expect(results.map((r) => (r.body as { title: { raw: string } }).title.raw)).toEqual(
      Array.from({ length: 60 }, (_, i) => `${token} ${i}`),
    );
    const ids = await idsWith(token);
    expect(ids).toHaveLength(60);
    expect(new Set(results.map((r) => (r.body as { id: number }).id))).toEqual(new Set(ids));
    await removeAll(ids);
  });

  it('refuses a require-all-validate batch of 26 before sending', async () => {
    const token = uniqueToken('atomic26');
    const error = await docs
      .batch(
        Array.from({ length: 26 }, (_, i) => docs.posts.batchCreate({ title: `${token} ${i}` })),
        { validation: 'require-all-validate' },
      )
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(DocsSiteError);
    expect((error as DocsSiteError).code).toBe('invalid_batch');
    expect(await idsWith(token)).toEqual([]);
  });

  it('gets 400 from the site for 26 raw items sent through request()', async () => {
    const token = uniqueToken('raw26');
    const requests = Array.from({ length: 26 }, (_, i) => ({
      path: '/wp/v2/posts',
      body: { title: `${token} ${i}` },
    }));
    const error = await docs.request('POST', '/batch/v1', { body: { requests } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DocsSiteError);
    expect((error as DocsSiteError).status).toBe(400);
    expect((error as DocsSiteError).code).toBe('rest_invalid_param');
    expect((error as DocsSiteError).data).toMatchObject({
      status: 400,
      params: { requests: expect.any(String) },
    });
    expect(await idsWith(token)).toEqual([]);
  });
});
