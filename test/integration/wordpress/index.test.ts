import { describe, expect, it } from 'vitest';
import { DocsSiteClient, DocsSiteError } from '../../../src/docs-site.js';
import { atLeast, makeClient, site, uniqueToken } from './helpers.js';

describe('the index of a stock WordPress', () => {
  it('is read into the typed index document, empty objects included', async () => {
    const index = await makeClient().index();
    expect(index.namespaces).toEqual(expect.arrayContaining(['oembed/1.0', 'wp/v2']));
    expect(index.namespaces).not.toContain('cms/v2');
    expect(index.url).toBe(site.baseUrl);
    expect(index.routes?.['/wp/v2/posts']).toBeDefined();
    expect(index.routes?.['/batch/v1']).toBeDefined();
  });

  it('DocsSiteClient.connect() picks wp/v2, the namespace the site advertises, and the client works', async () => {
    const options = {
      baseUrl: `${site.baseUrl}/`,
      restRoot: site.restRoot,
      auth: { username: site.username, applicationPassword: site.applicationPassword },
    };
    const configured = new DocsSiteClient(options);
    expect(configured.contentNamespace).toBe('cms/v2');
    // Without connect(), the default namespace does not exist on WordPress.
    const missing = await configured.posts.list().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(missing).toBeInstanceOf(DocsSiteError);
    expect((missing as DocsSiteError).status).toBe(404);
    expect((missing as DocsSiteError).code).toBe('rest_no_route');

    const docs = await DocsSiteClient.connect(options);
    expect(docs.contentNamespace).toBe('wp/v2');
    const post = await docs.posts.create({ title: uniqueToken('connect'), status: 'draft' });
    expect(post.id).toBeGreaterThan(0);
    // The batch limit is learned from the index.
    expect(docs.batchMaxItems).toBe(25);
    await docs.posts.delete(post.id, { force: true });
  });

  it('a wrong REST root or a page that is not the REST API: rest_api_not_found says what to check', async () => {
    const wrongRoot = await DocsSiteClient.connect({ baseUrl: site.baseUrl, restRoot: 'api' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(wrongRoot).toBeInstanceOf(DocsSiteError);
    expect(wrongRoot).toMatchObject({ code: 'rest_api_not_found', status: 404 });
    expect((wrongRoot as Error).message).toContain('restRoot');
    // A base address below which WordPress does not live: its 404 page (HTML), not a REST error.
    const wrongBase = await DocsSiteClient.connect({ baseUrl: `${site.baseUrl}/blog` }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(wrongBase).toMatchObject({ code: 'rest_api_not_found', status: 404 });
    expect((wrongBase as Error).message).toContain('an HTML page');
    // The same site through ?rest_route= works: every WordPress answers it.
    const query = await DocsSiteClient.connect({ baseUrl: site.baseUrl, routeStyle: 'query' });
    expect(query.contentNamespace).toBe('wp/v2');
  });

  it('builds the authorization-page URL the index advertises', async () => {
    const url = new URL(
      await makeClient().authorizationUrl({
        appName: 'Integration tests',
        appId: '0b5e3a52-3b7a-4c1e-9a53-5d8b1f0f4c11',
        successUrl: 'https://merchant.example/approved',
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe(`${site.baseUrl}/wp-admin/authorize-application.php`);
    expect(url.searchParams.get('app_name')).toBe('Integration tests');
    expect(url.searchParams.get('success_url')).toBe('https://merchant.example/approved');
    // The page exists on the site (it redirects an anonymous visitor to the login page).
    const page = await fetch(url, { redirect: 'manual' });
    expect([200, 302]).toContain(page.status);
  });

  it('reads a namespace root', async () => {
    const root = await makeClient().namespaceRoot('oembed/1.0');
    expect(root.namespace).toBe('oembed/1.0');
    expect(Object.keys(root.routes ?? {})).toEqual(expect.arrayContaining(['/oembed/1.0/embed']));
  });

  it.skipIf(!atLeast('6.9'))(
    'reaches the abilities namespace (abilities/v1 on the service, wp-abilities/v1 on WordPress 6.9+) through request() after its index (skipped before 6.9, which has none)',
    async () => {
      const docs = makeClient();
      const { namespaces } = await docs.index();
      const ns = namespaces.find((n) => n === 'abilities/v1' || n === 'wp-abilities/v1');
      expect(ns).toBe('wp-abilities/v1');
      const root = await docs.namespaceRoot(ns!);
      expect(Object.keys(root.routes ?? {})).toEqual(
        expect.arrayContaining([`/${ns}/abilities`, `/${ns}/categories`]),
      );
      const listed = await docs.request('GET', `/${ns}/abilities`);
      const names = (listed.body as { name: string }[]).map((a) => a.name);
      expect(names).toContain('core/get-site-info');
      // A read-only ability runs with GET, its input PHP-style in the query.
      const run = await docs.request('GET', `/${ns}/abilities/core/get-site-info/run`, {
        query: { input: { fields: ['name'] } },
      });
      expect(run.body).toEqual({ name: 'Docs site (integration tests)' });
      // Anonymous: the namespace refuses (401), the client says so with the server's code.
      const anonymous = await makeClient({ anonymous: true })
        .request('GET', `/${ns}/abilities`)
        .catch((e: unknown) => e);
      expect(anonymous).toBeInstanceOf(DocsSiteError);
      expect(anonymous).toMatchObject({ status: 401, code: 'rest_forbidden' });
    },
  );
});
