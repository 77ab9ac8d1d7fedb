import { describe, expect, it } from 'vitest';
import { DocsSiteClient, DocsSiteError } from '../../src/docs-site.js';
import { BASE, client, connect, HttpResponse, http, options, post, ROOT, useServer } from './helpers.js';

const server = useServer();

function index(extra: Record<string, unknown> = {}) {
  return {
    name: 'Docs',
    description: 'Documentation',
    url: BASE,
    home: BASE,
    gmt_offset: '0',
    timezone_string: '',
    page_for_posts: 0,
    page_on_front: 0,
    show_on_front: 'posts',
    namespaces: ['oembed/1.0', 'forms/v1', 'cms/v2', 'site-health/v1'],
    authentication: {
      'application-passwords': { endpoints: { authorization: `${BASE}/wp-admin/authorize-application.php` } },
    },
    routes: {
      '/': {
        namespace: '',
        methods: ['GET'],
        endpoints: [{ methods: ['GET'], args: { context: { default: 'view' } } }],
      },
      '/cms/v2/posts': {
        namespace: 'cms/v2',
        methods: ['GET', 'POST'],
        endpoints: [{ methods: ['GET'], args: [] }],
        allow_batch: { v1: true },
        _links: { self: [{ href: `${ROOT}/cms/v2/posts` }] },
      },
    },
    site_logo: 0,
    ...extra,
  };
}

describe('index()', () => {
  it('parses the index document, keeping unknown fields', async () => {
    let url: URL | undefined;
    server.use(
      http.get(`${ROOT}/`, ({ request }) => {
        url = new URL(request.url);
        return HttpResponse.json(index());
      }),
    );
    const doc = await client().index({ context: 'view' });
    expect(doc.namespaces).toContain('cms/v2');
    expect(doc.routes?.['/cms/v2/posts']?.endpoints[0]?.args).toEqual({});
    expect(doc.site_logo).toBe(0);
    expect(url?.pathname).toBe('/wp-json/');
    expect(url?.searchParams.get('context')).toBe('view');
  });

  it('accepts [] for authentication (no application passwords)', async () => {
    server.use(http.get(`${ROOT}/`, () => HttpResponse.json(index({ authentication: [] }))));
    const doc = await client().index();
    expect(doc.authentication).toEqual({});
  });

  it('says an index without namespaces is not the WordPress REST API (rest_api_not_found)', async () => {
    server.use(http.get(`${ROOT}/`, () => HttpResponse.json({ name: 'x' })));
    const error = await client()
      .index()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocsSiteError);
    expect(error).toMatchObject({ code: 'rest_api_not_found', status: 200 });
    expect((error as Error).message).toContain('"namespaces"');
  });
});

describe('DocsSiteClient.connect(options)', () => {
  it('is a static factory: reads the index and returns a ready client (cms/v2 when listed)', async () => {
    let reads = 0;
    server.use(
      http.get(`${ROOT}/`, () => {
        reads++;
        return HttpResponse.json(index({ namespaces: ['wp/v2', 'cms/v2'] }));
      }),
    );
    const docs = await DocsSiteClient.connect(options());
    expect(docs).toBeInstanceOf(DocsSiteClient);
    expect(docs.contentNamespace).toBe('cms/v2');
    expect(reads).toBe(1);
  });

  it('picks wp/v2 on a stock WordPress and sends content requests there', async () => {
    server.use(
      http.get(`${ROOT}/`, () =>
        HttpResponse.json(index({ namespaces: ['oembed/1.0', 'wp/v2', 'wp-site-health/v1'] })),
      ),
      http.get(`${ROOT}/wp/v2/posts`, () => HttpResponse.json([post(1)])),
    );
    const docs = await connect();
    expect(docs.contentNamespace).toBe('wp/v2');
    expect(docs.posts.collectionPath).toBe('/wp/v2/posts');
    expect((await docs.posts.list()).items).toHaveLength(1);
    await expect(docs.batch([{ path: '/cms/v2/posts' }])).rejects.toMatchObject({ code: 'invalid_batch' });
  });

  it('keeps a contentNamespace option the index confirms, and refuses one it does not list', async () => {
    server.use(http.get(`${ROOT}/`, () => HttpResponse.json(index({ namespaces: ['wp/v2', 'cms/v2'] }))));
    expect((await connect({ contentNamespace: 'wp/v2' })).contentNamespace).toBe('wp/v2');
    await expect(connect({ contentNamespace: 'docs/v3' })).rejects.toMatchObject({
      code: 'no_content_namespace',
      message: expect.stringContaining('docs/v3'),
    });
  });

  it('regression: an instance has no connect() that could silently keep the old namespace', () => {
    const docs = client();
    expect((docs as unknown as { connect?: unknown }).connect).toBeUndefined();
    expect(typeof DocsSiteClient.connect).toBe('function');
  });

  it('refuses bad options before any request (OptionsError)', async () => {
    await expect(DocsSiteClient.connect(options({ baseUrl: 'ftp://x' }))).rejects.toMatchObject({
      code: 'invalid_options',
    });
  });

  it('fails with no_content_namespace when neither is advertised', async () => {
    server.use(http.get(`${ROOT}/`, () => HttpResponse.json(index({ namespaces: ['oembed/1.0'] }))));
    const error = await connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocsSiteError);
    expect(error).toMatchObject({ code: 'no_content_namespace' });
  });
});

describe('a site that is not the WordPress REST API says what to check (rest_api_not_found)', () => {
  const html = (status: number) =>
    new HttpResponse('<!doctype html><title>Not found</title>', {
      status,
      headers: { 'content-type': 'text/html; charset=UTF-8' },
    });

  it('a wrong REST root: 404 with an HTML page names restRoot, ?rest_route= and the base URL', async () => {
    server.use(http.get(`${BASE}/api/`, () => html(404)));
    const error = (await connect({ restRoot: 'api' }).catch((e: unknown) => e)) as DocsSiteError;
    expect(error).toBeInstanceOf(DocsSiteError);
    expect(error.code).toBe('rest_api_not_found');
    expect(error.status).toBe(404);
    expect(error.message).toContain('404 with an HTML page');
    expect(error.message).toContain(`${BASE}/api/`);
    expect(error.message).toContain('restRoot');
    expect(error.message).toContain('wp-json');
    expect(error.message).toContain('?rest_route=');
    expect(error.message).toContain(`baseUrl (${BASE})`);
    expect(error.message).toContain('runs WordPress');
  });

  it('a site that is not WordPress: 200 with an HTML page (a catch-all front page)', async () => {
    server.use(http.get(`${ROOT}/`, () => html(200)));
    await expect(connect()).rejects.toMatchObject({ code: 'rest_api_not_found', status: 200 });
  });

  it('a 404 without any WordPress error body on a content route', async () => {
    server.use(http.get(`${ROOT}/cms/v2/posts/1`, () => new HttpResponse(null, { status: 404 })));
    const error = (await client()
      .posts.get(1)
      .catch((e: unknown) => e)) as DocsSiteError;
    expect(error.code).toBe('rest_api_not_found');
    expect(error.message).toContain('no WordPress error');
  });

  it("routeStyle 'query': names the ?rest_route= address that was tried", async () => {
    server.use(http.get(`${BASE}/`, () => html(200)));
    const error = (await connect({ routeStyle: 'query' }).catch((e: unknown) => e)) as DocsSiteError;
    expect(error.code).toBe('rest_api_not_found');
    expect(error.message).toContain(`${BASE}/?rest_route=/`);
  });

  it("a WordPress 404 (rest_no_route) stays the site's own error", async () => {
    server.use(
      http.get(`${ROOT}/cms/v2/posts`, () =>
        HttpResponse.json(
          { code: 'rest_no_route', message: 'No route', data: { status: 404 } },
          { status: 404 },
        ),
      ),
    );
    await expect(client().posts.list()).rejects.toMatchObject({ code: 'rest_no_route', status: 404 });
  });
});

describe('authorizationUrl()', () => {
  it('builds the authorization page URL from the index', async () => {
    server.use(http.get(`${ROOT}/`, () => HttpResponse.json(index())));
    const href = await client().authorizationUrl({
      appName: 'Merchant sync',
      appId: '6f1c7c1e-8a9b-4c3d-9e2f-0a1b2c3d4e5f',
      successUrl: 'https://shop.example/done',
      rejectUrl: 'https://shop.example/no',
    });
    const url = new URL(href);
    expect(url.origin + url.pathname).toBe(`${BASE}/wp-admin/authorize-application.php`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      app_name: 'Merchant sync',
      app_id: '6f1c7c1e-8a9b-4c3d-9e2f-0a1b2c3d4e5f',
      success_url: 'https://shop.example/done',
      reject_url: 'https://shop.example/no',
    });
  });

  it('fails clearly when the site advertises no application passwords ([])', async () => {
    server.use(http.get(`${ROOT}/`, () => HttpResponse.json(index({ authentication: [] }))));
    await expect(client().authorizationUrl({ appName: 'x' })).rejects.toMatchObject({
      code: 'application_passwords_unavailable',
    });
  });

  it.each([
    [{ appName: '' }, 'appName'],
    [{ appName: 'x', appId: 'not-a-uuid' }, 'appId'],
    [{ appName: 'x', successUrl: 'javascript:alert(1)' }, 'successUrl'],
    [{ appName: 'x', rejectUrl: '/relative' }, 'rejectUrl'],
  ])('refuses %o before any request', async (options, param) => {
    await expect(client().authorizationUrl(options)).rejects.toMatchObject({ code: 'invalid_param', param });
  });
});

describe('namespaceRoot()', () => {
  it('reads a plugin namespace root with namespace and context', async () => {
    let url: URL | undefined;
    server.use(
      http.get(`${ROOT}/kb-ai-search/v1`, ({ request }) => {
        url = new URL(request.url);
        return HttpResponse.json({
          namespace: 'kb-ai-search/v1',
          routes: {
            '/kb-ai-search/v1/status': {
              namespace: 'kb-ai-search/v1',
              methods: ['GET'],
              endpoints: [{ methods: ['GET'], args: [] }],
            },
          },
        });
      }),
    );
    const root = await client().namespaceRoot('kb-ai-search/v1', { context: 'embed' });
    expect(root.namespace).toBe('kb-ai-search/v1');
    expect(Object.keys(root.routes ?? {})).toEqual(['/kb-ai-search/v1/status']);
    expect(url?.searchParams.get('namespace')).toBe('kb-ai-search/v1');
    expect(url?.searchParams.get('context')).toBe('embed');
  });

  it('reads a namespace with no routes (oauth_idp_intiate spelling kept)', async () => {
    server.use(
      http.get(`${ROOT}/oauth_idp_intiate`, () =>
        HttpResponse.json({ namespace: 'oauth_idp_intiate', routes: [] }),
      ),
    );
    expect(await client().namespaceRoot('oauth_idp_intiate')).toMatchObject({ routes: {} });
  });
});
