import { describe, expect, it } from 'vitest';
import { run } from '../../examples/docs-scripting/release-notes.js';
import { connect, HttpResponse, http, post, ROOT, useServer } from './helpers.js';

const server = useServer();

describe('examples/docs-scripting/release-notes.ts', () => {
  it('creates drafts atomically, lists them and cleans up, on a stock WordPress (wp/v2)', async () => {
    const store = new Map<number, { id: number; title: string }>();
    let nextId = 100;
    const batches: {
      validation: string;
      requests: { method: string; path: string; body?: { title: string } }[];
    }[] = [];
    server.use(
      http.get(`${ROOT}/`, () =>
        HttpResponse.json({ namespaces: ['oembed/1.0', 'wp/v2'], authentication: [] }),
      ),
      http.get(`${ROOT}/wp/v2/posts`, ({ request }) => {
        const status = new URL(request.url).searchParams.getAll('status[]');
        const items = status.includes('draft')
          ? [...store.values()].map((p) => post(p.id, { title: { rendered: p.title } }))
          : [];
        return HttpResponse.json(items, {
          headers: { 'X-WP-Total': String(items.length || 7), 'X-WP-TotalPages': '1' },
        });
      }),
      http.post(`${ROOT}/batch/v1`, async ({ request }) => {
        const body = (await request.json()) as (typeof batches)[number];
        batches.push(body);
        const responses = body.requests.map((r) => {
          if (r.method === 'DELETE') {
            const id = Number(r.path.split('?')[0]?.split('/').pop());
            store.delete(id);
            return { body: { deleted: true, previous: post(id) }, status: 200, headers: [] };
          }
          const id = nextId++;
          store.set(id, { id, title: r.body?.title ?? '' });
          return { body: post(id), status: 201, headers: [] };
        });
        return HttpResponse.json({ responses }, { status: 207 });
      }),
    );
    const lines: string[] = [];
    const created = await run(
      await connect(),
      [
        { title: 'One', content: '<p>1</p>' },
        { title: 'Two', content: '<p>2</p>' },
      ],
      { cleanup: true, log: (l) => lines.push(l) },
    );
    expect(created).toEqual([100, 101]);
    expect(batches[0]?.validation).toBe('require-all-validate');
    expect(batches[0]?.requests.map((r) => r.path)).toEqual(['/wp/v2/posts', '/wp/v2/posts']);
    expect(lines).toContain('created 2 of 2 drafts');
    expect(lines).toContain('draft #100: One');
    expect(lines).toContain('deleted 2 drafts');
    expect(store.size).toBe(0);
  });
});
