import { describe, expect, it } from 'vitest';
import { DocsSiteClient, DocsSiteError, OptionsError, TransportError } from '../../src/docs-site.js';
import {
  BASE,
  client,
  connect,
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

describe('options', () => {
  it.each([
    ['no baseUrl', {}, 'baseUrl'],
    ['a relative baseUrl', { baseUrl: '/docs' }, 'baseUrl'],
    ['an ftp baseUrl', { baseUrl: 'ftp://docs.example.org' }, 'baseUrl'],
    ['credentials in baseUrl', { baseUrl: 'https://u:p@docs.example.org' }, 'baseUrl'],
    ['a query in baseUrl', { baseUrl: 'https://docs.example.org/?x=1' }, 'baseUrl'],
    ['a bad restRoot', { baseUrl: BASE, restRoot: '../admin' }, 'restRoot'],
    ['a bad contentNamespace', { baseUrl: BASE, contentNamespace: 'posts' }, 'contentNamespace'],
    [
      'an empty username',
      { baseUrl: BASE, auth: { username: '', applicationPassword: 'x y' } },
      'auth.username',
    ],
    [
      'an empty password',
      { baseUrl: BASE, auth: { username: 'a', applicationPassword: ' ' } },
      'auth.applicationPassword',
    ],
    [
      'credentials over http to a remote host',
      { baseUrl: 'http://docs.example.org', auth: { username: 'a', applicationPassword: PASSWORD } },
      'https',
    ],
    ['a negative timeout', { baseUrl: BASE, timeoutMs: -1 }, 'timeoutMs'],
    ['fractional retries', { baseUrl: BASE, retries: 1.5 }, 'retries'],
    ['a fetch that is not a function', { baseUrl: BASE, fetch: 'fetch' }, 'fetch'],
  ])('refuses %s, naming the option', (_name, options, word) => {
    expect(() => new DocsSiteClient(options as never)).toThrow(OptionsError);
    expect(() => new DocsSiteClient(options as never)).toThrow(word);
  });

  it('accepts http with credentials on loopback, and never puts the password in a message', () => {
    expect(
      () =>
        new DocsSiteClient({
          baseUrl: 'http://127.0.0.1:8080',
          auth: { username: 'a', applicationPassword: PASSWORD },
        }),
    ).not.toThrow();
    let refused: unknown;
    expect(() => {
      try {
        new DocsSiteClient({
          baseUrl: 'http://docs.example.org',
          auth: { username: 'a', applicationPassword: PASSWORD },
        });
      } catch (error) {
        refused = error;
        throw error;
      }
    }).toThrow(OptionsError);
    expect((refused as Error).message).toContain('https');
    expect((refused as Error).message).not.toContain('abcd');
  });

  it('is immutable; extend() returns a new client', async () => {
    const docs = client();
    expect(Object.isFrozen(docs)).toBe(true);
    expect(() => {
      (docs as { contentNamespace: string }).contentNamespace = 'wp/v2';
    }).toThrow(TypeError);
    const wp = docs.extend({ contentNamespace: 'wp/v2' });
    expect(wp).not.toBe(docs);
    expect(docs.contentNamespace).toBe('cms/v2');
    expect(wp.posts.collectionPath).toBe('/wp/v2/posts');
  });

  it('builds routes under {baseUrl}/{restRoot}, in a sub-directory and with a custom root', async () => {
    const urls: string[] = [];
    server.use(
      http.get('https://example.org/docs/api/cms/v2/posts/1', ({ request }) => {
        urls.push(request.url);
        return HttpResponse.json(post(1));
      }),
    );
    const docs = client({ baseUrl: 'https://example.org/docs/', restRoot: '/api/' });
    await docs.posts.get(1);
    expect(urls).toEqual(['https://example.org/docs/api/cms/v2/posts/1']);
  });
});

describe("routeStyle 'query' (?rest_route=)", () => {
  it('addresses every route through ?rest_route=, keeping // and escaping query characters', async () => {
    const seen: URL[] = [];
    server.use(
      http.all('https://example.org/docs/', ({ request }) => {
        seen.push(new URL(request.url));
        const route = new URL(request.url).searchParams.get('rest_route') ?? '';
        if (route === '/') return HttpResponse.json({ namespaces: ['wp/v2'] });
        if (route.startsWith('/wp/v2/templates/')) return HttpResponse.json({ id: 't//home' });
        return HttpResponse.json([post(1)], { headers: { 'X-WP-Total': '1', 'X-WP-TotalPages': '1' } });
      }),
    );
    const docs = await connect({ baseUrl: 'https://example.org/docs', routeStyle: 'query' });
    await docs.posts.list({ per_page: 5, status: ['draft'] });
    await docs.templates.get('t//home');
    await docs.request('GET', '/wp/v2/a+b&c=d?x[]=1');
    expect(seen.map((u) => u.searchParams.get('rest_route'))).toEqual([
      '/',
      '/wp/v2/posts',
      '/wp/v2/templates/t//home',
      '/wp/v2/a+b&c=d',
    ]);
    expect(seen[1]?.searchParams.get('per_page')).toBe('5');
    expect(seen[1]?.searchParams.getAll('status[]')).toEqual(['draft']);
    expect(seen[3]?.search).toBe('?rest_route=/wp/v2/a%2Bb%26c%3Dd&x[]=1');
  });

  it('refuses an unknown routeStyle', () => {
    expect(() => client({ routeStyle: 'hash' as never })).toThrow(OptionsError);
  });
});

describe('answers that are not what the interface documents', () => {
  it('turns a non-JSON success into invalid_response, keeping the parse error as cause', async () => {
    server.use(http.get(`${ROOT}/cms/v2/posts/1`, () => new HttpResponse('{"id": 1,', { status: 200 })));
    const error = (await client()
      .posts.get(1)
      .catch((e: unknown) => e)) as DocsSiteError;
    expect(error).toMatchObject({ code: 'invalid_response', status: 200 });
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it('turns an HTML page on a success status into rest_api_not_found (not the REST API)', async () => {
    server.use(
      http.get(`${ROOT}/cms/v2/posts/1`, () => new HttpResponse('<html>maintenance</html>', { status: 200 })),
    );
    await expect(client().posts.get(1)).rejects.toMatchObject({ code: 'rest_api_not_found', status: 200 });
  });

  it('turns a JSON answer of the wrong shape into invalid_response naming the field', async () => {
    server.use(http.get(`${ROOT}/cms/v2/posts/1`, () => HttpResponse.json({ id: 'one' })));
    const error = (await client()
      .posts.get(1)
      .catch((e: unknown) => e)) as DocsSiteError;
    expect(error).toBeInstanceOf(DocsSiteError);
    expect(error.code).toBe('invalid_response');
    expect(error.message).toContain('"id"');
  });

  it('turns a non-JSON error into http_error with the status', async () => {
    server.use(http.get(`${ROOT}/cms/v2/posts/1`, () => new HttpResponse('Bad Gateway', { status: 500 })));
    await expect(client().posts.get(1)).rejects.toMatchObject({ code: 'http_error', status: 500 });
  });

  it('refuses a create answered by a list (a redirected POST that became a GET)', async () => {
    server.use(http.post(`${ROOT}/cms/v2/posts`, () => HttpResponse.json([post(1)], { status: 200 })));
    await expect(client().posts.create({ title: 'x' })).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it('does not follow a redirect of a write', async () => {
    let gets = 0;
    server.use(
      http.post(
        `${ROOT}/cms/v2/posts`,
        () => new HttpResponse(null, { status: 301, headers: { Location: `${ROOT}/cms/v2/other` } }),
      ),
      http.get(`${ROOT}/cms/v2/other`, () => {
        gets++;
        return HttpResponse.json([]);
      }),
    );
    await expect(client().posts.create({ title: 'x' })).rejects.toMatchObject({
      code: 'unexpected_redirect',
      status: 301,
    });
    expect(gets).toBe(0);
  });

  it('accepts [] for empty objects (meta) and keeps unknown fields', async () => {
    server.use(
      http.get(`${ROOT}/cms/v2/posts/1`, () =>
        HttpResponse.json(post(1, { meta: [], plugin_field: { a: 1 } })),
      ),
    );
    const p = await client().posts.get(1);
    expect(p.meta).toEqual({});
    expect(p.plugin_field).toEqual({ a: 1 });
  });
});

describe('credentials', () => {
  it('reports a 401 on a write with credentials as credentials_refused, keeping the server code', async () => {
    server.use(
      http.post(`${ROOT}/cms/v2/posts`, () =>
        wpError('rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.', 401),
      ),
    );
    const error = (await client()
      .posts.create({ title: 'x' })
      .catch((e: unknown) => e)) as DocsSiteError;
    expect(error).toBeInstanceOf(DocsSiteError);
    expect(error).toMatchObject({
      code: 'credentials_refused',
      serverCode: 'rest_cannot_create',
      status: 401,
    });
    expect(error.message).toContain('refused the credentials');
    expect(error.message).toContain(USER);
  });

  it('keeps the server code for a 401 without credentials (anonymous)', async () => {
    server.use(
      http.post(`${ROOT}/cms/v2/posts`, () =>
        wpError('rest_cannot_create', 'Sorry, you are not allowed.', 401),
      ),
    );
    await expect(client({ auth: undefined }).posts.create({ title: 'x' })).rejects.toMatchObject({
      code: 'rest_cannot_create',
      status: 401,
    });
  });

  it('says a 403 with credentials may be a permission or a refused credential', async () => {
    server.use(
      http.delete(`${ROOT}/cms/v2/posts/1`, () => wpError('rest_cannot_delete', 'Not allowed.', 403)),
    );
    const error = (await client()
      .posts.delete(1)
      .catch((e: unknown) => e)) as DocsSiteError;
    expect(error).toMatchObject({ code: 'rest_cannot_delete', status: 403 });
    expect(error.message).toContain('not allowed');
  });

  it('never shows the application password in errors, data or logs', async () => {
    const spaced = PASSWORD;
    const compact = PASSWORD.replace(/ /g, '');
    const token = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
    const lines: string[] = [];
    const logger = {
      debug: (m: string, f?: Record<string, unknown>) => lines.push(m + JSON.stringify(f)),
      info: (m: string, f?: Record<string, unknown>) => lines.push(m + JSON.stringify(f)),
    };
    server.use(
      // A server that echoes the credentials back in its error.
      http.get(`${ROOT}/cms/v2/posts/1`, ({ request }) =>
        wpError('echo', `you sent ${request.headers.get('authorization')} / ${compact} / ${spaced}`, 400, {
          password: spaced,
          header: `Basic ${token}`,
        }),
      ),
    );
    const error = (await client({ logger })
      .posts.get(1)
      .catch((e: unknown) => e)) as DocsSiteError;
    const dump = `${error.message} ${JSON.stringify(error.data)} ${String(error.stack)} ${lines.join('\n')}`;
    expect(error.code).toBe('echo');
    for (const secret of [spaced, compact, token, 'EFGH', 'MNOP']) expect(dump).not.toContain(secret);
    expect(lines.length).toBeGreaterThan(0);
  });
});

describe('inspecting a client', () => {
  it('never shows the credentials (util.inspect, JSON)', async () => {
    const { inspect } = await import('node:util');
    const docs = client();
    const token = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
    const shown = `${inspect(docs, { depth: 20, showHidden: true })} ${JSON.stringify(docs)}`;
    expect(shown).toContain('docs.example.org');
    for (const secret of [PASSWORD, PASSWORD.replace(/ /g, ''), token, 'EFGH'])
      expect(shown).not.toContain(secret);
  });
});

describe('retries through the shared HTTP layer', () => {
  it('honours Retry-After on a GET', async () => {
    let calls = 0;
    server.use(
      http.get(`${ROOT}/cms/v2/posts/1`, () => {
        calls++;
        return calls === 1
          ? new HttpResponse('slow down', { status: 429, headers: { 'Retry-After': '1' } })
          : HttpResponse.json(post(1));
      }),
    );
    const waits: unknown[] = [];
    const logger = {
      debug: (m: string, f?: Record<string, unknown>) => m === 'retrying request' && waits.push(f?.waitMs),
    };
    const p = await client({ retries: 2, logger }).posts.get(1);
    expect(p.id).toBe(1);
    expect(calls).toBe(2);
    expect(waits).toEqual([1000]);
  });

  it('never retries a POST, even on 503', async () => {
    const seen: Seen[] = [];
    server.use(
      http.post(`${ROOT}/cms/v2/posts`, async ({ request }) => {
        await record(request, seen);
        return new HttpResponse('busy', { status: 503, headers: { 'Retry-After': '0' } });
      }),
    );
    await expect(client({ retries: 3 }).posts.create({ title: 'x' })).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(1);
  });

  it('gives up after timeoutMs with a TransportError', async () => {
    server.use(
      http.get(`${ROOT}/cms/v2/posts/1`, async () => {
        await new Promise((r) => setTimeout(r, 500));
        return HttpResponse.json(post(1));
      }),
    );
    await expect(client({ timeoutMs: 50 }).posts.get(1)).rejects.toMatchObject({ code: 'timeout' });
  });

  it('surfaces a network failure as a TransportError', async () => {
    server.use(http.get(`${ROOT}/cms/v2/posts/1`, () => HttpResponse.error()));
    await expect(client().posts.get(1)).rejects.toBeInstanceOf(TransportError);
  });
});

describe('verifyCredentials()', () => {
  it('resolves with the user when the site accepts the credentials', async () => {
    let url: URL | undefined;
    server.use(
      http.get(`${ROOT}/wp/v2/users/me`, ({ request }) => {
        url = new URL(request.url);
        return HttpResponse.json({ id: 1, name: 'Editor', roles: ['administrator'], meta: [] });
      }),
    );
    const me = await client({ contentNamespace: 'wp/v2' }).verifyCredentials();
    expect(me).toMatchObject({ id: 1, name: 'Editor' });
    expect(url?.searchParams.get('context')).toBe('edit');
  });

  it('rejects with credentials_refused when the password is wrong (the site sees an anonymous user)', async () => {
    server.use(
      http.get(`${ROOT}/cms/v2/users/me`, () =>
        wpError('rest_not_logged_in', 'You are not currently logged in.', 401),
      ),
    );
    await expect(client().verifyCredentials()).rejects.toMatchObject({
      code: 'credentials_refused',
      serverCode: 'rest_not_logged_in',
    });
  });

  it('refuses without configured credentials', async () => {
    await expect(client({ auth: undefined }).verifyCredentials()).rejects.toMatchObject({
      code: 'invalid_param',
      param: 'auth',
    });
  });
});

describe('request() escape hatch', () => {
  it('sends any method and path below the REST root, keeping a query string verbatim', async () => {
    const seen: Seen[] = [];
    server.use(
      http.all(`${ROOT}/wp/v2/users/me`, async ({ request }) => {
        await record(request, seen);
        return HttpResponse.json({ id: 1, name: 'Editor' }, { headers: { 'X-Custom': 'yes' } });
      }),
    );
    const res = await client().request('GET', '/wp/v2/users/me?include[]=1&include[]=2', {
      query: { context: 'edit' },
    });
    expect(res).toMatchObject({ status: 200, body: { id: 1 } });
    expect(res.headers.get('x-custom')).toBe('yes');
    expect(seen[0]!.url.searchParams.getAll('include[]')).toEqual(['1', '2']);
    expect(seen[0]!.url.searchParams.get('context')).toBe('edit');
    await client().request('patch', 'wp/v2/users/me', { body: { name: 'New' }, headers: { 'x-trace': '1' } });
    expect(seen[1]).toMatchObject({ method: 'PATCH', body: { name: 'New' } });
    expect(seen[1]!.headers.get('x-trace')).toBe('1');
  });

  it('throws a DocsSiteError for an error status', async () => {
    server.use(http.get(`${ROOT}/nope/v1`, () => wpError('rest_no_route', 'No route was found.', 404)));
    await expect(client().request('GET', '/nope/v1')).rejects.toMatchObject({
      code: 'rest_no_route',
      status: 404,
    });
  });
});
