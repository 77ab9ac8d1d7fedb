/**
 * Rules of spec/docs-site-rest.md whose existing tests only covered the refusing side: these pin
 * the accepting side at the documented bounds, so a check made stricter than the spec fails here.
 */
import { describe, expect, it } from 'vitest';
import { client, HttpResponse, http, ROOT, useServer } from '../docs-site/helpers.js';

const server = useServer();

/** Record the URL of every GET on a content collection. */
function recordLists(): URL[] {
  const urls: URL[] = [];
  server.use(
    http.get(`${ROOT}/cms/v2/:kind`, ({ request }) => {
      urls.push(new URL(request.url));
      return HttpResponse.json([]);
    }),
  );
  return urls;
}

const LISTING_STATUSES = [
  'publish',
  'future',
  'draft',
  'pending',
  'private',
  'trash',
  'auto-draft',
  'inherit',
  'request-pending',
  'request-confirmed',
  'request-failed',
  'request-completed',
  'any',
] as const;

describe('docs-site spec 3 / 4.7: listing status values', () => {
  it('spec 3: a listing accepts every listing status value (the five content states, trash, auto-draft, inherit, request-*, any) and sends them all', async () => {
    const urls = recordLists();
    await client().posts.list({ status: [...LISTING_STATUSES] });
    expect(urls[0]?.searchParams.getAll('status[]')).toEqual([...LISTING_STATUSES]);
  });

  it.each(LISTING_STATUSES)('spec 3: status %s alone is accepted on every content kind', async (status) => {
    const urls = recordLists();
    const docs = client();
    await docs.posts.list({ status: [status] });
    await docs.pages.list({ status: [status] });
    await docs.media.list({ status: [status] });
    await docs.menuItems.list({ status: [status] });
    await docs.blocks.list({ status: [status] });
    expect(urls.map((u) => u.searchParams.getAll('status[]'))).toEqual(Array(5).fill([status]));
  });
});

describe('docs-site spec 4.7 / 8: per_page 1 to 100, page >= 1', () => {
  it.each([1, 100])('spec 8: per_page %i is accepted on every content kind and sent as given', async (n) => {
    const urls = recordLists();
    const docs = client();
    await docs.posts.list({ per_page: n, page: 1 });
    await docs.pages.list({ per_page: n });
    await docs.media.list({ per_page: n });
    await docs.menuItems.list({ per_page: n });
    await docs.blocks.list({ per_page: n });
    expect(urls.map((u) => u.searchParams.get('per_page'))).toEqual(Array(5).fill(String(n)));
    expect(urls[0]?.searchParams.get('page')).toBe('1');
  });
});

describe('docs-site spec 4.7: shared list parameter enums, every documented value accepted', () => {
  const ORDERBY = [
    'author',
    'date',
    'id',
    'include',
    'modified',
    'parent',
    'relevance',
    'slug',
    'include_slugs',
    'title',
  ] as const;

  it('spec 4.7: orderby takes each of the ten shared values on posts, pages, media, menu items and blocks', async () => {
    const urls = recordLists();
    const docs = client();
    for (const orderby of ORDERBY) {
      await docs.posts.list({ orderby });
      await docs.pages.list({ orderby });
      await docs.media.list({ orderby });
      await docs.menuItems.list({ orderby });
      await docs.blocks.list({ orderby });
    }
    expect(urls.map((u) => u.searchParams.get('orderby'))).toEqual(ORDERBY.flatMap((o) => Array(5).fill(o)));
  });

  it('spec 4.7: context view, embed and edit; order asc and desc; all three search_columns; search_semantics exact', async () => {
    const urls = recordLists();
    const docs = client();
    for (const context of ['view', 'embed', 'edit'] as const) await docs.pages.list({ context });
    for (const order of ['asc', 'desc'] as const) await docs.blocks.list({ order });
    await docs.posts.list({
      search: 'x',
      search_columns: ['post_title', 'post_content', 'post_excerpt'],
      search_semantics: 'exact',
    });
    expect(urls.slice(0, 3).map((u) => u.searchParams.get('context'))).toEqual(['view', 'embed', 'edit']);
    expect(urls.slice(3, 5).map((u) => u.searchParams.get('order'))).toEqual(['asc', 'desc']);
    expect(urls[5]?.searchParams.getAll('search_columns[]')).toEqual([
      'post_title',
      'post_content',
      'post_excerpt',
    ]);
    expect(urls[5]?.searchParams.get('search_semantics')).toBe('exact');
  });

  it('spec 4.7: media_type takes image, video, text, application and audio', async () => {
    const urls = recordLists();
    const types = ['image', 'video', 'text', 'application', 'audio'] as const;
    await client().media.list({ media_type: [...types] });
    expect(urls[0]?.searchParams.getAll('media_type[]')).toEqual([...types]);
  });
});

describe('docs-site spec 4.7: media edit modifiers at their bounds', () => {
  it('spec 4.7: crop percentages 0 and 100, rotate any number of degrees, flip both booleans; deprecated rotation 1, x/y/width/height 0 and 100', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(`${ROOT}/cms/v2/media/:id/edit`, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ id: 9, type: 'attachment', title: { rendered: 'x' }, _links: {} });
      }),
    );
    const src = 'https://docs.example.org/a.png';
    const modifiers = [
      { type: 'crop' as const, args: { left: 0, top: 0, width: 100, height: 100 } },
      { type: 'rotate' as const, args: { angle: -90.5 } },
      { type: 'flip' as const, args: { flip: { horizontal: false, vertical: true } } },
    ];
    const docs = client();
    await docs.media.edit(5, { src, modifiers });
    await docs.media.edit(5, { src, rotation: 1, x: 0, y: 0, width: 100, height: 100 });
    expect(bodies[0]).toEqual({ src, modifiers });
    expect(bodies[1]).toEqual({ src, rotation: 1, x: 0, y: 0, width: 100, height: 100 });
  });
});

describe('docs-site spec 2: menu item fields at their bounds', () => {
  it('spec 2: parent 0, object_id 0, menu_order 1 and target "" are accepted', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(`${ROOT}/cms/v2/menu-items`, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(
          { id: 3, title: { rendered: 'x' }, status: 'publish', type: 'custom', _links: {} },
          { status: 201 },
        );
      }),
    );
    const body = { title: 'Home', parent: 0, object_id: 0, menu_order: 1, target: '' as const };
    await client().menuItems.create(body);
    expect(bodies).toEqual([body]);
  });
});

describe('docs-site spec 4.3 / 4.4 / 4.5: route method lists of the plugin namespaces', () => {
  type Call = (docs: ReturnType<typeof client>, method: 'POST' | 'PUT' | 'PATCH') => Promise<unknown>;
  const routes: [string, string, Call][] = [
    [
      '/forms/v1/contact-forms/3',
      'forms.update',
      (d, method) => d.forms.update(3, { title: 'x' }, { method }),
    ],
    [
      '/kb-ai-search/v1/cleartrainingdata',
      'kbAiSearch.clearTrainingData',
      (d, method) => d.kbAiSearch.clearTrainingData({}, { method }),
    ],
    ['/kb-settings/v1/update', 'kbSettings.update', (d, method) => d.kbSettings.update({}, { method })],
    ['/kb-settings/v1/tabget', 'kbSettings.tabGet', (d, method) => d.kbSettings.tabGet({}, { method })],
    ['/kb-settings/v1/tabset', 'kbSettings.tabSet', (d, method) => d.kbSettings.tabSet({}, { method })],
    [
      '/kb-notifications/v1/dismiss',
      'kbNotifications.dismiss',
      (d, method) => d.kbNotifications.dismiss('all', { method }),
    ],
  ];

  it.each(routes)('spec 4: %s takes POST, PUT and PATCH (%s)', async (path, _name, call) => {
    const seen: string[] = [];
    server.use(
      http.all(`${ROOT}${path}`, ({ request }) => {
        seen.push(request.method);
        return HttpResponse.json({ ok: true });
      }),
    );
    const docs = client();
    for (const method of ['POST', 'PUT', 'PATCH'] as const) await call(docs, method);
    expect(seen).toEqual(['POST', 'PUT', 'PATCH']);
  });

  it.each(routes)('spec 4: %s refuses GET and DELETE before sending (%s)', async (_path, _name, call) => {
    for (const method of ['GET', 'DELETE']) {
      // No handler: a request that left would be an msw error, not invalid_param. The check may
      // throw before a promise exists, so both ways of failing are caught.
      const error = await (async () => call(client(), method as 'POST'))().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: 'invalid_param', param: 'method' });
    }
  });
});

describe("docs-site spec 4.2 / 8: oEmbed defaults are the site's", () => {
  it('spec 4.2: embed and proxy send only url when nothing else is given (format json, maxwidth 600, discover true are left to the site)', async () => {
    const urls: URL[] = [];
    server.use(
      http.get(`${ROOT}/oembed/1.0/:route`, ({ request }) => {
        urls.push(new URL(request.url));
        return HttpResponse.json({ version: '1.0', type: 'rich', html: '<p>x</p>' });
      }),
    );
    const docs = client();
    await docs.oembed.embed({ url: 'https://docs.example.org/page' });
    await docs.oembed.proxy({ url: 'https://video.example/v/1' });
    expect(urls.map((u) => [u.pathname, [...u.searchParams.keys()]])).toEqual([
      ['/wp-json/oembed/1.0/embed', ['url']],
      ['/wp-json/oembed/1.0/proxy', ['url']],
    ]);
  });
});

describe('docs-site spec 2 / 4.7: template-part area and template list filters', () => {
  it('spec 2: a template part is created with its area; spec 4.7: templates list by wp_id, area and post_type', async () => {
    const seen: { method: string; url: URL; body: unknown }[] = [];
    const part = {
      id: 'theme//header',
      slug: 'header',
      theme: 'theme',
      type: 'wp_template_part',
      area: 'header',
      content: { raw: '' },
      title: { raw: 'Header', rendered: 'Header' },
    };
    server.use(
      http.all(`${ROOT}/cms/v2/template-parts`, async ({ request }) => {
        const body = request.method === 'POST' ? await request.json() : undefined;
        seen.push({ method: request.method, url: new URL(request.url), body });
        return request.method === 'POST'
          ? HttpResponse.json(part, { status: 201 })
          : HttpResponse.json([part]);
      }),
    );
    const docs = client();
    await docs.templateParts.create({ slug: 'header', area: 'header', title: 'Header' });
    await docs.templateParts.list({ wp_id: 12, area: 'header', post_type: 'page' });
    expect(seen[0]).toMatchObject({
      method: 'POST',
      body: { slug: 'header', area: 'header', title: 'Header' },
    });
    expect(Object.fromEntries(seen[1]?.url.searchParams ?? [])).toEqual({
      wp_id: '12',
      area: 'header',
      post_type: 'page',
    });
  });
});

describe('docs-site spec 2: index document field types', () => {
  const good = {
    name: 'Docs',
    page_for_posts: 0,
    page_on_front: 2,
    namespaces: ['cms/v2'],
    routes: { '/cms/v2/posts': { namespace: 'cms/v2', methods: ['GET', 'POST'], endpoints: [] } },
  };

  it.each([
    ['page_on_front not an integer', { page_on_front: '2' }],
    ['page_for_posts a fraction', { page_for_posts: 1.5 }],
    ['namespaces not an array of strings', { namespaces: [1] }],
    ['name not a string', { name: 7 }],
    ['a route without its methods', { routes: { '/cms/v2/posts': { namespace: 'cms/v2', endpoints: [] } } }],
    [
      'application-passwords authorization not a string',
      { authentication: { 'application-passwords': { endpoints: { authorization: 5 } } } },
    ],
  ])('spec 2: an index with %s is refused as invalid_response', async (_name, extra) => {
    server.use(http.get(`${ROOT}/`, () => HttpResponse.json({ ...good, ...extra })));
    await expect(client().index()).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it('spec 2: the documented fields are read with their types', async () => {
    server.use(http.get(`${ROOT}/`, () => HttpResponse.json(good)));
    const doc = await client().index();
    expect(doc).toMatchObject({ page_for_posts: 0, page_on_front: 2, namespaces: ['cms/v2'] });
    expect(doc.routes?.['/cms/v2/posts']?.methods).toEqual(['GET', 'POST']);
  });
});
