import { describe, expect, inject, it } from 'vitest';

// Facts about the real peer that the client relies on, checked with plain fetch so that a change of
// the WordPress under test shows up here first rather than as a puzzling client failure.
const site = inject('wordpress');
const root = `${site.baseUrl}/${site.restRoot}`;
const authorization = `Basic ${Buffer.from(`${site.username}:${site.applicationPassword}`).toString('base64')}`;

describe('the WordPress under test', () => {
  it('serves the REST index on 127.0.0.1 with wp/v2 and application-password authentication', async () => {
    expect(new URL(site.baseUrl).hostname).toBe('127.0.0.1');
    const response = await fetch(`${root}/`);
    expect(response.status).toBe(200);
    const index = (await response.json()) as {
      namespaces: string[];
      authentication: { 'application-passwords'?: { endpoints: { authorization: string } } };
    };
    expect(index.namespaces).toContain('wp/v2');
    expect(index.authentication['application-passwords']?.endpoints.authorization).toBe(
      `${site.baseUrl}/wp-admin/authorize-application.php`,
    );
  });

  it('accepts the application password for a write and refuses a wrong one with 401', async () => {
    const create = (auth: string) =>
      fetch(`${root}/wp/v2/posts`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'peer check', status: 'draft' }),
      });
    const ok = await create(authorization);
    expect(ok.status).toBe(201);
    const { id } = (await ok.json()) as { id: number };
    const wrong = await create(
      `Basic ${Buffer.from(`${site.username}:wrong wrong wrong wrong`).toString('base64')}`,
    );
    expect(wrong.status).toBe(401);
    const deleted = await fetch(`${root}/wp/v2/posts/${id}?force=true`, {
      method: 'DELETE',
      headers: { authorization },
    });
    expect(deleted.status).toBe(200);
  });

  it('answers a batch with 207 even when every item succeeded', async () => {
    const batch = (requests: unknown[]) =>
      fetch(`${root}/batch/v1`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ requests }),
      });
    const created = await batch([{ path: '/wp/v2/posts', body: { title: 'peer batch', status: 'draft' } }]);
    expect(created.status).toBe(207);
    const body = (await created.json()) as { responses: { status: number; body: { id: number } }[] };
    expect(body.responses[0]?.status).toBe(201);
    const deleted = await batch([
      { method: 'DELETE', path: `/wp/v2/posts/${body.responses[0]?.body.id}?force=true` },
    ]);
    expect(deleted.status).toBe(207);
    const afterDelete = (await deleted.json()) as { responses: { status: number }[] };
    expect(afterDelete.responses[0]?.status).toBe(200);
  });

  it('refuses 26 batch items as a whole with 400', async () => {
    const requests = Array.from({ length: 26 }, () => ({ path: '/wp/v2/posts', body: { title: 'never' } }));
    const response = await fetch(`${root}/batch/v1`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ requests }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('rest_invalid_param');
  });
});
