import { describe, expect, it } from 'vitest';
import { DocsSiteError } from '../../src/docs-site.js';
import {
  BASE,
  client,
  connect,
  HttpResponse,
  http,
  post,
  ROOT,
  record,
  type Seen,
  useServer,
  wpError,
} from './helpers.js';

const server = useServer();

interface BatchBody {
  validation: string;
  requests: { method: string; path: string; body?: Record<string, unknown> }[];
}

/** A batch route that answers 207 with one 201 per item, and records each call. */
function okBatch() {
  const calls: BatchBody[] = [];
  server.use(
    http.post(`${ROOT}/batch/v1`, async ({ request }) => {
      const body = (await request.json()) as BatchBody;
      calls.push(body);
      return HttpResponse.json(
        {
          responses: body.requests.map((r, i) => ({
            body: post(calls.length * 100 + i, { title: { raw: String(r.body?.title) } }),
            status: 201,
            headers: [],
          })),
        },
        { status: 207 },
      );
    }),
  );
  return calls;
}

const creates = (n: number) =>
  Array.from({ length: n }, (_, i) => client().posts.batchCreate({ title: `t${i}`, status: 'draft' }));

describe('batch()', () => {
  it('sends a normal batch with paths under the content namespace; 207 is success', async () => {
    const calls = okBatch();
    const docs = client();
    const results = await docs.batch([
      docs.posts.batchCreate({ title: 'a' }),
      docs.pages.batchUpdate(3, { title: 'b' }, { method: 'PUT' }),
      docs.menuItems.batchDelete(9, { force: true }),
      docs.blocks.batchCreate({ title: 'c' }),
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual({
      validation: 'normal',
      requests: [
        { method: 'POST', path: '/cms/v2/posts', body: { title: 'a' } },
        { method: 'PUT', path: '/cms/v2/pages/3', body: { title: 'b' } },
        { method: 'DELETE', path: '/cms/v2/menu-items/9?force=true' },
        { method: 'POST', path: '/cms/v2/blocks', body: { title: 'c' } },
      ],
    });
    expect(results).toHaveLength(4);
    for (const r of results) expect(r).toMatchObject({ ok: true, status: 201, headers: {} });
    expect(results[0]?.error).toBeUndefined();
  });

  it('splits a normal batch of 30 into calls of 25 and 5, results in order, with progress', async () => {
    const calls = okBatch();
    const progress: number[] = [];
    const results = await client().batch(creates(30), { onProgress: (p) => progress.push(p.done) });
    expect(calls.map((c) => c.requests.length)).toEqual([25, 5]);
    expect(results.map((r) => (r.body as { title: { raw: string } }).title.raw)).toEqual(
      Array.from({ length: 30 }, (_, i) => `t${i}`),
    );
    expect(progress).toEqual([25, 30]);
  });

  it('uses a smaller maxItems learned from the index, per instance', async () => {
    const calls = okBatch();
    server.use(
      http.get(`${ROOT}/`, () =>
        HttpResponse.json({
          namespaces: ['cms/v2'],
          routes: {
            '/batch/v1': {
              namespace: '',
              methods: ['POST'],
              endpoints: [{ methods: ['POST'], args: { requests: { type: 'array', maxItems: 10 } } }],
            },
          },
        }),
      ),
    );
    const learned = await connect();
    expect(learned.batchMaxItems).toBe(10);
    await learned.batch(creates(23));
    expect(calls.map((c) => c.requests.length)).toEqual([10, 10, 3]);
    // Another client has learned nothing: no module-level cache.
    calls.length = 0;
    await client().batch(creates(23));
    expect(calls.map((c) => c.requests.length)).toEqual([23]);
    await expect(learned.batch(creates(11), { validation: 'require-all-validate' })).rejects.toMatchObject({
      code: 'invalid_batch',
    });
  });

  it('refuses a require-all-validate batch over 25 before sending', async () => {
    const error = await client()
      .batch(creates(26), { validation: 'require-all-validate' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocsSiteError);
    expect(error).toMatchObject({ code: 'invalid_batch', status: undefined, param: 'requests' });
  });

  it('sends a require-all-validate batch of exactly 25 in one call', async () => {
    const calls = okBatch();
    await client().batch(creates(25), { validation: 'require-all-validate' });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.validation).toBe('require-all-validate');
  });

  it.each([
    ['media collection', { path: '/cms/v2/media', body: { title: 'x' } }],
    ['media item', { method: 'DELETE' as const, path: '/cms/v2/media/4' }],
    ['templates', { path: '/cms/v2/templates', body: { slug: 'x' } }],
    ['another namespace', { path: '/wp/v2/posts', body: {} }],
    ['plugin route', { path: '/forms/v1/contact-forms' }],
    ['revisions', { method: 'DELETE' as const, path: '/cms/v2/posts/1/revisions/2' }],
    ['DELETE on a collection', { method: 'DELETE' as const, path: '/cms/v2/posts' }],
    ['GET', { method: 'GET' as unknown as 'POST', path: '/cms/v2/posts' }],
    ['a body that is an array', { path: '/cms/v2/posts', body: [] as unknown as Record<string, unknown> }],
    ['a header that is a number', { path: '/cms/v2/posts', headers: { x: 1 as unknown as string } }],
    ['a missing path', { path: '' }],
  ])('refuses %s before sending', async (_name, request) => {
    const error = await client()
      .batch([client().posts.batchCreate({ title: 'ok' }), request])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocsSiteError);
    expect(error).toMatchObject({ code: 'invalid_batch', status: undefined });
    expect((error as DocsSiteError).param).toMatch(/^requests\.1/);
  });

  it('accepts paths without a leading slash and with a query string; method defaults to POST', async () => {
    const calls = okBatch();
    await client().batch([
      { method: 'DELETE', path: 'cms/v2/posts/5?force=true' },
      { path: '/cms/v2/pages', body: { title: 'p' }, headers: { 'x-a': 'b', 'x-list': ['1', '2'] } },
    ]);
    expect(calls[0]?.requests[0]?.path).toBe('/cms/v2/posts/5?force=true');
    expect(calls[0]?.requests[1]).toEqual({
      method: 'POST',
      path: '/cms/v2/pages',
      body: { title: 'p' },
      headers: { 'x-a': 'b', 'x-list': ['1', '2'] },
    });
  });

  it('maps a failed require-all-validate batch to every item', async () => {
    server.use(
      http.post(`${ROOT}/batch/v1`, () =>
        HttpResponse.json(
          {
            failed: 'validation',
            responses: [
              null,
              {
                body: {
                  code: 'rest_invalid_param',
                  message: 'Invalid parameter(s): status',
                  data: { status: 400, params: { status: 'status is not one of publish, draft.' } },
                },
                status: 400,
                headers: [],
              },
              null,
            ],
          },
          { status: 207 },
        ),
      ),
    );
    const results = await client().batch(creates(3), { validation: 'require-all-validate' });
    expect(results).toHaveLength(3);
    expect(results.every((r) => !r.ok && r.error instanceof DocsSiteError)).toBe(true);
    expect(results[0]).toMatchObject({ status: undefined, error: { code: 'batch_not_executed' } });
    expect(results[2]).toMatchObject({ status: undefined, error: { code: 'batch_not_executed' } });
    expect(results[1]).toMatchObject({
      status: 400,
      error: { code: 'rest_invalid_param', status: 400, data: { params: { status: expect.any(String) } } },
    });
  });

  it('keeps per-item errors of a normal batch and the others as successes', async () => {
    server.use(
      http.post(`${ROOT}/batch/v1`, () =>
        HttpResponse.json(
          {
            responses: [
              {
                body: post(1),
                status: 201,
                headers: { Location: `${BASE}/wp-json/cms/v2/posts/1`, Allow: 'GET' },
              },
              {
                body: { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } },
                status: 404,
                headers: [],
              },
            ],
          },
          { status: 207 },
        ),
      ),
    );
    const docs = client();
    const results = await docs.batch([
      docs.posts.batchCreate({ title: 'x' }),
      docs.posts.batchUpdate(99, {}),
    ]);
    expect(results[0]).toMatchObject({ ok: true, status: 201, headers: { Allow: 'GET' } });
    expect(results[1]).toMatchObject({
      ok: false,
      status: 404,
      error: { code: 'rest_post_invalid_id', status: 404 },
    });
  });

  it('gives each item of a call that failed as a whole its error, and later chunks batch_not_executed', async () => {
    let calls = 0;
    server.use(
      http.post(`${ROOT}/batch/v1`, async ({ request }) => {
        calls++;
        const body = (await request.json()) as BatchBody;
        if (calls === 2) return wpError('rest_invalid_param', 'Invalid parameter(s): requests', 400);
        return HttpResponse.json(
          { responses: body.requests.map(() => ({ body: post(1), status: 201, headers: [] })) },
          { status: 207 },
        );
      }),
    );
    const results = await client().batch(creates(60));
    expect(calls).toBe(2);
    expect(results).toHaveLength(60);
    expect(results.slice(0, 25).every((r) => r.ok)).toBe(true);
    expect(
      results.slice(25, 50).every((r) => r.error?.code === 'rest_invalid_param' && r.status === 400),
    ).toBe(true);
    expect(results.slice(50).every((r) => r.error?.code === 'batch_not_executed')).toBe(true);
  });

  it('refuses an answer with the wrong number of results', async () => {
    server.use(http.post(`${ROOT}/batch/v1`, () => HttpResponse.json({ responses: [] }, { status: 207 })));
    const results = await client().batch(creates(2));
    expect(results.map((r) => r.error?.code)).toEqual(['invalid_response', 'invalid_response']);
  });

  it('sends nothing for an empty batch', async () => {
    expect(await client().batch([])).toEqual([]);
  });

  it('records the POST exactly once even when the site answers 503 (never retried)', async () => {
    const seen: Seen[] = [];
    server.use(
      http.post(`${ROOT}/batch/v1`, async ({ request }) => {
        await record(request, seen);
        return new HttpResponse('busy', { status: 503, headers: { 'Retry-After': '0' } });
      }),
    );
    const results = await client({ retries: 3 }).batch(creates(2));
    expect(seen).toHaveLength(1);
    expect(results[0]).toMatchObject({ ok: false, status: 503, error: { code: 'http_error' } });
  });

  describe('concurrency', () => {
    /** A batch route that holds each call until released, and counts the calls in flight. */
    function gatedBatch(failOn?: number) {
      const state = { inFlight: 0, most: 0, calls: [] as BatchBody[], release: [] as (() => void)[] };
      server.use(
        http.post(`${ROOT}/batch/v1`, async ({ request }) => {
          const body = (await request.json()) as BatchBody;
          state.calls.push(body);
          const n = state.calls.length;
          state.inFlight++;
          state.most = Math.max(state.most, state.inFlight);
          await new Promise<void>((resolve) => state.release.push(resolve));
          state.inFlight--;
          if (n === failOn) return wpError('rest_invalid_param', 'Invalid parameter(s): requests', 400);
          return HttpResponse.json(
            {
              responses: body.requests.map((r) => ({
                body: post(1, { title: { raw: String(r.body?.title) } }),
                status: 201,
                headers: [],
              })),
            },
            { status: 207 },
          );
        }),
      );
      return state;
    }

    /** Release held calls one at a time, as they arrive, until the batch settles. */
    async function drain<T>(state: { release: (() => void)[] }, run: Promise<T>): Promise<T> {
      let settled = false;
      const out = run.finally(() => {
        settled = true;
      });
      while (!settled) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        state.release.shift()?.();
      }
      return out;
    }

    it('keeps at most `concurrency` calls in flight; results stay in request order', async () => {
      const state = gatedBatch();
      const progress: number[] = [];
      const run = client().batch(creates(110), { concurrency: 3, onProgress: (p) => progress.push(p.done) });
      await expect.poll(() => state.inFlight).toBe(3);
      const results = await drain(state, run);
      expect(state.calls.map((c) => c.requests.length)).toEqual([25, 25, 25, 25, 10]);
      expect(state.most).toBe(3);
      expect(results.map((r) => (r.body as { title: { raw: string } }).title.raw)).toEqual(
        Array.from({ length: 110 }, (_, i) => `t${i}`),
      );
      expect(progress.at(-1)).toBe(110);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
    });

    it('sends one call at a time by default, in order', async () => {
      const state = gatedBatch();
      const results = await drain(state, client().batch(creates(60)));
      expect(state.most).toBe(1);
      expect(state.calls.map((c) => c.requests[0]?.body?.title)).toEqual(['t0', 't25', 't50']);
      expect(results.every((r) => r.ok)).toBe(true);
    });

    it('after a failed call starts no new call: calls in flight keep their results, the rest is not run', async () => {
      const state = gatedBatch(1);
      const results = await drain(state, client().batch(creates(100), { concurrency: 2 }));
      // Calls 1 and 2 were in flight together; 1 failed, so calls 3 and 4 were never sent.
      expect(state.calls).toHaveLength(2);
      expect(results.slice(0, 25).every((r) => r.error?.code === 'rest_invalid_param')).toBe(true);
      expect(results.slice(25, 50).every((r) => r.ok)).toBe(true);
      expect(results.slice(50).every((r) => r.error?.code === 'batch_not_executed')).toBe(true);
    });

    it.each([0, 9, 1.5, Number.NaN, '2'])('refuses concurrency %s before sending', async (concurrency) => {
      const state = gatedBatch();
      const error = await client()
        .batch(creates(30), { concurrency: concurrency as number })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DocsSiteError);
      expect(error).toMatchObject({ code: 'invalid_batch', param: 'concurrency' });
      expect(state.calls).toHaveLength(0);
    });
  });
});
