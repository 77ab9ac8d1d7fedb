import { describe, expect, it } from 'vitest';
import { DocsSiteError } from '../../src/docs-site.js';
import {
  client,
  HttpResponse,
  http,
  PASSWORD,
  post,
  ROOT,
  record,
  type Seen,
  USER,
  useServer,
  wpError,
} from './helpers.js';

const server = useServer();

describe('posts CRUD under the content namespace', () => {
  it('lists with Page totals from X-WP-Total and X-WP-TotalPages, sending Basic credentials', async () => {
    const seen: Seen[] = [];
    server.use(
      http.get(`${ROOT}/cms/v2/posts`, async ({ request }) => {
        await record(request, seen);
        return HttpResponse.json([post(1), post(2)], {
          headers: { 'X-WP-Total': '12', 'X-WP-TotalPages': '6' },
        });
      }),
    );
    const page = await client().posts.list({ per_page: 2, status: ['publish', 'draft'], include: [1, 2] });
    expect(page.total).toBe(12);
    expect(page.totalPages).toBe(6);
    expect(page.items.map((p) => p.id)).toEqual([1, 2]);
    expect(page.items[0]?.meta).toEqual({});
    const q = seen[0]!.url.searchParams;
    expect(q.get('per_page')).toBe('2');
    expect(q.getAll('status[]')).toEqual(['publish', 'draft']);
    expect(q.getAll('include[]')).toEqual(['1', '2']);
    const expected = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
    expect(seen[0]!.headers.get('authorization')).toBe(expected);
  });

  it('creates, updates with the chosen method, gets and deletes (trash vs force)', async () => {
    const seen: Seen[] = [];
    server.use(
      http.post(`${ROOT}/cms/v2/posts`, async ({ request }) => {
        await record(request, seen);
        return HttpResponse.json(post(7, { status: 'draft' }), { status: 201 });
      }),
      http.patch(`${ROOT}/cms/v2/posts/7`, async ({ request }) => {
        await record(request, seen);
        return HttpResponse.json(post(7, { title: { raw: 'New', rendered: 'New' } }));
      }),
      http.get(`${ROOT}/cms/v2/posts/7`, async ({ request }) => {
        await record(request, seen);
        return HttpResponse.json(post(7));
      }),
      http.delete(`${ROOT}/cms/v2/posts/7`, async ({ request }) => {
        await record(request, seen);
        const force = new URL(request.url).searchParams.get('force') === 'true';
        return HttpResponse.json(force ? { deleted: true, previous: post(7) } : post(7, { status: 'trash' }));
      }),
    );
    const docs = client();
    const created = await docs.posts.create({ title: 'Hello', status: 'draft' });
    expect(created.id).toBe(7);
    expect(seen[0]!.body).toEqual({ title: 'Hello', status: 'draft' });
    const updated = await docs.posts.update(7, { title: 'New' }, { method: 'PATCH' });
    expect(updated.title).toEqual({ raw: 'New', rendered: 'New' });
    await docs.posts.get(7, { context: 'edit', excerpt_length: 20 });
    expect(seen[2]!.url.searchParams.get('context')).toBe('edit');
    const trashed = await docs.posts.delete(7);
    expect(trashed).toMatchObject({ deleted: false, item: { id: 7, status: 'trash' } });
    const gone = await docs.posts.delete(7, { force: true });
    expect(gone).toMatchObject({ deleted: true, item: { id: 7 } });
    expect(seen[4]!.url.searchParams.get('force')).toBe('true');
  });

  it('turns a WordPress error body into a DocsSiteError with status, code and data', async () => {
    server.use(
      http.get(`${ROOT}/cms/v2/posts/999`, () => wpError('rest_post_invalid_id', 'Invalid post ID.', 404)),
    );
    const error = await client()
      .posts.get(999)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocsSiteError);
    expect(error).toMatchObject({ status: 404, code: 'rest_post_invalid_id', data: { status: 404 } });
  });
});

describe('resources built from the route table', () => {
  it('have exactly the capabilities of their route, at run time too', () => {
    const docs = client();
    const has = (r: object, m: string) => typeof (r as Record<string, unknown>)[m] === 'function';
    for (const kind of ['posts', 'pages', 'blocks'] as const) {
      for (const m of [
        'list',
        'iterate',
        'get',
        'create',
        'update',
        'delete',
        'batchCreate',
        'revisions',
        'autosaves',
      ]) {
        expect(has(docs[kind], m), `${kind}.${m}`).toBe(true);
      }
    }
    expect(has(docs.menuItems, 'autosaves')).toBe(true);
    expect(has(docs.menuItems, 'revisions')).toBe(false);
    expect(has(docs.media, 'upload')).toBe(true);
    expect(has(docs.media, 'batchCreate')).toBe(false);
    expect(has(docs.media, 'revisions')).toBe(false);
    expect(has(docs.templates, 'lookup')).toBe(true);
    expect(has(docs.templates, 'iterate')).toBe(false);
    expect(has(docs.templates, 'batchCreate')).toBe(false);
    expect(Object.isFrozen(docs.posts)).toBe(true);
  });

  it('parse() checks a value (a batch result body) against the documented item shape', () => {
    const docs = client();
    expect(docs.posts.parse(post(4, { extra: 1 }))).toMatchObject({ id: 4, extra: 1 });
    expect(() => docs.posts.parse({ id: 'four' })).toThrow(
      expect.objectContaining({ code: 'invalid_response', message: expect.stringContaining('posts.parse') }),
    );
    expect(docs.templates.parse({ id: 't//home' }).id).toBe('t//home');
  });

  it("types meta as the site sends it: { footnotes: '' } (WordPress 6.3+) or [] (6.1)", () => {
    const docs = client();
    expect(docs.posts.parse(post(4, { meta: { footnotes: '' } })).meta).toEqual({ footnotes: '' });
    expect(docs.posts.parse(post(4, { meta: [] })).meta).toEqual({});
    expect(() => docs.posts.parse(post(4, { meta: { footnotes: 3 } }))).toThrow(
      expect.objectContaining({
        code: 'invalid_response',
        message: expect.stringContaining('meta.footnotes'),
      }),
    );
  });
});
