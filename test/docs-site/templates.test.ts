import { describe, expect, it } from 'vitest';
import { client, HttpResponse, http, ROOT, record, type Seen, useServer } from './helpers.js';

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

  it('reaches revisions and autosaves with the string id as parent', async () => {
    const urls: string[] = [];
    server.use(
      http.get(`${ROOT}/cms/v2/templates/*`, ({ request }) => {
        urls.push(new URL(request.url).pathname);
        return HttpResponse.json(
          request.url.includes('/revisions/') || request.url.includes('/autosaves/')
            ? { id: 5, parent: 't//home' }
            : [{ id: 5, parent: 't//home' }],
        );
      }),
      http.delete(`${ROOT}/cms/v2/template-parts/*`, ({ request }) => {
        urls.push(`${new URL(request.url).pathname}?${new URL(request.url).search}`);
        return HttpResponse.json({ deleted: true, previous: { id: 6, parent: 't//header' } });
      }),
    );
    const docs = client();
    expect((await docs.templates.revisions('t//home').list()).items[0]?.parent).toBe('t//home');
    await docs.templates.revisions('t//home').get(5);
    await docs.templates.autosaves('t//home').list();
    await docs.templates.autosaves('t//home').get(5);
    const removed = await docs.templateParts.revisions('t//header').delete(6, { force: true });
    expect(removed).toMatchObject({ deleted: true, item: { id: 6 } });
    expect(urls).toEqual([
      '/wp-json/cms/v2/templates/t//home/revisions',
      '/wp-json/cms/v2/templates/t//home/revisions/5',
      '/wp-json/cms/v2/templates/t//home/autosaves',
      '/wp-json/cms/v2/templates/t//home/autosaves/5',
      '/wp-json/cms/v2/template-parts/t//header/revisions/6??force=true',
    ]);
  });
});
