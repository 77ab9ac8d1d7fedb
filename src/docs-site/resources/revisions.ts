import type { z } from 'zod';
import { invalidParam } from '../errors.js';
import { type IterateOptions, iteratePages, type Page, toPage } from '../pagination.js';
import { checkId, checkParams } from '../params/check.js';
import { contextOnlySchema, revisionListSchema } from '../params/list.js';
import { type Revision, revisionSchema } from '../schemas/content.js';
import type { Transport } from '../transport.js';
import { encodeSegment } from '../url.js';
import { type DeleteResult, parseDelete } from './shared.js';

/**
 * Revisions of one item: `/<kind>/{parent}/revisions`. Revisions cannot be trashed, so `delete`
 * requires `force: true` and refuses anything else before sending.
 *
 * @group Docs site
 */
export class RevisionsResource {
  readonly #transport: Transport;
  readonly #name: string;
  /** The collection route of these revisions. */
  readonly path: string;

  /** @internal */
  constructor(transport: Transport, name: string, parentPath: string) {
    this.#transport = transport;
    this.#name = name;
    this.path = `${parentPath}/revisions`;
  }

  /** One page of revisions. */
  async list(params?: z.input<typeof revisionListSchema>): Promise<Page<Revision>> {
    const query = checkParams(revisionListSchema, params, `${this.#name}.list`) as Record<string, unknown>;
    return this.#page(query);
  }

  /** Every revision, in order. */
  iterate(params?: z.input<typeof revisionListSchema>, options?: IterateOptions): AsyncIterable<Revision> {
    const query = checkParams(revisionListSchema, params, `${this.#name}.iterate`) as Record<string, unknown>;
    const first = typeof query.page === 'number' ? query.page : 1;
    return iteratePages((page, signal) => this.#page({ ...query, page }, signal), first, options);
  }

  async #page(query: Record<string, unknown>, signal?: AbortSignal): Promise<Page<Revision>> {
    const res = await this.#transport.send('GET', this.path, { query, signal });
    const items = this.#transport.parse(revisionSchema.array(), res.body, 'GET', this.path, res.status);
    return toPage(items, res.headers, 'GET', this.path);
  }

  /** One revision. */
  async get(id: number, params?: z.input<typeof contextOnlySchema>): Promise<Revision> {
    const where = `${this.#name}.get`;
    checkId(id, where);
    const query = checkParams(contextOnlySchema, params, where) as Record<string, unknown>;
    return (
      await this.#transport.sendParsed('GET', `${this.path}/${encodeSegment(id)}`, revisionSchema, { query })
    ).body;
  }

  /** Delete a revision for good. `force: true` is required: revisions cannot be trashed. */
  async delete(id: number, options: { force: true }): Promise<DeleteResult<Revision>> {
    const where = `${this.#name}.delete`;
    checkId(id, where);
    if (options?.force !== true) {
      throw invalidParam('force', 'must be true: revisions cannot be moved to the trash', where);
    }
    const path = `${this.path}/${encodeSegment(id)}`;
    const res = await this.#transport.send('DELETE', path, { query: { force: true } });
    return parseDelete(this.#transport, revisionSchema, res.body, 'DELETE', path, res.status);
  }
}

/**
 * Autosaves of one item: `/<kind>/{id}/autosaves` (list, create) and
 * `/<kind>/{parent}/autosaves/{id}` (get). The list is not paginated.
 *
 * @group Docs site
 */
export class AutosavesResource<B extends z.ZodType> {
  readonly #transport: Transport;
  readonly #name: string;
  readonly #body: B;
  /** The collection route of these autosaves. */
  readonly path: string;

  /** @internal */
  constructor(transport: Transport, name: string, parentPath: string, body: B) {
    this.#transport = transport;
    this.#name = name;
    this.#body = body;
    this.path = `${parentPath}/autosaves`;
  }

  /** All autosaves of the item (one page: the route is not paginated). */
  async list(params?: z.input<typeof contextOnlySchema>): Promise<Page<Revision>> {
    const query = checkParams(contextOnlySchema, params, `${this.#name}.list`) as Record<string, unknown>;
    const res = await this.#transport.send('GET', this.path, { query });
    const items = this.#transport.parse(revisionSchema.array(), res.body, 'GET', this.path, res.status);
    return toPage(items, res.headers, 'GET', this.path);
  }

  /** One autosave. */
  async get(id: number, params?: z.input<typeof contextOnlySchema>): Promise<Revision> {
    const where = `${this.#name}.get`;
    checkId(id, where);
    const query = checkParams(contextOnlySchema, params, where) as Record<string, unknown>;
    return (
      await this.#transport.sendParsed('GET', `${this.path}/${encodeSegment(id)}`, revisionSchema, { query })
    ).body;
  }

  /**
   * Create an autosave with the same fields as an update. The site answers with the autosave, or
   * with the item itself when the author saves their own draft; both are returned as they come.
   */
  async create(body: z.input<B>): Promise<Revision> {
    const checked = checkParams(this.#body, body, `${this.#name}.create`);
    const res = await this.#transport.send('POST', this.path, { body: checked });
    return this.#transport.parse(revisionSchema, res.body, 'POST', this.path, res.status);
  }
}
