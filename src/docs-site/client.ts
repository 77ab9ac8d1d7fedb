import { noopLogger } from '../core/logger.js';
import { HttpClient } from '../http/client.js';
import { type BatchOptions, type BatchResult, runBatch } from './batch.js';
import type { BatchRequest } from './batch-request.js';
import { DocsSiteError, invalidParam } from './errors.js';
import { basicAuth, type DocsSiteOptions, resolveOptions } from './options.js';
import {
  blockBodySchema,
  mediaBodySchema,
  menuItemBodySchema,
  pageBodySchema,
  postBodySchema,
  templateCreateSchema,
  templatePartCreateSchema,
  templatePartUpdateSchema,
  templateUpdateSchema,
} from './params/bodies.js';
import { checkParams } from './params/check.js';
import {
  blockListSchema,
  type ContextParams,
  contextOnlySchema,
  itemReadWithPasswordSchema,
  mediaListSchema,
  menuItemListSchema,
  pageListSchema,
  postListSchema,
} from './params/list.js';
import { AutosavedContentResource, RevisedContentResource } from './resources/content.js';
import { FormsResource } from './resources/forms.js';
import {
  KbAiSearchResource,
  KbArticleWriterResource,
  KbNotificationsResource,
  KbResource,
  KbSettingsResource,
  OAuthIdpResource,
} from './resources/kb.js';
import { LayoutsResource } from './resources/layouts.js';
import { MediaResource } from './resources/media.js';
import { OEmbedResource } from './resources/oembed.js';
import { TemplatesResource } from './resources/templates.js';
import { blockSchema, mediaSchema, menuItemSchema, pageSchema, postSchema } from './schemas/content.js';
import {
  type DocsSiteIndex,
  indexSchema,
  type NamespaceIndex,
  namespaceIndexSchema,
} from './schemas/index-document.js';
import { type CurrentUser, currentUserSchema } from './schemas/user.js';
import { type DocsSiteMethod, type DocsSiteResponse, Transport } from './transport.js';

/** Options of {@link DocsSiteClient.authorizationUrl}. */
export interface AuthorizationUrlOptions {
  /** Name of the application asking for a password; shown to the user. */
  appName: string;
  /** A UUID identifying the application. */
  appId?: string;
  /** Where the site sends the user after approval (with `site_url`, `user_login`, `password`). */
  successUrl?: string;
  /** Where the site sends the user after rejection. */
  rejectUrl?: string;
}

/** Options of {@link DocsSiteClient.request}. */
export interface RequestOptions {
  /** Query parameters, serialized PHP-style (`a[]=1&a[]=2`). */
  query?: Record<string, unknown>;
  /** A JSON body (POST, PUT, PATCH). */
  body?: unknown;
  /** Extra request headers. `authorization` is always the client's own. */
  headers?: Record<string, string>;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** @group Docs site */
export type PostsResource = RevisedContentResource<
  typeof postSchema,
  typeof postListSchema,
  typeof postBodySchema,
  typeof itemReadWithPasswordSchema
>;
/** @group Docs site */
export type PagesResource = RevisedContentResource<
  typeof pageSchema,
  typeof pageListSchema,
  typeof pageBodySchema,
  typeof itemReadWithPasswordSchema
>;
/** @group Docs site */
export type MenuItemsResource = AutosavedContentResource<
  typeof menuItemSchema,
  typeof menuItemListSchema,
  typeof menuItemBodySchema,
  typeof contextOnlySchema
>;
/** @group Docs site */
export type BlocksResource = RevisedContentResource<
  typeof blockSchema,
  typeof blockListSchema,
  typeof blockBodySchema,
  typeof itemReadWithPasswordSchema
>;
/** @group Docs site */
export type TemplatesOnlyResource = TemplatesResource<
  typeof templateCreateSchema,
  typeof templateUpdateSchema
>;
/** @group Docs site */
export type TemplatePartsResource = TemplatesResource<
  typeof templatePartCreateSchema,
  typeof templatePartUpdateSchema
>;

interface Resources {
  posts: PostsResource;
  pages: PagesResource;
  menuItems: MenuItemsResource;
  blocks: BlocksResource;
  media: MediaResource;
  templates: TemplatesOnlyResource;
  templateParts: TemplatePartsResource;
  forms: FormsResource;
  kbAiSearch: KbAiSearchResource;
  kbSettings: KbSettingsResource;
  kbNotifications: KbNotificationsResource;
  kb: KbResource;
  kbArticleWriter: KbArticleWriterResource;
  oauthIdp: OAuthIdpResource;
  layouts: LayoutsResource;
  oembed: OEmbedResource;
}

function makeResources(t: Transport): Resources {
  return {
    posts: new RevisedContentResource(t, {
      name: 'posts',
      route: 'posts',
      item: postSchema,
      list: postListSchema,
      body: postBodySchema,
      read: itemReadWithPasswordSchema,
    }),
    pages: new RevisedContentResource(t, {
      name: 'pages',
      route: 'pages',
      item: pageSchema,
      list: pageListSchema,
      body: pageBodySchema,
      read: itemReadWithPasswordSchema,
    }),
    menuItems: new AutosavedContentResource(t, {
      name: 'menuItems',
      route: 'menu-items',
      item: menuItemSchema,
      list: menuItemListSchema,
      body: menuItemBodySchema,
      read: contextOnlySchema,
    }),
    blocks: new RevisedContentResource(t, {
      name: 'blocks',
      route: 'blocks',
      item: blockSchema,
      list: blockListSchema,
      body: blockBodySchema,
      read: itemReadWithPasswordSchema,
    }),
    media: new MediaResource(t, {
      name: 'media',
      route: 'media',
      item: mediaSchema,
      list: mediaListSchema,
      body: mediaBodySchema,
      read: contextOnlySchema,
    }),
    templates: new TemplatesResource(t, 'templates', 'templates', templateCreateSchema, templateUpdateSchema),
    templateParts: new TemplatesResource(
      t,
      'templateParts',
      'template-parts',
      templatePartCreateSchema,
      templatePartUpdateSchema,
    ),
    forms: new FormsResource(t),
    kbAiSearch: new KbAiSearchResource(t),
    kbSettings: new KbSettingsResource(t),
    kbNotifications: new KbNotificationsResource(t),
    kb: new KbResource(t),
    kbArticleWriter: new KbArticleWriterResource(t),
    oauthIdp: new OAuthIdpResource(t),
    layouts: new LayoutsResource(t),
    oembed: new OEmbedResource(t),
  };
}

/**
 * A typed client of the documentation site's REST interface. Instances are immutable:
 * {@link DocsSiteClient.connect} and {@link DocsSiteClient.extend} return new clients.
 *
 * @example
 * ```ts
 * const docs = await new DocsSiteClient({
 *   baseUrl: 'https://docs.example.org',
 *   auth: { username: 'editor', applicationPassword: process.env.AV_DOCS_APP_PASSWORD ?? '' },
 * }).connect();
 * const { items, total } = await docs.posts.list({ per_page: 20, status: ['publish', 'draft'] });
 * ```
 *
 * @group Docs site
 */
export class DocsSiteClient {
  /** Posts: `/{ns}/posts`, with revisions and autosaves; batch-capable. */
  readonly posts: PostsResource;
  /** Pages: `/{ns}/pages`, with revisions and autosaves; batch-capable. */
  readonly pages: PagesResource;
  /** Navigation menu items: `/{ns}/menu-items`, with autosaves (no revisions); batch-capable. */
  readonly menuItems: MenuItemsResource;
  /** Reusable blocks: `/{ns}/blocks`, with revisions and autosaves; batch-capable. */
  readonly blocks: BlocksResource;
  /** Media attachments: `/{ns}/media`, with `upload`, `edit`, `postProcess`; not batch-capable. */
  readonly media: MediaResource;
  /** Templates: `/{ns}/templates`, string ids such as `theme//slug`, `lookup`, revisions and autosaves. */
  readonly templates: TemplatesOnlyResource;
  /** Template parts: `/{ns}/template-parts`, like templates plus `area`. */
  readonly templateParts: TemplatePartsResource;
  /** Contact forms: `/forms/v1`. */
  readonly forms: FormsResource;
  /** Knowledge-base search assistant: `/kb-ai-search/v1`. */
  readonly kbAiSearch: KbAiSearchResource;
  /** Knowledge-base settings: `/kb-settings/v1`. */
  readonly kbSettings: KbSettingsResource;
  /** Knowledge-base notifications: `/kb-notifications/v1`. */
  readonly kbNotifications: KbNotificationsResource;
  /** Knowledge-base statistics: `/kb/v1`. */
  readonly kb: KbResource;
  /** Knowledge-base article writer: `/kb-ai-article-writer/v1`. */
  readonly kbArticleWriter: KbArticleWriterResource;
  /** Single-sign-on callback: `/oauth_idp_intiate`. */
  readonly oauthIdp: OAuthIdpResource;
  /** Layouts and sections: `/layoutblocks/v1`. */
  readonly layouts: LayoutsResource;
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

  /** Build a client; throws `OptionsError` naming a bad option. No request is sent. */
  constructor(options: DocsSiteOptions) {
    const resolved = resolveOptions(options);
    const auth = resolved.auth ? basicAuth(resolved.auth) : undefined;
    const logger = options.logger ?? noopLogger;
    const http = new HttpClient({
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      retries: options.retries,
      maxResponseBytes: options.maxResponseBytes,
      logger,
      secrets: auth?.secrets ?? [],
    });
    this.#options = { ...options, auth: options.auth ? { ...options.auth } : undefined };
    this.#cache = {};
    this.#transport = new Transport(
      {
        base: resolved.base,
        restRoot: resolved.restRoot,
        routeStyle: resolved.routeStyle,
        contentNamespace: resolved.contentNamespace,
        username: resolved.auth?.username,
        logger,
      },
      http,
      auth?.header,
    );
    this.contentNamespace = resolved.contentNamespace;
    this.baseUrl = resolved.base;
    this.restRoot = resolved.restRoot;
    const r = makeResources(this.#transport);
    this.posts = r.posts;
    this.pages = r.pages;
    this.menuItems = r.menuItems;
    this.blocks = r.blocks;
    this.media = r.media;
    this.templates = r.templates;
    this.templateParts = r.templateParts;
    this.forms = r.forms;
    this.kbAiSearch = r.kbAiSearch;
    this.kbSettings = r.kbSettings;
    this.kbNotifications = r.kbNotifications;
    this.kb = r.kb;
    this.kbArticleWriter = r.kbArticleWriter;
    this.oauthIdp = r.oauthIdp;
    this.layouts = r.layouts;
    this.oembed = r.oembed;
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
   * The index document (`GET {rest_root}/`). Also learns the batch route's `maxItems`.
   */
  async index(params?: ContextParams): Promise<DocsSiteIndex> {
    const query = checkParams(contextOnlySchema, params, 'index') as Record<string, unknown>;
    const { body } = await this.#transport.sendParsed('GET', '/', indexSchema, { query });
    const maxItems = body.routes?.['/batch/v1']?.endpoints?.[0]?.args?.requests?.maxItems;
    if (typeof maxItems === 'number' && Number.isInteger(maxItems) && maxItems >= 1) {
      this.#cache.batchMaxItems = Math.min(25, maxItems);
    }
    return body;
  }

  /**
   * Read the index and return a client whose content namespace is the one the site advertises:
   * `cms/v2` when listed, else `wp/v2` (a stock WordPress).
   */
  async connect(): Promise<DocsSiteClient> {
    const index = await this.index();
    const ns = index.namespaces.includes('cms/v2')
      ? 'cms/v2'
      : index.namespaces.includes('wp/v2')
        ? 'wp/v2'
        : undefined;
    if (ns === undefined) {
      throw new DocsSiteError(
        `connect: the site advertises neither cms/v2 nor wp/v2 (namespaces: ${index.namespaces.join(', ') || 'none'})`,
        { code: 'no_content_namespace' },
      );
    }
    return this.extend({ contentNamespace: ns });
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
    return (await this.#transport.sendParsed('GET', route, currentUserSchema, { query: { context: 'edit' } }))
      .body;
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
    return (
      await this.#transport.sendParsed('GET', route, namespaceIndexSchema, { query: { namespace, ...query } })
    ).body;
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
    return this.#transport.send(m as DocsSiteMethod, rawQuery ? `${route}?${rawQuery}` : route, {
      query: options.query,
      body: options.body,
      headers: options.headers,
    });
  }
}
