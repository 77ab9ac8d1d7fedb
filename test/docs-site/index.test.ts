import { describe, expect, it } from 'vitest';
import { DocsSiteError } from '../../src/docs-site.js';
import { BASE, client, HttpResponse, http, post, ROOT, useServer } from './helpers.js';

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

  it('refuses an index without namespaces', async () => {
    server.use(http.get(`${ROOT}/`, () => HttpResponse.json({ name: 'x' })));
    await expect(client().index()).rejects.toMatchObject({ code: 'invalid_response' });
  });
});

describe('connect()', () => {
  it('keeps cms/v2 when the index lists it', async () => {
    server.use(http.get(`${ROOT}/`, () => HttpResponse.json(index({ namespaces: ['wp/v2', 'cms/v2'] }))));
    const docs = await client({ contentNamespace: 'wp/v2' }).connect();
    expect(docs.contentNamespace).toBe('cms/v2');
  });

  it('picks wp/v2 on a stock WordPress and sends content requests there', async () => {
    server.use(
      http.get(`${ROOT}/`, () =>
        HttpResponse.json(index({ namespaces: ['oembed/1.0', 'wp/v2', 'wp-site-health/v1'] })),
      ),
      http.get(`${ROOT}/wp/v2/posts`, () => HttpResponse.json([post(1)])),
    );
    const base = client();
    const docs = await base.connect();
    expect(docs).not.toBe(base);
    expect(base.contentNamespace).toBe('cms/v2');
    expect(docs.contentNamespace).toBe('wp/v2');
    expect((await docs.posts.list()).items).toHaveLength(1);
    await expect(docs.batch([{ path: '/cms/v2/posts' }])).rejects.toMatchObject({ code: 'invalid_batch' });
  });

  it('fails with no_content_namespace when neither is advertised', async () => {
    server.use(http.get(`${ROOT}/`, () => HttpResponse.json(index({ namespaces: ['oembed/1.0'] }))));
    const error = await client()
      .connect()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocsSiteError);
    expect(error).toMatchObject({ code: 'no_content_namespace' });
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
