/**
 * A small emulation of the WordPress routes `docs sync` uses (pages/posts lists with `include`, `slug`
 * and `status`, media list and upload, `/batch/v1`), kept in memory, for the sync's unit tests. The
 * real thing is tested in test/integration/wordpress/sync.test.ts.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { HttpResponse, http, ROOT, wpError } from './helpers.js';

export interface FakeItem {
  id: number;
  type: string;
  slug: string;
  status: string;
  title: { raw: string; rendered: string };
  content: { raw: string; rendered: string; protected: boolean };
  excerpt: { raw: string; rendered: string; protected: boolean };
  template: string;
  featured_media: number;
  parent?: number;
  menu_order?: number;
  modified_gmt: string;
  link: string;
  source_url?: string;
  _links: Record<string, unknown>;
}

export class FakeSite {
  readonly items = new Map<number, FakeItem>();
  /** Every request: method and path (below the REST root), and the batch items. */
  readonly requests: { method: string; path: string; items?: { method: string; path: string }[] }[] = [];
  /** Slugs whose create or update the site refuses (400, rest_invalid_param). */
  readonly refuse = new Set<string>();
  /**
   * When set, the only application password the site accepts; any other makes a request anonymous, as
   * WordPress does (`users/me` 401, a list of any status 400 `rest_invalid_param`).
   */
  password: string | undefined;
  /** What the site makes of content it stores (WordPress may filter HTML). */
  normalize: (html: string) => string = (html) => html;
  /** The second of `modified_gmt`; tests move it to emulate edits in the same second or later. */
  second = 0;
  #next = 10;

  constructor(readonly ns = 'wp/v2') {}

  writes() {
    return this.requests.filter((r) => r.method !== 'GET');
  }

  now(): string {
    return `2026-01-01T00:${String(Math.floor(this.second / 60)).padStart(2, '0')}:${String(this.second % 60).padStart(2, '0')}`;
  }

  /** Add an item as if made on the site. */
  add(type: string, fields: Partial<FakeItem> & { slug: string }): FakeItem {
    const id = this.#next++;
    const item: FakeItem = {
      id,
      type,
      status: 'publish',
      title: { raw: '', rendered: '' },
      content: { raw: '', rendered: '', protected: false },
      excerpt: { raw: '', rendered: '', protected: false },
      template: '',
      featured_media: 0,
      ...(type === 'page' ? { parent: 0, menu_order: 0 } : {}),
      modified_gmt: this.now(),
      link: `https://docs.example.org/?p=${id}`,
      _links: {},
      ...fields,
    };
    this.items.set(id, item);
    return item;
  }

  /** Apply a body the way the REST API does (strings for title, content, excerpt). */
  write(item: FakeItem, body: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(body)) {
      if (key === 'title') item.title = { raw: String(value), rendered: String(value) };
      else if (key === 'content') {
        const raw = this.normalize(String(value));
        item.content = { raw, rendered: raw, protected: false };
      } else if (key === 'excerpt')
        item.excerpt = { raw: String(value), rendered: String(value), protected: false };
      else (item as unknown as Record<string, unknown>)[key] = value;
    }
    item.modified_gmt = this.now();
  }

  bySlug(slug: string): FakeItem | undefined {
    return [...this.items.values()].find((i) => i.slug === slug && i.status !== 'trash');
  }

  handlers() {
    const anonymous = (request: Request) =>
      this.password !== undefined &&
      !atob(request.headers.get('authorization')?.replace(/^Basic /, '') ?? '').endsWith(`:${this.password}`);
    const list =
      (type: string) =>
      ({ request }: { request: Request }) => {
        const url = new URL(request.url);
        this.requests.push({ method: 'GET', path: url.pathname.replace(/^\/wp-json/, '') });
        const include = url.searchParams.getAll('include[]').map(Number);
        const slugs = url.searchParams.getAll('slug[]');
        const parents = url.searchParams.getAll('parent[]').map(Number);
        const any = url.searchParams.getAll('status[]').includes('any');
        if (any && anonymous(request))
          return wpError('rest_invalid_param', 'Invalid parameter(s): status', 400);
        const items = [...this.items.values()].filter(
          (i) =>
            i.type === type &&
            (include.length === 0 || include.includes(i.id)) &&
            (slugs.length === 0 || slugs.includes(i.slug)) &&
            (parents.length === 0 || parents.includes(i.parent ?? -1)) &&
            (type === 'attachment'
              ? i.status === 'inherit'
              : any
                ? i.status !== 'trash'
                : i.status === 'publish'),
        );
        return HttpResponse.json(items, {
          headers: { 'X-WP-Total': String(items.length), 'X-WP-TotalPages': '1' },
        });
      };
    const kinds: [string, string][] = [
      ['pages', 'page'],
      ['posts', 'post'],
    ];
    const apply = (method: string, path: string, body: Record<string, unknown> | undefined) => {
      const match = new RegExp(`^/${this.ns}/(pages|posts)(?:/(\\d+))?`).exec(path);
      const type = match?.[1] === 'pages' ? 'page' : 'post';
      if (!match)
        return { status: 404, body: { code: 'rest_no_route', message: 'No route', data: { status: 404 } } };
      const slug = String(body?.slug ?? '');
      if (this.refuse.has(slug)) {
        return {
          status: 400,
          body: {
            code: 'rest_invalid_param',
            message: `Invalid parameter(s): ${slug}`,
            data: { status: 400 },
          },
        };
      }
      if (match[2] === undefined) {
        const item = this.add(type, { slug });
        this.write(item, body ?? {});
        return { status: 201, body: item };
      }
      const item = this.items.get(Number(match[2]));
      if (!item)
        return {
          status: 404,
          body: { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } },
        };
      if (method === 'DELETE') {
        item.status = 'trash';
        item.modified_gmt = this.now();
        return { status: 200, body: item };
      }
      this.write(item, body ?? {});
      return { status: 200, body: item };
    };
    return [
      http.get(`${ROOT}/`, () =>
        HttpResponse.json({
          namespaces: [this.ns],
          authentication: [],
          routes: {
            '/batch/v1': {
              namespace: '',
              methods: ['POST'],
              endpoints: [{ methods: ['POST'], args: { requests: { maxItems: 25 } } }],
            },
          },
        }),
      ),
      http.get(`${ROOT}/${this.ns}/users/me`, ({ request }) => {
        this.requests.push({ method: 'GET', path: `/${this.ns}/users/me` });
        return anonymous(request)
          ? wpError('rest_not_logged_in', 'You are not currently logged in.', 401)
          : HttpResponse.json({ id: 1, name: 'editor', slug: 'editor' });
      }),
      ...kinds.map(([route, type]) => http.get(`${ROOT}/${this.ns}/${route}`, list(type))),
      http.get(`${ROOT}/${this.ns}/media`, list('attachment')),
      http.post(`${ROOT}/${this.ns}/media`, async ({ request }) => {
        const url = new URL(request.url);
        this.requests.push({ method: 'POST', path: url.pathname.replace(/^\/wp-json/, '') });
        const name = /filename="([^"]+)"/.exec(request.headers.get('content-disposition') ?? '')?.[1] ?? 'x';
        if (name.startsWith('broken'))
          return wpError('rest_upload_unknown_error', 'Sorry, the upload failed.', 500);
        const bytes = (await request.arrayBuffer()).byteLength;
        const item = this.add('attachment', {
          slug: url.searchParams.get('slug') ?? name,
          status: 'inherit',
          source_url: `https://docs.example.org/wp-content/uploads/${name}?bytes=${bytes}`,
        });
        return HttpResponse.json(item, { status: 201 });
      }),
      http.post(`${ROOT}/batch/v1`, async ({ request }) => {
        const { requests } = (await request.json()) as {
          requests: { method: string; path: string; body?: Record<string, unknown> }[];
        };
        this.requests.push({
          method: 'POST',
          path: '/batch/v1',
          items: requests.map((r) => ({ method: r.method, path: r.path })),
        });
        if (requests.length > 25) return wpError('rest_invalid_param', 'Too many requests', 400);
        const responses = requests.map((r) => {
          const { status, body } = apply(r.method, r.path, r.body);
          return { status, body, headers: [] };
        });
        return HttpResponse.json({ responses }, { status: 207 });
      }),
    ];
  }
}

/** Write files (relative path → text or bytes) into `dir`. */
export async function writeFiles(dir: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), content);
  }
}

/** Markdown with front matter. */
export function md(meta: Record<string, unknown>, body = 'Text.\n'): string {
  const lines = Object.entries(meta).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  return `---\n${lines.join('\n')}\n---\n${body}`;
}
