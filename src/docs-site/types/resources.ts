/*
 * The public types of the client: only those (the entry point re-exports this module whole).
 *
 * The answers of the site and what scripts send (list and read parameters, request bodies) are
 * generated from the zod schemas that check them at run time (scripts/docs-site-types.ts →
 * ./generated.ts): one source, no zod in the public types. Nearly every member of an answer is
 * optional, because `context=embed` and `_fields` return subsets, and every answer object keeps unknown
 * members, because plugins register their own fields. Optional parameters also take `undefined` (for
 * `exactOptionalPropertyTypes`); an `undefined` member is not sent.
 *
 * The resource objects are built from one route table (src/docs-site/routes.ts), and each resource's
 * interface (PostsResource, FormsResource, …) is generated from the same table out of the pieces
 * here: a capability the interface does not have (revisions of menu items, batch items of media) is
 * absent both there and at run time.
 */
export type * from './generated.js';

import type { BatchRequest } from '../batch-request.js';
import type { IterateOptions, Page } from '../pagination.js';
import type { UploadSource } from '../upload.js';
import type {
  ContextParams,
  DeleteOptions,
  Media,
  MediaBody,
  MediaEditBody,
  MediaPostProcessBody,
  OEmbed,
  OEmbedEmbedParams,
  OEmbedProxyParams,
  Revision,
  RevisionListParams,
  TemplateLookupParams,
  TemplateRevision,
} from './generated.js';

/** HTTP methods the interface uses. */
export type DocsSiteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * An answer of the site: status, headers and the parsed JSON body.
 *
 * @group Docs site
 */
export interface DocsSiteResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** Options of an update. @group Docs site */
export interface UpdateOptions {
  /** The method used; the site accepts POST, PUT and PATCH for updates. Default `POST`. */
  method?: 'POST' | 'PUT' | 'PATCH' | undefined;
}

/**
 * The outcome of a delete: `deleted: true` when the item is gone for good (`force: true`), `false`
 * when it was moved to the trash; `item` is the item as it was (or is now, in the trash).
 *
 * @group Docs site
 */
export interface DeleteResult<T> {
  deleted: boolean;
  item: T;
}

/**
 * The operations every content kind has: list, get, create, update, delete.
 *
 * @typeParam T - the item
 * @typeParam L - list parameters
 * @typeParam C - body of a create
 * @typeParam U - body of an update
 * @typeParam R - parameters of a read
 * @typeParam Id - `number`, or `string` for templates (`theme//slug`)
 * @group Docs site
 */
export interface ContentResource<T, L, C, U = C, R = ContextParams, Id = number> {
  /** The collection route, e.g. `/cms/v2/posts`. */
  readonly collectionPath: string;
  /** The route of one item; a template id keeps its slashes. */
  itemPath(id: Id): string;
  /** One page of the list (templates: every item; the route is not paginated). Parameters are checked before sending. */
  list(params?: L): Promise<Page<T>>;
  /** One item. */
  get(id: Id, params?: R): Promise<T>;
  /** Create an item; resolves only with the site's confirmation (the created item). */
  create(body: C): Promise<T>;
  /** Update an item (POST by default; PUT or PATCH on request). */
  update(id: Id, body: U, options?: UpdateOptions): Promise<T>;
  /** Delete an item: to the trash, or for good with `force: true`. */
  delete(id: Id, options?: DeleteOptions): Promise<DeleteResult<T>>;
  /**
   * Check a value against the documented shape of an item (unknown fields kept), e.g. the `body` of
   * a batch result; throws a `DocsSiteError` with code `invalid_response` naming the field.
   */
  parse(value: unknown): T;
}

/** A paginated content kind. @group Docs site */
export interface IterableResource<T, L> {
  /**
   * Every item of the list, in order, fetching later pages with bounded concurrency.
   *
   * @example
   * ```ts
   * for await (const post of docs.posts.iterate({ per_page: 100 })) console.log(post.id);
   * ```
   */
  iterate(params?: L, options?: IterateOptions): AsyncIterable<T>;
}

/** A content kind the batch route accepts: builds {@link BatchRequest}s, checked like the direct calls. @group Docs site */
export interface BatchableResource<B> {
  /** A batch item that creates an item. */
  batchCreate(body: B): BatchRequest;
  /** A batch item that updates an item. */
  batchUpdate(id: number, body: B, options?: UpdateOptions): BatchRequest;
  /** A batch item that deletes an item (`force` goes in the path's query string). */
  batchDelete(id: number, options?: DeleteOptions): BatchRequest;
}

/**
 * Revisions of one item: `/<kind>/{parent}/revisions`. Revisions cannot be trashed, so `delete`
 * requires `force: true` and refuses anything else before sending. A revision's id is a number (for
 * templates, the revision's `wp_id`).
 *
 * @typeParam T - a revision: {@link Revision}, or {@link TemplateRevision} for templates
 * @group Docs site
 */
export interface RevisionsResource<T = Revision> {
  /** The collection route of these revisions. */
  readonly path: string;
  /** One page of revisions. */
  list(params?: RevisionListParams): Promise<Page<T>>;
  /** Every revision, in order. */
  iterate(params?: RevisionListParams, options?: IterateOptions): AsyncIterable<T>;
  /** One revision. */
  get(id: number, params?: ContextParams): Promise<T>;
  /** Delete a revision for good. `force: true` is required: revisions cannot be trashed. */
  delete(id: number, options: { force: true }): Promise<DeleteResult<T>>;
}

/**
 * Autosaves of one item: `/<kind>/{id}/autosaves` (list, create) and `/<kind>/{parent}/autosaves/{id}`
 * (get). The list is not paginated.
 *
 * @typeParam T - an autosave: {@link Revision}, or {@link TemplateRevision} for templates
 * @group Docs site
 */
export interface AutosavesResource<B, T = Revision> {
  /** The collection route of these autosaves. */
  readonly path: string;
  /** All autosaves of the item (one page). */
  list(params?: ContextParams): Promise<Page<T>>;
  /** One autosave. */
  get(id: number, params?: ContextParams): Promise<T>;
  /**
   * Create an autosave with the same fields as an update. The site answers with the autosave, or
   * with the item itself when the author saves their own draft; both are returned as they come.
   */
  create(body: B): Promise<T>;
}

/** A content kind with revisions. @group Docs site */
export interface RevisedResource<Id = number, T = Revision> {
  /** Revisions of one item. */
  revisions(parent: Id): RevisionsResource<T>;
}

/** A content kind with autosaves. @group Docs site */
export interface AutosavedResource<B, Id = number, T = Revision> {
  /** Autosaves of one item. */
  autosaves(parent: Id): AutosavesResource<B, T>;
}

/** A content kind with a fallback lookup (templates, template parts). @group Docs site */
export interface LookupResource<T> {
  /** The fallback template (or template part) for a slug (`GET /lookup`). */
  lookup(params: TemplateLookupParams): Promise<T>;
}

/**
 * Options of `media.upload()`.
 *
 * @group Docs site
 */
export interface UploadOptions {
  /** The file name the site stores. Default: the path's base name, or a `File`'s name; otherwise required. */
  filename?: string | undefined;
  /** The MIME type. Default: the `Blob`'s type, or guessed from the file name's extension; otherwise required. */
  contentType?: string | undefined;
  /** Fields of the new attachment (title, caption, alt_text, description, post, status…), checked like an update. */
  fields?: MediaBody | undefined;
}

/** Media's own routes: upload, edit and post-process. @group Docs site */
export interface UploadableResource {
  /**
   * Upload a file as a new attachment: the bytes are the request body, with `Content-Type` and a
   * `Content-Disposition` carrying the file name; `fields` go in the query string.
   *
   * @example
   * ```ts
   * const logo = await docs.media.upload('./logo.png', { fields: { alt_text: 'Our logo' } });
   * ```
   */
  upload(source: UploadSource, options?: UploadOptions): Promise<Media>;
  /**
   * Edit an image (`POST /media/{id}/edit`): flip, rotate and crop modifiers (at least one), or the
   * deprecated `rotation` / `x`, `y`, `width`, `height`. The site answers with a new attachment.
   */
  edit(id: number, body: MediaEditBody): Promise<Media>;
  /** Finish server-side processing of an upload (`action: 'create-image-subsizes'`, the default). */
  postProcess(id: number, body?: MediaPostProcessBody): Promise<Media>;
}

/** A JSON object sent to a plugin route whose arguments the interface does not declare. @group Docs site */
export type JsonObject = Record<string, unknown>;

/** Query parameters of plugin routes: scalars or lists of scalars. @group Docs site */
export type PluginQuery = Record<
  string,
  string | number | boolean | readonly (string | number)[] | undefined
>;

/** What every plugin namespace resource has. Answers are not described by the interface: parsed JSON. */
export interface PluginResource {
  /** The namespace, e.g. `forms/v1`. */
  readonly namespace: string;
}

/** oEmbed (`/oembed/1.0`). With `format: 'xml'` the answer is returned as text. @group Docs site */
export interface OEmbedResource {
  /** oEmbed data of a URL on this site. */
  embed(params: OEmbedEmbedParams & { format: 'xml' }): Promise<string>;
  embed(params: OEmbedEmbedParams): Promise<OEmbed>;
  /** oEmbed data of any URL, fetched by the site (needs an authenticated user). */
  proxy(params: OEmbedProxyParams & { format: 'xml' }): Promise<string>;
  proxy(params: OEmbedProxyParams): Promise<OEmbed>;
}
