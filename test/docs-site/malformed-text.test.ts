import { describe, expect, it } from 'vitest';
import { DocsSiteClient, DocsSiteError } from '../../src/docs-site.js';

// Regression: a lone UTF-16 surrogate in a path, an id or a query value made encodeURIComponent throw
// a bare URIError (query route style) or was silently sent as U+FFFD (path style and query values).
// It must be refused with a typed error before anything is sent.
const LONE = 'a\uD800b';

const fetch = () => {
  throw new Error('no request may be sent for malformed text');
};

describe('text that is not well-formed UTF-16 is refused before sending', () => {
  for (const style of ['path', 'query'] as const) {
    const client = new DocsSiteClient({ baseUrl: 'https://docs.example.org', routeStyle: style, fetch });
    it(`in a request path (${style} style)`, async () => {
      const error = await client.request('GET', `/cms/v2/${LONE}`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DocsSiteError);
      expect((error as DocsSiteError).code).toBe('invalid_param');
      expect((error as DocsSiteError).param).toBe('path');
    });

    it(`in a query value (${style} style)`, async () => {
      const error = await client.posts.list({ search: LONE }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DocsSiteError);
      expect((error as DocsSiteError).param).toBe('search');
    });

    it(`in a template id (${style} style)`, async () => {
      const error = await client.templates.get(`theme//${LONE}`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DocsSiteError);
      expect((error as DocsSiteError).code).toBe('invalid_param');
    });
  }
});
