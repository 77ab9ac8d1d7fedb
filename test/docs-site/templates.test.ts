import { describe, expect, it } from 'vitest';
import { type DocsSiteClient, DocsSiteError } from '../../src/docs-site.js';
import { client, HttpResponse, http, ROOT, record, type Seen, useServer, wpError } from './helpers.js';

const server = useServer();

const tpl = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  slug: id.split('//')[1] ?? id,
  theme: 'twentytwentythree',
  type: 'wp_template',
  content: { raw: '<!-- wp:paragraph -->' },
  title: { raw: 'Home', rendered: 'Home' },
  ...extra,
});

describe('templates and template parts', () => {
  it('keeps the // of a template id in the path (no collapsing) for get, update and delete', async () => {
    const seen: Seen[] = [];
    const handler = async ({ request }: { request: Request }) => {
      await record(request, seen);
      return request.method === 'DELETE'
        ? HttpResponse.json({ deleted: true, previous: tpl('twentytwentythree//home') })
        : HttpResponse.json(tpl('twentytwentythree//home'));
    };
    server.use(http.all(`${ROOT}/cms/v2/templates/*`, handler));
    const docs = client();
    const t = await docs.templates.get('twentytwentythree//home', { context: 'edit' });
    expect(t.id).toBe('twentytwentythree//home');
    await docs.templates.update('twentytwentythree//home', { title: 'Start' }, { method: 'PUT' });
    const deleted = await docs.templates.delete('twentytwentythree//home', { force: true });
    expect(deleted.deleted).toBe(true);
    for (const s of seen) expect(s.url.pathname).toBe('/wp-json/cms/v2/templates/twentytwentythree//home');
    expect(seen.map((s) => s.method)).toEqual(['GET', 'PUT', 'DELETE']);
    expect(docs.templates.itemPath('thème//a%b')).toBe('/cms/v2/templates/th%C3%A8me//a%25b');
    expect(docs.templateParts.itemPath('t/header')).toBe('/cms/v2/template-parts/t/header');
  });

  it('lists without pagination headers, as one page', async () => {
    let url: URL | undefined;
    server.use(
      http.get(`${ROOT}/cms/v2/template-parts`, ({ request }) => {
        url = new URL(request.url);
        return HttpResponse.json([
          tpl('t//header', { area: 'header' }),
          tpl('t//footer', { area: 'footer' }),
        ]);
      }),
    );
    const page = await client().templateParts.list({ area: 'header', wp_id: 3, post_type: 'page' });
    expect(page).toMatchObject({ total: 2, totalPages: 1 });
    expect(page.items[0]?.area).toBe('header');
    expect(url?.searchParams.get('area')).toBe('header');
    expect(url?.searchParams.get('wp_id')).toBe('3');
  });

  it('looks up a fallback template and creates one with a valid slug', async () => {
    const seen: Seen[] = [];
    server.use(
      http.get(`${ROOT}/cms/v2/templates/lookup`, async ({ request }) => {
        await record(request, seen);
        return HttpResponse.json(tpl('t//single'));
      }),
      http.post(`${ROOT}/cms/v2/templates`, async ({ request }) => {
        await record(request, seen);
        return HttpResponse.json(tpl('t//my-page_2'), { status: 201 });
      }),
    );
    const docs = client();
    await docs.templates.lookup({ slug: 'single-post', is_custom: false, template_prefix: 'single' });
    expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({
      slug: 'single-post',
      is_custom: 'false',
      template_prefix: 'single',
    });
    const created = await docs.templates.create({ slug: 'my-page_2%20', title: 'Mine', content: '' });
    expect(created.id).toBe('t//my-page_2');
    expect(seen[1]!.body).toEqual({ slug: 'my-page_2%20', title: 'Mine', content: '' });
  });

  it('reaches revisions and autosaves with the string id as parent; they are shaped like templates', async () => {
    // What WordPress 6.8 and 7.1 send: the template's own id, the revision's post id as wp_id, the
    // customized template's post id as parent.
    const revision = (wpId: number) => tpl('t//home', { wp_id: wpId, parent: 17, status: 'inherit' });
    const urls: string[] = [];
    server.use(
      http.get(`${ROOT}/cms/v2/templates/*`, ({ request }) => {
        urls.push(new URL(request.url).pathname);
        return HttpResponse.json(
          request.url.includes('/revisions/') || request.url.includes('/autosaves/')
            ? revision(5)
            : [revision(5)],
        );
      }),
      http.delete(`${ROOT}/cms/v2/template-parts/*`, ({ request }) => {
        urls.push(`${new URL(request.url).pathname}?${new URL(request.url).search}`);
        return HttpResponse.json({ deleted: true, previous: tpl('t//header', { wp_id: 6, parent: 9 }) });
      }),
    );
    const docs = client();
    const listed = (await docs.templates.revisions('t//home').list()).items[0];
    expect(listed).toMatchObject({ id: 't//home', wp_id: 5, parent: 17 });
    expect((await docs.templates.revisions('t//home').get(5)).wp_id).toBe(5);
    await docs.templates.autosaves('t//home').list();
    await docs.templates.autosaves('t//home').get(5);
    const removed = await docs.templateParts.revisions('t//header').delete(6, { force: true });
    expect(removed).toMatchObject({ deleted: true, item: { id: 't//header', wp_id: 6 } });
    expect(urls).toEqual([
      '/wp-json/cms/v2/templates/t//home/revisions',
      '/wp-json/cms/v2/templates/t//home/revisions/5',
      '/wp-json/cms/v2/templates/t//home/autosaves',
      '/wp-json/cms/v2/templates/t//home/autosaves/5',
      '/wp-json/cms/v2/template-parts/t//header/revisions/6??force=true',
    ]);
  });

  it('takes modified false (WordPress 6.8) and null (7.x) of a theme-file template as null', async () => {
    server.use(
      http.get(`${ROOT}/cms/v2/templates`, () =>
        HttpResponse.json([
          tpl('t//a', { modified: false, source: 'theme' }),
          tpl('t//b', { modified: null, date: null, source: 'theme' }),
          tpl('t//c', { modified: '2026-05-01T10:00:00', date: '2026-05-01T10:00:00', source: 'custom' }),
          tpl('t//d'),
        ]),
      ),
    );
    const items = (await client().templates.list()).items;
    expect(items.map((t) => t.modified)).toEqual([null, null, '2026-05-01T10:00:00', undefined]);
    expect(items[1]?.date).toBeNull();
  });

  it('still refuses a modified that is neither a string, null nor false', async () => {
    server.use(
      http.get(`${ROOT}/cms/v2/templates/t//a`, () => HttpResponse.json(tpl('t//a', { modified: true }))),
    );
    const error = await client()
      .templates.get('t//a')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocsSiteError);
    expect((error as DocsSiteError).code).toBe('invalid_response');
    expect((error as DocsSiteError).message).toContain('"modified"');
  });

  it('takes the [] that context=embed leaves of a raw-only content or title as an empty object', async () => {
    server.use(
      http.get(`${ROOT}/cms/v2/templates`, () =>
        HttpResponse.json([tpl('t//a', { content: [], title: { rendered: 'A' } })]),
      ),
      http.get(`${ROOT}/cms/v2/blocks/4`, () => HttpResponse.json({ id: 4, title: [], content: [] })),
    );
    const docs = client();
    expect((await docs.templates.list({ context: 'embed' })).items[0]?.content).toEqual({});
    expect((await docs.blocks.get(4, { context: 'embed' })).title).toEqual({});
  });

  it.each([
    ['revisions().list', (d: DocsSiteClient) => d.templates.revisions('t//index').list(), 'no revisions'],
    ['autosaves().list', (d: DocsSiteClient) => d.templates.autosaves('t//index').list(), 'no autosaves'],
    [
      'autosaves().create',
      (d: DocsSiteClient) => d.templates.autosaves('t//index').create({ content: 'x' }),
      'no autosaves',
    ],
    ['delete', (d: DocsSiteClient) => d.templates.delete('t//index', { force: true }), 'cannot be deleted'],
  ])('explains 400 rest_invalid_template of a theme-file template (%s)', async (_name, call, says) => {
    server.use(
      http.all(`${ROOT}/cms/v2/templates/*`, () =>
        wpError('rest_invalid_template', "Templates based on theme files can't have revisions.", 400),
      ),
    );
    const error = await call(client()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocsSiteError);
    const e = error as DocsSiteError;
    expect(e.code).toBe('rest_invalid_template');
    expect(e.status).toBe(400);
    expect(e.message).toContain("only the theme's file");
    expect(e.message).toContain(says);
    expect(e.message).toContain('customiz');
    expect(e.cause).toBeInstanceOf(DocsSiteError);
  });
});
