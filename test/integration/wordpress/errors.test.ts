import { describe, expect, it } from 'vitest';
import { DocsSiteClient, DocsSiteError } from '../../../src/docs-site.js';
import { makeClient, site, uniqueToken } from './helpers.js';

const docs = makeClient();

async function rejection(promise: Promise<unknown>): Promise<DocsSiteError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DocsSiteError);
  return error as DocsSiteError;
}

describe("the site's own errors", () => {
  it('404 rest_post_invalid_id for a post that does not exist', async () => {
    const error = await rejection(docs.posts.get(999_999_999));
    expect(error.status).toBe(404);
    expect(error.code).toBe('rest_post_invalid_id');
    expect(error.data).toEqual({ status: 404 });
    expect(error.message).toContain('rest_post_invalid_id');
  });

  it('400 rest_invalid_param with the parameter in data.params (sent through request())', async () => {
    const error = await rejection(docs.request('GET', '/wp/v2/posts', { query: { per_page: 500 } }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('rest_invalid_param');
    expect(error.data).toMatchObject({ status: 400, params: { per_page: expect.stringContaining('100') } });
  });

  it('refuses the same parameter in posts.list() before anything is sent', async () => {
    let requests = 0;
    const counting = new DocsSiteClient({
      baseUrl: site.baseUrl,
      restRoot: site.restRoot,
      contentNamespace: 'wp/v2',
      fetch: (input, init) => {
        requests++;
        return fetch(input, init);
      },
    });
    const error = await rejection(counting.posts.list({ per_page: 500 }));
    expect(error.code).toBe('invalid_param');
    expect(error.param).toBe('per_page');
    expect(error.status).toBeUndefined();
    expect(requests).toBe(0);
    // The same client does reach the site for a valid list.
    await counting.posts.list({ per_page: 1 });
    expect(requests).toBe(1);
  });

  it('401 rest_cannot_create for a write without credentials', async () => {
    const anonymous = makeClient({ anonymous: true });
    const error = await rejection(anonymous.posts.create({ title: uniqueToken('anon') }));
    expect(error.status).toBe(401);
    expect(error.code).toBe('rest_cannot_create');
  });
});

describe('a wrong application password', () => {
  const wrongPassword = 'abcd EFGH ijkl MNOP qrst UVWX';
  const wrong = makeClient({ applicationPassword: wrongPassword });

  it('may still read (WordPress 6.1 treats it as anonymous), but a write fails and is never reported as success', async () => {
    const token = uniqueToken('wrongpw');
    const published = await docs.posts.create({ title: `${token} visible`, status: 'publish' });

    const read = await wrong.posts.list({ search: token });
    expect(read.items.map((p) => p.id)).toEqual([published.id]);

    const error = await rejection(wrong.posts.create({ title: `${token} never`, status: 'publish' }));
    expect(error.status).toBe(401);
    expect(error.code).toBe('credentials_refused');
    expect(error.message).not.toContain(wrongPassword);
    expect(error.message).not.toContain(wrongPassword.replaceAll(' ', ''));
    expect(JSON.stringify(error.data ?? null)).not.toContain(wrongPassword);

    const update = await rejection(wrong.posts.update(published.id, { title: `${token} changed` }));
    expect(update.status).toBe(401);

    // Nothing was written.
    const after = await docs.posts.list({ search: token, status: ['any'], context: 'edit' });
    expect(after.items.map((p) => p.id)).toEqual([published.id]);
    expect(after.items[0]?.title).toMatchObject({ raw: `${token} visible` });
    await docs.posts.delete(published.id, { force: true });
  });

  it('fails every item of a batch (the site answers 207 with a 401 per item), never reported as success', async () => {
    const token = uniqueToken('wrongbatch');
    const results = await wrong.batch([
      wrong.posts.batchCreate({ title: `${token} a` }),
      wrong.posts.batchCreate({ title: `${token} b` }),
    ]);
    expect(results.map((r) => [r.ok, r.status])).toEqual([
      [false, 401],
      [false, 401],
    ]);
    for (const r of results) {
      expect(r.error).toBeInstanceOf(DocsSiteError);
      expect(r.error?.status).toBe(401);
      expect(r.error?.message).not.toContain(wrongPassword);
    }
    expect((await docs.posts.list({ search: token, status: ['any'] })).total).toBe(0);
  });
});
