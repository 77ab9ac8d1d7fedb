import type { z } from 'zod';
import type { BatchRequest } from '../batch-request.js';
import { type IterateOptions, iteratePages, type Page, toPage } from '../pagination.js';
import { checkId, checkParams } from '../params/check.js';
import { contextOnlySchema, deleteSchema } from '../params/list.js';
import type { Transport } from '../transport.js';
import { encodeSegment, serializeQuery } from '../url.js';
import { AutosavesResource, RevisionsResource } from './revisions.js';
import {
  type DeleteOptions,
  type DeleteResult,
  parseDelete,
  type UpdateOptions,
  updateMethod,
} from './shared.js';

/** What distinguishes one content kind from another. */
export interface ContentKind<
  S extends z.ZodType,
  L extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType = typeof contextOnlySchema,
> {
  /** Name for messages, e.g. `posts`. */
  name: string;
  /** Route segment below the content namespace, e.g. `menu-items`. */
  route: string;
  item: S;
  list: L;
  body: B;
  read?: R;
}

/**
 * A content kind with integer ids: list, iterate, get, create, update, delete.
 *
 * @group Docs site
 */
export class ContentResource<
  S extends z.ZodType,
  L extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType = typeof contextOnlySchema,
> {
  /** @internal */
  protected readonly transport: Transport;
  /** @internal */
  protected readonly kind: ContentKind<S, L, B, R>;

  /** @internal */
  constructor(transport: Transport, kind: ContentKind<S, L, B, R>) {
    this.transport = transport;
    this.kind = kind;
  }

  /** The collection route, e.g. `/cms/v2/posts`. */
  get collectionPath(): string {
    return `/${this.transport.settings.contentNamespace}/${this.kind.route}`;
  }

  /** The route of one item. */
  itemPath(id: number): string {
    return `${this.collectionPath}/${encodeSegment(id)}`;
  }

  /** One page of the list. Parameters are checked before sending. */
  async list(params?: z.input<L>): Promise<Page<z.output<S>>> {
    const query = checkParams(this.kind.list, params, `${this.kind.name}.list`) as Record<string, unknown>;
    return this.#page(query);
  }

  /**
   * Every item of the list, in order, fetching later pages with bounded concurrency.
   *
   * @example
   * ```ts
   * for await (const post of docs.posts.iterate({ per_page: 100 })) console.log(post.id);
   * ```
   */
  iterate(params?: z.input<L>, options?: IterateOptions): AsyncIterable<z.output<S>> {
    const query = checkParams(this.kind.list, params, `${this.kind.name}.iterate`) as Record<string, unknown>;
    const first = typeof query.page === 'number' ? query.page : 1;
    return iteratePages((page, signal) => this.#page({ ...query, page }, signal), first, options);
  }

  async #page(query: Record<string, unknown>, signal?: AbortSignal): Promise<Page<z.output<S>>> {
    const path = this.collectionPath;
    const res = await this.transport.send('GET', path, { query, signal });
    const items = this.transport.parse(
      (this.kind.item as z.ZodType).array(),
      res.body,
      'GET',
      path,
      res.status,
    ) as z.output<S>[];
    return toPage(items, res.headers, 'GET', path);
  }

  /** One item. */
  async get(id: number, params?: z.input<R>): Promise<z.output<S>> {
    const where = `${this.kind.name}.get`;
    checkId(id, where);
    const query = checkParams(this.kind.read ?? contextOnlySchema, params, where) as Record<string, unknown>;
    return (await this.transport.sendParsed('GET', this.itemPath(id), this.kind.item, { query })).body;
  }

  /** Create an item; resolves only with the site's confirmation (the created item). */
  async create(body: z.input<B>): Promise<z.output<S>> {
    const checked = checkParams(this.kind.body, body, `${this.kind.name}.create`);
    return (await this.transport.sendParsed('POST', this.collectionPath, this.kind.item, { body: checked }))
      .body;
  }

  /** Update an item (POST by default; PUT or PATCH on request). */
  async update(id: number, body: z.input<B>, options?: UpdateOptions): Promise<z.output<S>> {
    const where = `${this.kind.name}.update`;
    checkId(id, where);
    const method = updateMethod(options, where);
    const checked = checkParams(this.kind.body, body, where);
    return (await this.transport.sendParsed(method, this.itemPath(id), this.kind.item, { body: checked }))
      .body;
  }

  /** Delete an item: to the trash, or for good with `force: true`. */
  async delete(id: number, options?: DeleteOptions): Promise<DeleteResult<z.output<S>>> {
    const where = `${this.kind.name}.delete`;
    checkId(id, where);
    const query = checkParams(deleteSchema, options, where);
    const path = this.itemPath(id);
    const res = await this.transport.send('DELETE', path, { query });
    return parseDelete(this.transport, this.kind.item, res.body, 'DELETE', path, res.status);
  }
}

/**
 * A content kind that the batch route accepts (posts, pages, menu items, blocks): builds
 * {@link BatchRequest}s for `DocsSiteClient.batch()`, checked like the direct calls.
 *
 * @group Docs site
 */
export class BatchableContentResource<
  S extends z.ZodType,
  L extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType = typeof contextOnlySchema,
> extends ContentResource<S, L, B, R> {
  /** A batch item that creates an item. */
  batchCreate(body: z.input<B>): BatchRequest {
    const checked = checkParams(this.kind.body, body, `${this.kind.name}.batchCreate`) as Record<
      string,
      unknown
    >;
    return { method: 'POST', path: this.collectionPath, body: checked };
  }

  /** A batch item that updates an item. */
  batchUpdate(id: number, body: z.input<B>, options?: UpdateOptions): BatchRequest {
    const where = `${this.kind.name}.batchUpdate`;
    checkId(id, where);
    const method = updateMethod(options, where);
    const checked = checkParams(this.kind.body, body, where) as Record<string, unknown>;
    return { method, path: this.itemPath(id), body: checked };
  }

  /** A batch item that deletes an item (`force` goes in the path's query string). */
  batchDelete(id: number, options?: DeleteOptions): BatchRequest {
    const where = `${this.kind.name}.batchDelete`;
    checkId(id, where);
    const query = serializeQuery(checkParams(deleteSchema, options, where)).toString();
    return { method: 'DELETE', path: query ? `${this.itemPath(id)}?${query}` : this.itemPath(id) };
  }
}

/**
 * A batch-capable content kind with autosaves (menu items).
 *
 * @group Docs site
 */
export class AutosavedContentResource<
  S extends z.ZodType,
  L extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType = typeof contextOnlySchema,
> extends BatchableContentResource<S, L, B, R> {
  /** Autosaves of one item. */
  autosaves(parent: number): AutosavesResource<B> {
    checkId(parent, `${this.kind.name}.autosaves`, 'parent');
    return new AutosavesResource(
      this.transport,
      `${this.kind.name}.autosaves`,
      this.itemPath(parent),
      this.kind.body,
    );
  }
}

/**
 * A batch-capable content kind with revisions and autosaves (posts, pages, blocks).
 *
 * @group Docs site
 */
export class RevisedContentResource<
  S extends z.ZodType,
  L extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType = typeof contextOnlySchema,
> extends AutosavedContentResource<S, L, B, R> {
  /** Revisions of one item. */
  revisions(parent: number): RevisionsResource {
    checkId(parent, `${this.kind.name}.revisions`, 'parent');
    return new RevisionsResource(this.transport, `${this.kind.name}.revisions`, this.itemPath(parent));
  }
}
