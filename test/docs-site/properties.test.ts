import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeSlashedId, queryRoute, serializeQuery } from '../../src/docs-site/url.js';
import { DocsSiteError } from '../../src/docs-site.js';
import { client, HttpResponse, http, ROOT, useServer, wpError } from './helpers.js';

const server = useServer();

describe('properties', () => {
  it('a slashed id keeps every slash (// included) and decodes back to itself', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 4 }), (parts) => {
        const id = parts.join('/');
        const encoded = encodeSlashedId(id);
        expect(encoded.split('/').length).toBe(id.split('/').length);
        expect(encoded.split('/').map(decodeURIComponent).join('/')).toBe(id);
        expect(encoded).not.toMatch(/[?#\s]/);
      }),
    );
  });

  // A route is an already-encoded path (as in the path style, where `%xx` is an escape), so `%` is
  // kept as is; every other character must come back exactly.
  it('the ?rest_route= value decodes to the route, whatever it holds', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[^?%]*$/), (route) => {
        const url = new URL(queryRoute('https://x.example', `/${route}`));
        expect(url.searchParams.get('rest_route')).toBe(`/${route}`);
        expect([...url.searchParams.keys()]).toEqual(['rest_route']);
      }),
    );
  });

  it('PHP-style query strings keep every array item and object member', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1e6 })), fc.string(), (ids, search) => {
        const q = serializeQuery({ include: ids, search, categories: { terms: ids, operator: 'OR' } });
        expect(q.getAll('include[]')).toEqual(ids.map(String));
        expect(q.getAll('categories[terms][]')).toEqual(ids.map(String));
        expect(q.get('search')).toBe(search);
      }),
    );
  });

  it('per_page outside 1..100 is refused before sending; inside it is sent', async () => {
    let sent = 0;
    server.use(
      http.get(`${ROOT}/cms/v2/posts`, () => {
        sent++;
        return HttpResponse.json([]);
      }),
    );
    const docs = client();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -1000, max: 1000 }), async (perPage) => {
        const before = sent;
        const outcome = await docs.posts.list({ per_page: perPage }).then(
          () => 'sent',
          (e: unknown) =>
            e instanceof DocsSiteError && e.code === 'invalid_param' && e.param === 'per_page'
              ? 'refused'
              : e,
        );
        expect(outcome).toBe(perPage >= 1 && perPage <= 100 ? 'sent' : 'refused');
        expect(sent - before).toBe(outcome === 'sent' ? 1 : 0);
      }),
      { numRuns: 60 },
    );
  });
});

describe('a cms/v2 client against a stock WordPress', () => {
  it('says to use connect() when the content routes do not exist', async () => {
    server.use(http.get(`${ROOT}/cms/v2/posts`, () => wpError('rest_no_route', 'No route was found.', 404)));
    const error = (await client()
      .posts.list()
      .catch((e: unknown) => e)) as DocsSiteError;
    expect(error.code).toBe('rest_no_route');
    expect(error.message).toContain('connect()');
  });
});
