import { HttpClient } from '../http/client.js';
import { runBatch } from './batch.js';
import type { BatchOptions, BatchRequest, BatchResult } from './batch-request.js';
import { DocsSiteError, invalidParam } from './errors.js';
import { oembedResource } from './oembed.js';
import { basicAuth, type DocsSiteOptions, resolveOptions } from './options.js';
import { checkParams } from './params/check.js';
import { contextOnlySchema } from './params/list.js';
import { CONTENT_ROUTES, contentResource, PLUGIN_ROUTES, pluginResource } from './routes.js';
import { indexSchema, namespaceIndexSchema } from './schemas/index-document.js';
import { currentUserSchema } from './schemas/user.js';
import { Transport } from './transport.js';
import type {
  ContextParams,
  CurrentUser,
  DocsSiteIndex,
  DocsSiteMethod,
  DocsSiteResources,
  DocsSiteResponse,
  NamespaceIndex,
  OEmbedResource,
} from './types/resources.js';

/** Options of {@link DocsSiteClient.authorizationUrl}. */
export interface AuthorizationUrlOptions {
  /** Name of the application asking for a password; shown to the user. */
  appName: string;
  /** A UUID identifying the application. */
  appId?: string | undefined;
  /** Where the site sends the user after approval (with `site_url`, `user_login`, `password`). */
  successUrl?: string | undefined;
  /** Where the site sends the user after rejection. */
  rejectUrl?: string | undefined;
}

/** Options of {@link DocsSiteClient.request}. */
export interface RequestOptions {
  /** Query parameters, serialized PHP-style (`a[]=1&a[]=2`). */
  query?: Record<string, unknown> | undefined;
  /** A JSON body (POST, PUT, PATCH). */
  body?: unknown;
  /** Extra request headers. `authorization` is always the client's own. */
  headers?: Record<string, string> | undefined;
}

// The resources (posts, forms, …) are declared by DocsSiteResources, generated from the route table
// (src/docs-site/routes.ts) that the constructor defines them from.
export interface DocsSiteClient extends DocsSiteResources {}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A typed client of the documentation site's REST interface. Make one with
 * {@link DocsSiteClient.connect}, which reads the site's index first, or with `new DocsSiteClient()`
 * when the content namespace is known (no request is sent). Instances are immutable; `extend()`
 * returns a new client. A client holds no resource of its own (connections come from the package's
 * shared keep-alive pool), so there is nothing to close: drop it when done.
 *
 * @example
 * ```ts
 * const docs = await DocsSiteClient.connect({
 *   baseUrl: 'https://docs.example.org',
 *   auth: { username: 'editor', applicationPassword: process.env.AV_DOCS_APP_PASSWORD ?? '' },
 * });
 * const { items, total } = await docs.posts.list({ per_page: 20, status: ['publish', 'draft'] });
 * ```
 *
 * @group Docs site
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the constructor defines every resource
export class DocsSiteClient {
  /** oEmbed: `/oembed/1.0`. */
  readonly oembed: OEmbedResource;
  /** The content namespace in use (`cms/v2` or `wp/v2`). */
  readonly contentNamespace: string;
  /** The site's base address, normalized (no trailing slash). */
  readonly baseUrl: string;
  /** The REST root below the base address. */
  readonly restRoot: string;

  readonly #options: DocsSiteOptions;
  readonly #transport: Transport;
  /** Learned from the site, per instance (never module-level). */
  readonly #cache: { batchMaxItems?: number };

  /**
   * Read the site's index and return a ready client: its content namespace is the one the site
   * advertises (`cms/v2` when listed, else `wp/v2`, a stock WordPress), or the `contentNamespace`
   * option once the index confirms it; the batch route's `maxItems` is learned too. Throws
   * `OptionsError` naming a bad option, `DocsSiteError` `rest_api_not_found` when no WordPress REST
   * API answers at the address, `no_content_namespace` when the namespace is not there.
   *
   * @example
   * ```ts
   * const docs = await DocsSiteClient.connect({ baseUrl: 'https://docs.example.org' });
   * console.log(docs.contentNamespace); // 'cms/v2'
   * ```
   */
  static async connect(options: DocsSiteOptions): Promise<DocsSiteClient> {
    const probe = new DocsSiteClient(options);
    const { namespaces } = await probe.index();
    const wanted = options.contentNamespace;
    const ns = (wanted !== undefined ? [wanted] : ['cms/v2', 'wp/v2']).find((n) => namespaces.includes(n));
    if (ns === undefined) {
      const listed = namespaces.join(', ') || 'none';
      throw new DocsSiteError(
        wanted !== undefined
          ? `connect: the site does not advertise the content namespace ${wanted} (namespaces: ${listed})`
          : `connect: the site advertises neither cms/v2 nor wp/v2 (namespaces: ${listed}); set contentNamespace`,
        { code: 'no_content_namespace' },
      );
    }
    return ns === probe.contentNamespace ? probe : probe.extend({ contentNamespace: ns });
  }

  /**
   * Build a client without any request; throws `OptionsError` naming a bad option. The content
   * namespace is `contentNamespace` (default `cms/v2`): use {@link DocsSiteClient.connect} to read it
   * from the site instead.
   */
  constructor(options: DocsSiteOptions) {
    const resolved = resolveOptions(options);
    const auth = resolved.auth ? basicAuth(resolved.auth) : undefined;
    const http = new HttpClient({
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      retries: options.retries,
      maxResponseBytes: options.maxResponseBytes,
      logger: options.logger,
      secrets: auth?.secrets ?? [],
    });
    this.#options = { ...options, auth: options.auth ? { ...options.auth } : undefined };
    this.#cache = {};
    // The credentials stay out of the settings: only the Authorization header is kept, privately.
    const { auth: credentials, ...site } = resolved;
    const t = new Transport({ ...site, username: credentials?.username }, http, auth?.header);
    this.#transport = t;
    this.contentNamespace = resolved.contentNamespace;
    this.baseUrl = resolved.base;
    this.restRoot = resolved.restRoot;
    // Every resource comes from the route table (src/docs-site/routes.ts).
    for (const [name, route] of Object.entries(CONTENT_ROUTES)) {
      Object.defineProperty(this, name, { value: contentResource(t, name, route), enumerable: true });
    }
    for (const [name, spec] of Object.entries(PLUGIN_ROUTES)) {
      Object.defineProperty(this, name, { value: pluginResource(t, name, spec), enumerable: true });
    }
    this.oembed = oembedResource(t);
    Object.freeze(this);
  }

  /** A new client with some options changed; what this client learned from the site is kept. */
  extend(overrides: Partial<DocsSiteOptions>): DocsSiteClient {
    const next = new DocsSiteClient({ ...this.#options, ...overrides });
    if (this.#cache.batchMaxItems !== undefined) next.#cache.batchMaxItems = this.#cache.batchMaxItems;
    return next;
  }

  /** The largest batch the site accepts per call, as learned from its index (default 25). */
  get batchMaxItems(): number {
    return this.#cache.batchMaxItems ?? 25;
  }

  /**
   * The index document (`GET {rest_root}/`). Also learns the batch route's `maxItems`. An answer
   * that is not a WordPress index (no `namespaces` list) is `rest_api_not_found`.
   */
  async index(params?: ContextParams): Promise<DocsSiteIndex> {
    const query = checkParams(contextOnlySchema, params, 'index') as Record<string, unknown>;
    const res = await this.#transport.send('GET', '/', { query });
    const namespaces = (res.body as { namespaces?: unknown } | null)?.namespaces;
    if (!Array.isArray(namespaces)) {
      throw this.#transport.notRestApi('GET', '/', res.status, 'JSON that has no "namespaces" list');
    }
    const body = this.#transport.parse(indexSchema, res.body, 'GET', '/', res.status) as DocsSiteIndex;
    const maxItems = body.routes?.['/batch/v1']?.endpoints?.[0]?.args?.requests?.maxItems;
    if (typeof maxItems === 'number' && Number.isInteger(maxItems) && maxItems >= 1) {
      this.#cache.batchMaxItems = Math.min(25, maxItems);
    }
    return body;
  }

  /**
   * The URL of the site's page where a user approves an application password for your app, from
   * `authentication['application-passwords'].endpoints.authorization` in the index.
   */
  async authorizationUrl(options: AuthorizationUrlOptions): Promise<string> {
    const where = 'authorizationUrl';
    if (typeof options?.appName !== 'string' || options.appName.trim() === '') {
      throw invalidParam('appName', 'is required', where);
    }
    if (options.appId !== undefined && (typeof options.appId !== 'string' || !UUID.test(options.appId))) {
      throw invalidParam('appId', 'must be a UUID', where);
    }
    for (const name of ['successUrl', 'rejectUrl'] as const) {
      const value = options[name];
      if (value === undefined) continue;
      if (typeof value !== 'string' || !/^https?:\/\//i.test(value) || !URL.canParse(value)) {
        throw invalidParam(name, 'must be an absolute http(s) URL', where);
      }
    }
    const index = await this.index();
    const endpoint = index.authentication?.['application-passwords']?.endpoints.authorization;
    if (endpoint === undefined || !URL.canParse(endpoint)) {
      throw new DocsSiteError('authorizationUrl: the site does not advertise application passwords', {
        code: 'application_passwords_unavailable',
      });
    }
    const url = new URL(endpoint);
    url.searchParams.set('app_name', options.appName);
    if (options.appId) url.searchParams.set('app_id', options.appId);
    if (options.successUrl) url.searchParams.set('success_url', options.successUrl);
    if (options.rejectUrl) url.searchParams.set('reject_url', options.rejectUrl);
    return url.href;
  }

  /**
   * Check the credentials: `GET /{ns}/users/me?context=edit`. Resolves with the user; rejects with
   * `credentials_refused` when the site does not accept them. Useful because a wrong application
   * password looks anonymous to WordPress 6.1 (reads of public content still work).
   */
  async verifyCredentials(): Promise<CurrentUser> {
    if (this.#options.auth === undefined) {
      throw new DocsSiteError('verifyCredentials: no credentials are configured (the auth option)', {
        code: 'invalid_param',
        param: 'auth',
      });
    }
    const route = `/${this.contentNamespace}/users/me`;
    const res = await this.#transport.sendParsed('GET', route, currentUserSchema, {
      query: { context: 'edit' },
    });
    return res.body as CurrentUser;
  }

  /** The root of a namespace (`GET /forms/v1`): its routes. */
  async namespaceRoot(namespace: string, params?: ContextParams): Promise<NamespaceIndex> {
    const where = 'namespaceRoot';
    if (
      typeof namespace !== 'string' ||
      !/^[\w.-]+(\/[\w.-]+)?$/.test(namespace) ||
      namespace.split('/').some((s) => /^\.+$/.test(s))
    ) {
      throw invalidParam('namespace', 'must look like "forms/v1"', where);
    }
    const query = checkParams(contextOnlySchema, params, where) as Record<string, unknown>;
    const route = `/${namespace.split('/').map(encodeURIComponent).join('/')}`;
    const res = await this.#transport.sendParsed('GET', route, namespaceIndexSchema, {
      query: { namespace, ...query },
    });
    return res.body as NamespaceIndex;
  }

  /**
   * Send several writes in one or more calls to `/batch/v1`: one {@link BatchResult} per request,
   * in order. Requests are checked before anything is sent (see {@link BatchOptions}).
   *
   * @example
   * ```ts
   * const results = await docs.batch(
   *   titles.map((title) => docs.posts.batchCreate({ title, status: 'draft' })),
   *   { validation: 'normal' },
   * );
   * const failed = results.filter((r) => r.error);
   * ```
   */
  batch(requests: readonly BatchRequest[], options: BatchOptions = {}): Promise<BatchResult[]> {
    return runBatch(this.#transport, requests, options, this.#cache.batchMaxItems);
  }

  /**
   * Any route below the REST root: the escape hatch. `path` is relative to the REST root
   * (`/wp/v2/users/me`) and may carry a query string. Error statuses throw a {@link DocsSiteError}.
   */
  async request(
    method: DocsSiteMethod | Lowercase<DocsSiteMethod>,
    path: string,
    options: RequestOptions = {},
  ): Promise<DocsSiteResponse> {
    const where = 'request';
    const m = typeof method === 'string' ? method.toUpperCase() : '';
    if (!METHODS.has(m)) throw invalidParam('method', 'must be GET, POST, PUT, PATCH or DELETE', where);
    if (typeof path !== 'string' || path === '') throw invalidParam('path', 'is required', where);
    if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//')) {
      throw invalidParam('path', 'must be relative to the REST root, not a URL', where);
    }
    const [rawRoute = '', rawQuery] = path.split(/\?(.*)/s, 2);
    if (path.includes('#')) throw invalidParam('path', 'must not hold a fragment', where);
    const route = rawRoute.startsWith('/') ? rawRoute : `/${rawRoute}`;
    if (route.split('/').some((s) => s === '..' || s === '.')) {
      throw invalidParam('path', 'must not hold "." or ".." segments', where);
    }
    if ((m === 'GET' || m === 'DELETE') && options.body !== undefined) {
      throw invalidParam('body', `is not sent with ${m}; use query`, where);
    }
    // A query string in the path is kept verbatim (PHP-style `a[]=1&a[]=2` must survive).
    const { query, body, headers } = options;
    const target = rawQuery ? `${route}?${rawQuery}` : route;
    return this.#transport.send(m as DocsSiteMethod, target, { query, body, headers });
  }
}
