import { describe, expect, it } from 'vitest';
import { client, HttpResponse, http, post, ROOT, record, type Seen, useServer } from './helpers.js';

const server = useServer();

const rev = (id: number, parent: number) => ({
  id,
  parent,
  author: 1,
  date: '2024-01-01T00:00:00',
  title: { rendered: 'r' },
  meta: [],
});

describe('revisions and autosaves of content kinds', () => {
  it.each(['posts', 'pages', 'blocks'] as const)(
    '%s: list (paginated), get, delete with force',
    async (kind) => {
      const seen: Seen[] = [];
      server.use(
        http.all(`${ROOT}/cms/v2/${kind}/7/revisions*`, async ({ request }) => {
          await record(request, seen);
          if (request.method === 'DELETE') return HttpResponse.json({ deleted: true, previous: rev(9, 7) });
          return request.url.includes('/revisions/9')
            ? HttpResponse.json(rev(9, 7))
            : HttpResponse.json([rev(9, 7), rev(8, 7)], {
                headers: { 'X-WP-Total': '2', 'X-WP-TotalPages': '1' },
              });
        }),
      );
      const revisions = client()[kind].revisions(7);
      expect(await revisions.list({ per_page: 2, orderby: 'date' })).toMatchObject({
        total: 2,
        totalPages: 1,
      });
      expect((await revisions.get(9, { context: 'edit' })).parent).toBe(7);
      expect(await revisions.delete(9, { force: true })).toMatchObject({ deleted: true, item: { id: 9 } });
      expect(seen.map((s) => `${s.method} ${s.url.pathname}${s.url.search}`)).toEqual([
        `GET /wp-json/cms/v2/${kind}/7/revisions?per_page=2&orderby=date`,
        `GET /wp-json/cms/v2/${kind}/7/revisions/9?context=edit`,
        `DELETE /wp-json/cms/v2/${kind}/7/revisions/9?force=true`,
      ]);
    },
  );

  it.each(['posts', 'pages', 'blocks', 'menuItems'] as const)(
    '%s: autosaves list, get and create',
    async (kind) => {
      const route = kind === 'menuItems' ? 'menu-items' : kind;
      const seen: Seen[] = [];
      server.use(
        http.all(`${ROOT}/cms/v2/${route}/7/autosaves*`, async ({ request }) => {
          await record(request, seen);
          if (request.method === 'POST') return HttpResponse.json(rev(12, 7), { status: 201 });
          return request.url.includes('/autosaves/12')
            ? HttpResponse.json(rev(12, 7))
            : HttpResponse.json([rev(12, 7)]);
        }),
      );
      const autosaves = client()[kind].autosaves(7);
      expect(await autosaves.list()).toMatchObject({ total: 1, totalPages: 1, items: [{ id: 12 }] });
      expect((await autosaves.get(12)).id).toBe(12);
      expect((await autosaves.create({ title: 'draft' })).id).toBe(12);
      expect(seen.map((s) => `${s.method} ${s.url.pathname}`)).toEqual([
        `GET /wp-json/cms/v2/${route}/7/autosaves`,
        `GET /wp-json/cms/v2/${route}/7/autosaves/12`,
        `POST /wp-json/cms/v2/${route}/7/autosaves`,
      ]);
      expect(seen[2]?.body).toEqual({ title: 'draft' });
    },
  );

  it('menu items and media have no revisions; media has no autosaves nor batch helpers', () => {
    const docs = client();
    expect('revisions' in docs.menuItems).toBe(false);
    expect('revisions' in docs.media).toBe(false);
    expect('autosaves' in docs.media).toBe(false);
    expect('batchCreate' in docs.media).toBe(false);
    expect('batchCreate' in docs.templates).toBe(false);
  });

  it('menu items CRUD with menu fields', async () => {
    let body: unknown;
    server.use(
      http.post(`${ROOT}/cms/v2/menu-items`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(
          { id: 5, title: { rendered: 'Home' }, type: 'custom', menu_order: 1, menus: 2 },
          { status: 201 },
        );
      }),
    );
    const item = await client().menuItems.create({
      title: 'Home',
      type: 'custom',
      url: 'https://docs.example.org/',
      target: '',
      parent: 0,
      menu_order: 1,
      object_id: 0,
      menus: 2,
      classes: ['top'],
      xfn: [],
    });
    expect(item).toMatchObject({ id: 5, menus: 2 });
    expect(body).toMatchObject({ type: 'custom', target: '', menu_order: 1 });
  });

  it('blocks keep the pattern fields', async () => {
    server.use(
      http.get(`${ROOT}/cms/v2/blocks/3`, () =>
        HttpResponse.json(
          post(3, {
            type: 'wp_block',
            title: { raw: 'CTA' },
            content: { raw: '<!-- x -->', protected: false },
            wp_pattern_category: [4],
            meta: { wp_pattern_sync_status: 'unsynced', footnotes: '' },
          }),
        ),
      ),
    );
    const block = await client().blocks.get(3, { context: 'edit' });
    expect(block.wp_pattern_category).toEqual([4]);
    expect(block.meta).toMatchObject({ wp_pattern_sync_status: 'unsynced' });
  });
});
