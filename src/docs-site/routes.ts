/**
 * The route table: every resource of the client, its path, what it can do, its id kind and its
 * schemas, in one place. The resource objects are built from it (no class per kind), the batch
 * check reads which routes are batch-capable from it, and the public interfaces in
 * ./types/resources.ts describe the same capabilities.
 */
import { z } from 'zod';
import type { BatchRequest } from './batch-request.js';
import { DocsSiteError, invalidParam } from './errors.js';
import { type IterateOptions, iteratePages, type Page, toPage } from './pagination.js';
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
import { checkId, checkParams, checkTemplateId } from './params/check.js';
import {
  blockListSchema,
  contextOnlySchema,
  deleteSchema,
  itemReadWithPasswordSchema,
  mediaListSchema,
  menuItemListSchema,
  pageListSchema,
  postListSchema,
  revisionListSchema,
  templateListSchema,
  templateLookupSchema,
} from './params/list.js';
import { mediaEditSchema, mediaPostProcessSchema } from './params/media-edit.js';
import {
  blockSchema,
  mediaSchema,
  menuItemSchema,
  pageSchema,
  postSchema,
  revisionSchema,
  templateRevisionSchema,
  templateSchema,
} from './schemas/content.js';
import type { SendOptions, Transport } from './transport.js';
import type { DeleteResult, DocsSiteMethod, UpdateOptions, UploadOptions } from './types/resources.js';
import { contentDisposition, readUpload, type UploadSource } from './upload.js';
import { encodeSegment, encodeSlashedId, serializeQuery } from './url.js';

/** What a content route can do beyond list, get, create, update and delete. */
type Capability = 'iterate' | 'batch' | 'revisions' | 'autosaves' | 'lookup' | 'media';

/**
 * One content kind of spec section 4.7, below the content namespace. Its public interface, named
 * after the client's property (`menuItems` → `MenuItemsResource`) with `doc` as JSDoc (of the
 * interface and of the client's property), is generated from this row (scripts/docs-site-types.ts):
 * each capability adds its interface (`IterableResource`, `BatchableResource`, …), typed by the
 * schemas' names.
 */
export interface ContentRoute {
  readonly doc: string;
  /** Route segment below the content namespace, e.g. `menu-items`. */
  readonly path: string;
  /** `number` (a positive integer) or `slashed` (a template id `theme//slug`). */
  readonly id: 'number' | 'slashed';
  readonly can: readonly Capability[];
  /** Answer schema of one item. */
  readonly item: z.ZodType;
  /** Answer schema of one revision or autosave (templates: shaped like a template). */
  readonly revision?: z.ZodType;
  readonly list: z.ZodType;
  /** Parameters of `get`; default: `context` only. */
  readonly read?: z.ZodType;
  readonly create: z.ZodType;
  /** Body of an update and an autosave; default: that of a create. */
  readonly update?: z.ZodType;
}

/** The content kinds, keyed by the client's property name. */
export const CONTENT_ROUTES = {
  posts: {
    doc: 'Posts: `/{ns}/posts`, with revisions and autosaves; batch-capable.',
    path: 'posts',
    id: 'number',
    can: ['iterate', 'batch', 'revisions', 'autosaves'],
    item: postSchema,
    list: postListSchema,
    read: itemReadWithPasswordSchema,
    create: postBodySchema,
  },
  pages: {
    doc: 'Pages: `/{ns}/pages`, with revisions and autosaves; batch-capable.',
    path: 'pages',
    id: 'number',
    can: ['iterate', 'batch', 'revisions', 'autosaves'],
    item: pageSchema,
    list: pageListSchema,
    read: itemReadWithPasswordSchema,
    create: pageBodySchema,
  },
  menuItems: {
    doc: 'Navigation menu items: `/{ns}/menu-items`, with autosaves (no revisions); batch-capable.',
    path: 'menu-items',
    id: 'number',
    can: ['iterate', 'batch', 'autosaves'],
    item: menuItemSchema,
    list: menuItemListSchema,
    create: menuItemBodySchema,
  },
  blocks: {
    doc: 'Reusable blocks: `/{ns}/blocks`, with revisions and autosaves; batch-capable.',
    path: 'blocks',
    id: 'number',
    can: ['iterate', 'batch', 'revisions', 'autosaves'],
    item: blockSchema,
    list: blockListSchema,
    read: itemReadWithPasswordSchema,
    create: blockBodySchema,
  },
  media: {
    doc: 'Media attachments: `/{ns}/media`, with `upload`, `edit` and `postProcess`; not batch-capable.',
    path: 'media',
    id: 'number',
    can: ['iterate', 'media'],
    item: mediaSchema,
    list: mediaListSchema,
    create: mediaBodySchema,
  },
  templates: {
    doc: [
      'Templates (`/{ns}/templates`): string ids such as `theme//slug` that keep their slashes in the path;',
      '`lookup`, revisions and autosaves. The list is not paginated.',
      '',
      "A template that is only the theme's file has no revisions or autosaves and cannot be deleted:",
      'WordPress 6.4+ answers `400 rest_invalid_template` (a `DocsSiteError` whose message says so);',
      'WordPress 6.1 has no revision routes for string ids (`404 rest_template_not_found`). Customize the',
      'template first (`update`); `delete(id, { force: true })` then removes the customization.',
    ].join('\n'),
    path: 'templates',
    id: 'slashed',
    can: ['lookup', 'revisions', 'autosaves'],
    item: templateSchema,
    revision: templateRevisionSchema,
    list: templateListSchema,
    create: templateCreateSchema,
    update: templateUpdateSchema,
  },
  templateParts: {
    doc: 'Template parts (`/{ns}/template-parts`): like templates, plus `area`.',
    path: 'template-parts',
    id: 'slashed',
    can: ['lookup', 'revisions', 'autosaves'],
    item: templateSchema,
    revision: templateRevisionSchema,
    list: templateListSchema,
    create: templatePartCreateSchema,
    update: templatePartUpdateSchema,
  },
} as const satisfies Record<string, ContentRoute>;

/** Route segments the batch route accepts (collections and items): posts, pages, menu-items, blocks. */
export const BATCH_PATHS: readonly string[] = Object.values(CONTENT_ROUTES as Record<string, ContentRoute>)
  .filter((r) => r.can.includes('batch'))
  .map((r) => r.path);

type Query = Record<string, unknown>;
type Fn = (...args: never[]) => unknown;

const UPDATE_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Check the update method option. */
function updateMethod(options: UpdateOptions | undefined, where: string): 'POST' | 'PUT' | 'PATCH' {
  const method = options?.method ?? 'POST';
  if (!UPDATE_METHODS.has(method)) throw invalidParam('method', 'must be POST, PUT or PATCH', where);
  return method;
}

/** The answer of a delete: `{ deleted, previous }` for good, the item itself when trashed. */
function parseDelete(
  t: Transport,
  item: z.ZodType,
  body: unknown,
  path: string,
  status: number,
): DeleteResult<unknown> {
  if (typeof body === 'object' && body !== null && 'deleted' in body) {
    const schema = z.looseObject({ deleted: z.boolean(), previous: item });
    const parsed = t.parse(schema, body, 'DELETE', path, status) as { deleted: boolean; previous: unknown };
    return { deleted: parsed.deleted, item: parsed.previous };
  }
  return { deleted: false, item: t.parse(item, body, 'DELETE', path, status) };
}

/** GET a list route and build a {@link Page} from its items and pagination headers. */
async function getPage(
  t: Transport,
  item: z.ZodType,
  path: string,
  query: Query,
  signal?: AbortSignal,
): Promise<Page<unknown>> {
  const res = await t.send('GET', path, { query, signal });
  const items = t.parse(item.array(), res.body, 'GET', path, res.status) as unknown[];
  return toPage(items, res.headers, 'GET', path);
}

/** `iterate()`: the pages of a list, from the `page` given (default 1). */
function iterate(
  t: Transport,
  item: z.ZodType,
  path: string,
  query: Query,
  options: IterateOptions | undefined,
  explain: Explain,
) {
  const first = typeof query.page === 'number' ? query.page : 1;
  return iteratePages(
    (page, signal) => getPage(t, item, path, { ...query, page }, signal).catch(explain),
    first,
    options,
  );
}

type Explain = (error: unknown) => never;

/**
 * Rethrows an error; an error of the site that the client knows more about gets a message that says
 * what to do (code, status and data kept). WordPress 6.4+ answers `400 rest_invalid_template` for the
 * revisions, autosaves and delete of a template that is only the theme's file (nothing is stored for
 * it yet). Several `media_type`s or `mime_type`s go out as an array (see params/list.ts), which
 * releases before WordPress 6.9 refuse with `rest_invalid_param`.
 */
function explain(
  where: string,
  what: 'list' | 'revisions' | 'autosaves' | 'delete',
  query: Query = {},
): Explain {
  return (error) => {
    if (!(error instanceof DocsSiteError)) throw error;
    const refused = (error.data as { params?: Record<string, unknown> } | undefined)?.params;
    const param = ['media_type', 'mime_type'].find(
      (p) => Array.isArray(query[p]) && refused?.[p] !== undefined,
    );
    let message: string | undefined;
    if (error.code === 'rest_invalid_param' && param) {
      message = `parameter "${param}": this site takes one value per request (WordPress before 6.9); list each separately`;
    } else if (error.code === 'rest_invalid_template' && what === 'delete') {
      message = `this template is only the theme's file, which cannot be deleted; delete removes a customization (made with update)`;
    } else if (error.code === 'rest_invalid_template' && what !== 'list') {
      message = `this template is only the theme's file, which has no ${what}; they exist once it is customized (with update)`;
    }
    if (message === undefined) throw error;
    const { code, status, serverCode, method, path, data } = error;
    const options = { code, status, serverCode, method, path, data, cause: error };
    throw new DocsSiteError(`${where}: ${message} (${error.message})`, options);
  };
}

/** Build the resource object of one content kind. Only the capabilities of its route are present. */
export function contentResource(
  t: Transport,
  name: string,
  route: ContentRoute,
): Record<string, Fn | string> {
  const { item, list, create, read = contextOnlySchema, update = create } = route;
  const collectionPath = `/${t.settings.contentNamespace}/${route.path}`;
  const itemPath = (id: unknown, where: string, param = 'id'): string =>
    route.id === 'number'
      ? `${collectionPath}/${encodeSegment(checkId(id, where, param))}`
      : `${collectionPath}/${encodeSlashedId(checkTemplateId(id, where, param))}`;
  const check = (schema: z.ZodType, value: unknown, method: string) =>
    checkParams(schema, value, `${name}.${method}`) as Query;
  const send = async (method: DocsSiteMethod, path: string, options: SendOptions) =>
    (await t.sendParsed(method, path, item, options)).body;
  /** What an update sends, checked in this order: the id, the method, the body. */
  const updateRequest = (id: unknown, body: unknown, options: UpdateOptions | undefined, method: string) => {
    const where = `${name}.${method}`;
    const path = itemPath(id, where);
    return { method: updateMethod(options, where), path, body: check(update, body, method) };
  };
  const children = (parent: unknown, kind: 'revisions' | 'autosaves') => {
    const where = `${name}.${kind}`;
    const path = `${itemPath(parent, where, 'parent')}/${kind}`;
    const revision = route.revision ?? revisionSchema;
    return childResource(t, where, path, kind, revision, update, explain(where, kind));
  };

  const resource: Record<string, Fn | string> = {
    collectionPath,
    itemPath: (id: string | number) => itemPath(id, `${name}.itemPath`),
    list: async (params?: unknown) => {
      const query = check(list, params, 'list');
      return getPage(t, item, collectionPath, query).catch(explain(`${name}.list`, 'list', query));
    },
    get: async (id: unknown, params?: unknown) => {
      const path = itemPath(id, `${name}.get`);
      return send('GET', path, { query: check(read, params, 'get') });
    },
    create: async (body: unknown) => send('POST', collectionPath, { body: check(create, body, 'create') }),
    update: async (id: unknown, body: unknown, options?: UpdateOptions) => {
      const request = updateRequest(id, body, options, 'update');
      return send(request.method, request.path, { body: request.body });
    },
    delete: async (id: unknown, options?: unknown) => {
      const where = `${name}.delete`;
      const path = itemPath(id, where);
      const res = await t
        .send('DELETE', path, { query: check(deleteSchema, options, 'delete') })
        .catch(explain(where, 'delete'));
      return parseDelete(t, item, res.body, path, res.status);
    },
    parse: (value: unknown) => t.parse(item, value, `${name}.parse`, ''),
  };
  const can = new Set(route.can);
  if (can.has('iterate')) {
    resource.iterate = (params?: unknown, options?: IterateOptions) => {
      const query = check(list, params, 'iterate');
      return iterate(t, item, collectionPath, query, options, explain(`${name}.iterate`, 'list', query));
    };
  }
  if (can.has('batch')) {
    resource.batchCreate = (body: unknown): BatchRequest => ({
      method: 'POST',
      path: collectionPath,
      body: check(create, body, 'batchCreate'),
    });
    resource.batchUpdate = (id: unknown, body: unknown, options?: UpdateOptions): BatchRequest =>
      updateRequest(id, body, options, 'batchUpdate');
    resource.batchDelete = (id: unknown, options?: unknown): BatchRequest => {
      const path = itemPath(id, `${name}.batchDelete`);
      const query = serializeQuery(check(deleteSchema, options, 'batchDelete')).toString();
      return { method: 'DELETE', path: query ? `${path}?${query}` : path };
    };
  }
  if (can.has('revisions')) resource.revisions = (parent: unknown) => children(parent, 'revisions');
  if (can.has('autosaves')) resource.autosaves = (parent: unknown) => children(parent, 'autosaves');
  if (can.has('lookup')) {
    resource.lookup = async (params: unknown) =>
      send('GET', `${collectionPath}/lookup`, { query: check(templateLookupSchema, params, 'lookup') });
  }
  if (can.has('media')) {
    // Upload, edit and post-process of media (spec section 4.7, "Media extra routes").
    resource.upload = async (source: UploadSource, options: UploadOptions = {}) => {
      const fields = check(mediaBodySchema, options.fields, 'upload');
      const file = await readUpload(source, options, `${name}.upload`);
      return send('POST', collectionPath, {
        query: fields,
        raw: { data: file.data, contentType: file.contentType },
        headers: { 'content-disposition': contentDisposition(file.filename) },
      });
    };
    resource.edit = async (id: unknown, body: unknown) => {
      const path = `${itemPath(id, `${name}.edit`)}/edit`;
      return send('POST', path, { body: check(mediaEditSchema, body, 'edit') });
    };
    resource.postProcess = async (id: unknown, body: unknown = { action: 'create-image-subsizes' }) => {
      const path = `${itemPath(id, `${name}.postProcess`)}/post-process`;
      return send('POST', path, { body: check(mediaPostProcessSchema, body, 'postProcess') });
    };
  }
  return Object.freeze(resource);
}

/**
 * The revisions (`{parent}/revisions`: paginated; one is deleted only with `force: true`) or the
 * autosaves (`{parent}/autosaves`: list and create, not paginated) of one item, and one by id.
 */
function childResource(
  t: Transport,
  name: string,
  path: string,
  kind: 'revisions' | 'autosaves',
  revision: z.ZodType,
  body: z.ZodType,
  explain: Explain,
) {
  const check = (schema: z.ZodType, value: unknown, method: string) =>
    checkParams(schema, value, `${name}.${method}`) as Query;
  const one = (id: unknown, where: string) => `${path}/${encodeSegment(checkId(id, `${name}.${where}`))}`;
  const listSchema = kind === 'revisions' ? revisionListSchema : contextOnlySchema;
  const shared = {
    path,
    list: async (params?: unknown) =>
      getPage(t, revision, path, check(listSchema, params, 'list')).catch(explain),
    get: async (id: unknown, params?: unknown) => {
      const item = one(id, 'get');
      const query = check(contextOnlySchema, params, 'get');
      return (await t.sendParsed('GET', item, revision, { query }).catch(explain)).body;
    },
  };
  if (kind === 'autosaves') {
    return Object.freeze({
      ...shared,
      create: async (value: unknown) => {
        const res = await t.send('POST', path, { body: check(body, value, 'create') }).catch(explain);
        return t.parse(revision, res.body, 'POST', path, res.status);
      },
    });
  }
  return Object.freeze({
    ...shared,
    iterate: (params?: unknown, options?: IterateOptions) =>
      iterate(t, revision, path, check(revisionListSchema, params, 'iterate'), options, explain),
    delete: async (id: unknown, options?: { force?: unknown }) => {
      const item = one(id, 'delete');
      if (options?.force !== true) {
        throw invalidParam('force', 'must be true: revisions cannot be moved to the trash', `${name}.delete`);
      }
      const res = await t.send('DELETE', item, { query: { force: true } }).catch(explain);
      return parseDelete(t, revision, res.body, item, res.status);
    },
  });
}

/*
 * Plugin namespaces (spec sections 4.3–4.6). Their arguments and answers are not declared by the
 * interface: a query is scalars or lists of scalars, a body any JSON object, the answer parsed JSON.
 * A method is `[verb, route, takes, doc]`: `UPDATE` is POST, PUT or PATCH as `options.method` says
 * (default POST); `{id}` is a positive integer and `{name}` a layout name, both taken as the first
 * argument; `takes` is `query` (default), `body`, `body?` (an optional body, `{}` when left out) or
 * `id` (a notification id, sent as `{ id }`). The public interfaces (FormsResource, …) are generated
 * from this table (scripts/docs-site-types.ts): `doc` opens a method's JSDoc.
 */
type PluginMethod = readonly [
  verb: DocsSiteMethod | 'UPDATE',
  route: string,
  takes?: 'query' | 'body' | 'body?' | 'id',
  doc?: string,
];

/**
 * One plugin namespace: its interface's JSDoc, and its methods. The interface is named after the
 * client's property (`kbSettings` → `KbSettingsResource`) unless `type` says otherwise.
 */
export interface PluginRoute {
  readonly namespace: string;
  readonly type?: string;
  readonly doc: string;
  readonly methods: Readonly<Record<string, PluginMethod>>;
}

/** Layout names: a letter followed by word characters. */
const LAYOUT_NAME = /^[A-Za-z]\w*$/;

/** The plugin namespaces, keyed by the client's property name. */
export const PLUGIN_ROUTES: Record<string, PluginRoute> = {
  forms: {
    namespace: 'forms/v1',
    doc: 'Contact forms',
    methods: {
      list: ['GET', '/contact-forms'],
      create: ['POST', '/contact-forms', 'body'],
      get: ['GET', '/contact-forms/{id}'],
      update: ['UPDATE', '/contact-forms/{id}', 'body'],
      delete: ['DELETE', '/contact-forms/{id}'],
      feedback: ['POST', '/contact-forms/{id}/feedback', 'body', 'Submit a form'],
      feedbackSchema: ['GET', '/contact-forms/{id}/feedback/schema'],
      refill: ['GET', '/contact-forms/{id}/refill'],
    },
  },
  kbAiSearch: {
    namespace: 'kb-ai-search/v1',
    doc: 'The knowledge-base search assistant',
    methods: {
      startConversation: ['POST', '/start-conversation', 'body?'],
      updateConversation: ['POST', '/update-conversation', 'body'],
      checkExistingConversation: ['GET', '/check-existing-conversation'],
      updateSettings: ['GET', '/updatesettings'],
      tools: ['GET', '/tools'],
      trainAi: ['GET', '/trainai'],
      onlineStatus: ['GET', '/onlinestatus'],
      status: ['GET', '/status'],
      askAi: ['GET', '/askai'],
      rateLimitTest: ['GET', '/ratelimittest'],
      clearTrainingData: ['UPDATE', '/cleartrainingdata', 'body?'],
    },
  },
  kbSettings: {
    namespace: 'kb-settings/v1',
    doc: 'Knowledge-base settings',
    methods: {
      get: ['GET', '/get'],
      update: ['UPDATE', '/update', 'body'],
      tabGet: ['UPDATE', '/tabget', 'body?'],
      tabSet: ['UPDATE', '/tabset', 'body'],
    },
  },
  kbNotifications: {
    namespace: 'kb-notifications/v1',
    doc: 'Knowledge-base notifications',
    methods: {
      get: ['GET', '/get'],
      dismiss: ['UPDATE', '/dismiss', 'id', "Dismiss one notification by id, or every one with `'all'`"],
    },
  },
  kb: {
    namespace: 'kb/v1',
    doc: 'Knowledge-base statistics',
    methods: { serverStats: ['POST', '/server_stats', 'body?'] },
  },
  kbArticleWriter: {
    namespace: 'kb-ai-article-writer/v1',
    doc: 'The knowledge-base article writer',
    methods: { status: ['GET', '/status'], generateArticle: ['POST', '/generate-article', 'body'] },
  },
  oauthIdp: {
    namespace: 'oauth_idp_intiate',
    type: 'OAuthIdpResource',
    doc: 'The single-sign-on callback route of the site, its namespace spelt as the site spells it',
    methods: { callback: ['GET', '/mooidccallback'] },
  },
  layouts: {
    namespace: 'layoutblocks/v1',
    doc: 'Layouts and sections',
    methods: {
      favorites: ['GET', '/layouts/favorites'],
      updateFavorites: ['PATCH', '/layouts/favorites', 'body'],
      deleteFavorites: ['DELETE', '/layouts/favorites'],
      all: ['GET', '/layouts/all'],
      list: ['GET', '/layouts'],
      sections: ['GET', '/sections'],
      get: ['GET', '/layouts/{name}', 'query', 'One layout by name: a letter, then word characters'],
    },
  },
};

const scalar = z.union([z.string(), z.number(), z.boolean()]);
const pluginQuerySchema = z.record(
  z.string(),
  z.union([scalar, z.array(z.union([z.string(), z.number()])), z.undefined()]),
);
const pluginBodySchema = z.record(z.string(), z.unknown());

/** The value of a `{id}` or `{name}` path parameter, checked and encoded. */
function pathParam(param: string, value: unknown, where: string): string {
  if (param === 'id') return encodeSegment(checkId(value, where));
  if (typeof value !== 'string' || !LAYOUT_NAME.test(value)) {
    throw invalidParam('name', 'must start with a letter, followed by letters, digits or underscores', where);
  }
  return encodeSegment(value);
}

/** The query or body a plugin method sends, from its argument. */
function pluginInput(takes: PluginMethod[2] = 'query', input: unknown, where: string) {
  if (takes === 'query') return { query: checkParams(pluginQuerySchema, input, where) as Query };
  if (takes === 'id') {
    if (typeof input !== 'string' || input.trim() === '') {
      throw invalidParam('id', 'is required: a notification id, or "all"', where);
    }
    return { body: { id: input } };
  }
  const body = input === undefined && takes === 'body?' ? {} : input;
  return { body: body === undefined ? undefined : checkParams(pluginBodySchema, body, where) };
}

/** Build the resource object of one plugin namespace. */
export function pluginResource(t: Transport, name: string, spec: PluginRoute) {
  const resource: Record<string, Fn | string> = { namespace: spec.namespace };
  for (const [method, [verb, template, takes]] of Object.entries(spec.methods)) {
    const where = `${name}.${method}`;
    const param = /\{(\w+)\}/.exec(template)?.[1];
    resource[method] = async (...args: unknown[]) => {
      const route = param ? template.replace(`{${param}}`, pathParam(param, args.shift(), where)) : template;
      const [input, options] = args as [unknown, UpdateOptions | undefined];
      const httpMethod = verb === 'UPDATE' ? updateMethod(options, where) : verb;
      const { query, body } = pluginInput(takes, input, where);
      return (await t.send(httpMethod, `/${spec.namespace}${route}`, { query, body })).body;
    };
  }
  return Object.freeze(resource);
}
