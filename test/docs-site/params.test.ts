import { describe, expect, it } from 'vitest';
import { type DocsSiteClient, DocsSiteError, LIST_DEFAULTS } from '../../src/docs-site.js';
import { client, HttpResponse, http, post, ROOT, useServer } from './helpers.js';

// No handler matches these calls: with onUnhandledRequest 'error' any request that leaves would
// surface as a TransportError instead of the expected invalid_param error.
const server = useServer();

async function failure(fn: (docs: DocsSiteClient) => unknown): Promise<unknown> {
  try {
    await fn(client());
  } catch (error) {
    return error;
  }
  return undefined;
}

type Case = [string, (docs: DocsSiteClient) => unknown, string];
const bad = <T>(v: unknown) => v as T;

const cases: Case[] = [
  ['per_page 0', (d) => d.posts.list({ per_page: 0 }), 'per_page'],
  ['per_page 101', (d) => d.pages.list({ per_page: 101 }), 'per_page'],
  ['per_page 2.5', (d) => d.media.list({ per_page: 2.5 }), 'per_page'],
  ['page 0', (d) => d.posts.list({ page: 0 }), 'page'],
  ['iterate per_page 101', (d) => d.posts.iterate({ per_page: 101 }), 'per_page'],
  ['context', (d) => d.posts.list({ context: bad('full') }), 'context'],
  ['context of get', (d) => d.posts.get(1, { context: bad('raw') }), 'context'],
  ['order', (d) => d.menuItems.list({ order: bad('up') }), 'order'],
  ['orderby menu_order on posts', (d) => d.posts.list({ orderby: bad('menu_order') }), 'orderby'],
  ['orderby menu_order on blocks', (d) => d.blocks.list({ orderby: bad('menu_order') }), 'orderby'],
  ['orderby menu_order on media', (d) => d.media.list({ orderby: bad('menu_order') }), 'orderby'],
  ['orderby unknown on pages', (d) => d.pages.list({ orderby: bad('random') }), 'orderby'],
  ['status publishing', (d) => d.posts.list({ status: bad(['publishing']) }), 'status.0'],
  ['search_columns', (d) => d.posts.list({ search_columns: bad(['post_name']) }), 'search_columns.0'],
  ['search_semantics', (d) => d.posts.list({ search_semantics: bad('fuzzy') }), 'search_semantics'],
  ['media_type', (d) => d.media.list({ media_type: bad(['picture']) }), 'media_type.0'],
  ['mime_type', (d) => d.media.list({ mime_type: bad(['png']) }), 'mime_type.0'],
  ['tax_relation', (d) => d.posts.list({ tax_relation: bad('XOR') }), 'tax_relation'],
  ['tax_relation on blocks', (d) => d.blocks.list({ tax_relation: bad('and') }), 'tax_relation'],
  ['format', (d) => d.posts.list({ format: bad(['novel']) }), 'format.0'],
  [
    'categories operator',
    (d) => d.posts.list({ categories: bad({ terms: [1], operator: 'NOT' }) }),
    'categories.operator',
  ],
  ['include of strings', (d) => d.posts.list({ include: bad(['a']) }), 'include.0'],
  ['after not a date', (d) => d.posts.list({ after: 'yesterday' }), 'after'],
  ['unknown parameter', (d) => d.posts.list(bad({ perPage: 5 })), 'perPage'],
  ['media filter on posts', (d) => d.posts.list(bad({ media_type: ['image'] })), 'media_type'],
  ['sticky on pages', (d) => d.pages.list(bad({ sticky: true })), 'sticky'],
  ['offset negative', (d) => d.posts.list({ offset: -1 }), 'offset'],
  ['password on a media read', (d) => d.media.get(1, bad({ password: 'x' })), 'password'],
  [
    'excerpt_length on a menu item read',
    (d) => d.menuItems.get(1, bad({ excerpt_length: 5 })),
    'excerpt_length',
  ],
  ['id 0', (d) => d.posts.get(0), 'id'],
  ['id string', (d) => d.pages.get(bad('5')), 'id'],
  ['update id negative', (d) => d.posts.update(-3, {}), 'id'],
  ['update method', (d) => d.posts.update(3, {}, { method: bad('GET') }), 'method'],
  ['body status', (d) => d.posts.create({ status: bad('trash') }), 'status'],
  ['body format', (d) => d.posts.create({ format: bad('novel') }), 'format'],
  ['body comment_status', (d) => d.pages.create({ comment_status: bad('maybe') }), 'comment_status'],
  ['delete force not boolean', (d) => d.posts.delete(3, { force: bad('yes') }), 'force'],
  ['revision delete without force', (d) => d.posts.revisions(1).delete(2, bad({})), 'force'],
  ['revision delete force false', (d) => d.pages.revisions(1).delete(2, bad({ force: false })), 'force'],
  [
    'template revision delete without force',
    (d) => d.templates.revisions('t//x').delete(2, bad(undefined)),
    'force',
  ],
  ['revisions parent', (d) => d.posts.revisions(0), 'parent'],
  ['revisions per_page', (d) => d.blocks.revisions(1).list({ per_page: 500 }), 'per_page'],
  ['autosaves parent', (d) => d.menuItems.autosaves(-1), 'parent'],
  ['menu item type', (d) => d.menuItems.create({ type: bad('page') }), 'type'],
  ['menu item target', (d) => d.menuItems.create({ target: bad('_self') }), 'target'],
  ['menu item parent', (d) => d.menuItems.create({ parent: -1 }), 'parent'],
  ['menu item object_id', (d) => d.menuItems.update(4, { object_id: -2 }), 'object_id'],
  ['menu item menu_order 0', (d) => d.menuItems.create({ menu_order: 0 }), 'menu_order'],
  ['menu item url', (d) => d.menuItems.create({ url: 'not a url' }), 'url'],
  ['menu item classes', (d) => d.menuItems.create({ classes: bad('a b') }), 'classes'],
  [
    'block sync status',
    (d) => d.blocks.create({ meta: { wp_pattern_sync_status: bad('full') } }),
    'meta.wp_pattern_sync_status',
  ],
  ['template slug pattern', (d) => d.templates.create({ slug: 'has space' }), 'slug'],
  ['template slug required', (d) => d.templateParts.create(bad({ title: 'x' })), 'slug'],
  ['template slug empty', (d) => d.templates.create({ slug: '' }), 'slug'],
  ['template slug on update', (d) => d.templates.update('t//x', { slug: 'a/b' }), 'slug'],
  ['template id empty', (d) => d.templates.get(''), 'id'],
  ['template id with a colon', (d) => d.templates.get('theme//a:b'), 'id'],
  ['template id leading slash', (d) => d.templateParts.delete('/x'), 'id'],
  ['template lookup slug required', (d) => d.templates.lookup(bad({})), 'slug'],
  ['template list wp_id', (d) => d.templates.list({ wp_id: bad('x') }), 'wp_id'],
  ['template list per_page', (d) => d.templates.list(bad({ per_page: 5 })), 'per_page'],
  ['layout name digit first', (d) => d.layouts.get('1hero'), 'name'],
  ['layout name dash', (d) => d.layouts.get('hero-banner'), 'name'],
  ['layout name empty', (d) => d.layouts.get(''), 'name'],
  ['dismiss id missing', (d) => d.kbNotifications.dismiss(bad(undefined)), 'id'],
  ['dismiss id empty', (d) => d.kbNotifications.dismiss('  '), 'id'],
  ['post-process action', (d) => d.media.postProcess(3, { action: bad('resize') }), 'action'],
  ['edit src required', (d) => d.media.edit(3, bad({ rotation: 90 })), 'src'],
  ['edit src not a URL', (d) => d.media.edit(3, { src: 'image.png', rotation: 90 }), 'src'],
  [
    'edit modifiers empty',
    (d) => d.media.edit(3, { src: 'https://x.org/a.png', modifiers: [] }),
    'modifiers',
  ],
  [
    'edit modifier unknown type',
    (d) => d.media.edit(3, { src: 'https://x.org/a.png', modifiers: [bad({ type: 'blur', args: {} })] }),
    'modifiers.0.type',
  ],
  [
    'edit flip without vertical',
    (d) =>
      d.media.edit(3, {
        src: 'https://x.org/a.png',
        modifiers: [bad({ type: 'flip', args: { flip: { horizontal: true } } })],
      }),
    'modifiers.0.args.flip.vertical',
  ],
  [
    'edit rotate angle not a number',
    (d) =>
      d.media.edit(3, {
        src: 'https://x.org/a.png',
        modifiers: [bad({ type: 'rotate', args: { angle: '90' } })],
      }),
    'modifiers.0.args.angle',
  ],
  [
    'edit crop width over 100',
    (d) =>
      d.media.edit(3, {
        src: 'https://x.org/a.png',
        modifiers: [{ type: 'crop', args: { left: 0, top: 0, width: 120, height: 50 } }],
      }),
    'modifiers.0.args.width',
  ],
  [
    'edit crop missing top',
    (d) =>
      d.media.edit(3, {
        src: 'https://x.org/a.png',
        modifiers: [bad({ type: 'crop', args: { left: 0, width: 10, height: 50 } })],
      }),
    'modifiers.0.args.top',
  ],
  ['edit rotation 0', (d) => d.media.edit(3, { src: 'https://x.org/a.png', rotation: 0 }), 'rotation'],
  ['edit rotation 360', (d) => d.media.edit(3, { src: 'https://x.org/a.png', rotation: 360 }), 'rotation'],
  ['edit rotation 45.5', (d) => d.media.edit(3, { src: 'https://x.org/a.png', rotation: 45.5 }), 'rotation'],
  ['edit x negative', (d) => d.media.edit(3, { src: 'https://x.org/a.png', x: -1 }), 'x'],
  ['edit y over 100', (d) => d.media.edit(3, { src: 'https://x.org/a.png', y: 101 }), 'y'],
  ['edit width over 100', (d) => d.media.edit(3, { src: 'https://x.org/a.png', width: 100.5 }), 'width'],
  ['edit height negative', (d) => d.media.edit(3, { src: 'https://x.org/a.png', height: -0.1 }), 'height'],
  ['oembed url required', (d) => d.oembed.embed(bad({})), 'url'],
  ['oembed url not a URL', (d) => d.oembed.proxy({ url: 'nope' }), 'url'],
  ['oembed proxy format', (d) => d.oembed.proxy({ url: 'https://x.org', format: bad('yaml') }), 'format'],
  [
    'oembed proxy maxheight',
    (d) => d.oembed.proxy({ url: 'https://x.org', maxheight: bad('big') }),
    'maxheight',
  ],
  [
    'oembed proxy discover',
    (d) => d.oembed.proxy({ url: 'https://x.org', discover: bad('yes') }),
    'discover',
  ],
  ['oembed embed maxwidth', (d) => d.oembed.embed({ url: 'https://x.org', maxwidth: 0 }), 'maxwidth'],
  ['form id', (d) => d.forms.get(0), 'id'],
  ['form body not an object', (d) => d.forms.create(bad('name=x')), '(parameters)'],
  ['namespace root', (d) => d.namespaceRoot('../x'), 'namespace'],
  ['namespace root context', (d) => d.namespaceRoot('forms/v1', { context: bad('all') }), 'context'],
  ['index context', (d) => d.index({ context: bad('all') }), 'context'],
  ['batchCreate body', (d) => d.posts.batchCreate({ status: bad('gone') }), 'status'],
  ['batchDelete id', (d) => d.pages.batchDelete(0), 'id'],
  ['request method', (d) => d.request(bad('OPTIONS'), '/wp/v2/posts'), 'method'],
  ['request absolute URL', (d) => d.request('GET', 'https://evil.example/steal'), 'path'],
  ['request protocol-relative URL', (d) => d.request('GET', '//evil.example/steal'), 'path'],
  ['request dot segments', (d) => d.request('GET', '/wp/v2/../../x'), 'path'],
  ['request body with GET', (d) => d.request('GET', '/wp/v2/posts', { body: {} }), 'body'],
];

describe('parameters are checked before any request, naming the parameter', () => {
  it.each(cases)('%s', async (_name, call, param) => {
    const error = await failure(call);
    expect(error).toBeInstanceOf(DocsSiteError);
    expect(error).toMatchObject({ code: 'invalid_param', status: undefined, param });
    expect((error as Error).message).toContain(`"${param}"`);
  });
});

describe('valid parameters are sent as the site expects them', () => {
  it('accepts menu_order ordering for pages and menu items, and term filter objects', async () => {
    const urls: URL[] = [];
    server.use(
      http.get(`${ROOT}/cms/v2/:kind`, ({ request }) => {
        urls.push(new URL(request.url));
        return HttpResponse.json([]);
      }),
    );
    const docs = client();
    await docs.pages.list({ orderby: 'menu_order', order: 'asc', parent: [0] });
    await docs.menuItems.list({ orderby: 'menu_order', menus: [2] });
    await docs.posts.list({
      categories: { terms: [3, 4], include_children: true, operator: 'AND' },
      after: new Date('2024-01-02T03:04:05Z'),
      search_columns: ['post_title'],
      sticky: false,
      _fields: ['id', 'title'],
    });
    await docs.media.list({ media_type: ['image', 'video'], mime_type: 'image/png', status: 'inherit' });
    expect(urls[0]?.searchParams.get('orderby')).toBe('menu_order');
    expect(urls[1]?.searchParams.getAll('menus[]')).toEqual(['2']);
    const q = urls[2]!.searchParams;
    expect(q.getAll('categories[terms][]')).toEqual(['3', '4']);
    expect(q.get('categories[include_children]')).toBe('true');
    expect(q.get('categories[operator]')).toBe('AND');
    expect(q.get('after')).toBe('2024-01-02T03:04:05.000Z');
    expect(q.get('sticky')).toBe('false');
    expect(q.getAll('_fields[]')).toEqual(['id', 'title']);
    expect(urls[3]?.searchParams.getAll('media_type[]')).toEqual(['image', 'video']);
    expect(urls[3]?.searchParams.get('mime_type')).toBe('image/png');
    // A one-item list goes out as a plain value, which releases before WordPress 6.9 take too.
    await docs.media.list({ media_type: ['image'], mime_type: ['image/png'] });
    expect(urls[4]?.searchParams.get('media_type')).toBe('image');
    expect(urls[4]?.searchParams.get('mime_type')).toBe('image/png');
    expect([...urls[4]!.searchParams.keys()]).toEqual(['media_type', 'mime_type']);
  });

  it('sends valid media edit modifiers and the deprecated fields at their bounds', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(`${ROOT}/cms/v2/media/3/edit`, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ id: 4, media_type: 'image' }, { status: 201 });
      }),
    );
    const modifiers = [
      { type: 'flip', args: { flip: { horizontal: true, vertical: false } } },
      { type: 'rotate', args: { angle: -90 } },
      { type: 'crop', args: { left: 0, top: 10.5, width: 100, height: 50 } },
    ] as const;
    const media = await client().media.edit(3, {
      src: 'https://docs.example.org/a.png',
      modifiers: [...modifiers],
    });
    expect(media.id).toBe(4);
    await client().media.edit(3, {
      src: 'https://docs.example.org/a.png',
      rotation: 359,
      x: 0,
      y: 100,
      width: 50,
      height: 1,
    });
    expect(bodies[0]).toEqual({ src: 'https://docs.example.org/a.png', modifiers });
    expect(bodies[1]).toMatchObject({ rotation: 359, x: 0, y: 100 });
  });

  it('documents the per-kind list defaults', () => {
    expect(LIST_DEFAULTS.posts).toMatchObject({ per_page: 10, order: 'desc', orderby: 'date' });
    expect(LIST_DEFAULTS.menuItems).toMatchObject({ per_page: 100, order: 'asc', orderby: 'menu_order' });
    expect(LIST_DEFAULTS.media.status).toBe('inherit');
  });

  it('sends no default the caller did not ask for', async () => {
    let url: URL | undefined;
    server.use(
      http.get(`${ROOT}/cms/v2/menu-items`, ({ request }) => {
        url = new URL(request.url);
        return HttpResponse.json([post(1)]);
      }),
    );
    await client().menuItems.list();
    expect([...url!.searchParams.keys()]).toEqual([]);
  });
});
