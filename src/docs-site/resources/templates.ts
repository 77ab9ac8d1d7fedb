import type { z } from 'zod';
import type { Page } from '../pagination.js';
import { toPage } from '../pagination.js';
import { checkParams, checkTemplateId } from '../params/check.js';
import { contextOnlySchema, deleteSchema, templateListSchema, templateLookupSchema } from '../params/list.js';
import { type Template, templateSchema } from '../schemas/content.js';
import type { Transport } from '../transport.js';
import { encodeSlashedId } from '../url.js';
import { AutosavesResource, RevisionsResource } from './revisions.js';
import {
  type DeleteOptions,
  type DeleteResult,
  parseDelete,
  type UpdateOptions,
  updateMethod,
} from './shared.js';

/**
 * Templates (`/{ns}/templates`) or template parts (`/{ns}/template-parts`). Ids are strings made
 * of a theme, a slash and a slug — `twentytwentythree//home` — and keep their slashes in the path.
 * The list is not paginated.
 *
 * @group Docs site
 */
export class TemplatesResource<C extends z.ZodType, U extends z.ZodType> {
  readonly #transport: Transport;
  readonly #name: string;
  readonly #route: string;
  readonly #create: C;
  readonly #update: U;

  /** @internal */
  constructor(transport: Transport, name: string, route: string, create: C, update: U) {
    this.#transport = transport;
    this.#name = name;
    this.#route = route;
    this.#create = create;
    this.#update = update;
  }

  /** The collection route, e.g. `/cms/v2/templates`. */
  get collectionPath(): string {
    return `/${this.#transport.settings.contentNamespace}/${this.#route}`;
  }

  /** The route of one template; slashes of the id are kept, `//` included. */
  itemPath(id: string): string {
    return `${this.collectionPath}/${encodeSlashedId(checkTemplateId(id, `${this.#name}.itemPath`))}`;
  }

  /** All templates (one page; the route is not paginated). */
  async list(params?: z.input<typeof templateListSchema>): Promise<Page<Template>> {
    const query = checkParams(templateListSchema, params, `${this.#name}.list`) as Record<string, unknown>;
    const res = await this.#transport.send('GET', this.collectionPath, { query });
    const items = this.#transport.parse(
      templateSchema.array(),
      res.body,
      'GET',
      this.collectionPath,
      res.status,
    );
    return toPage(items, res.headers, 'GET', this.collectionPath);
  }

  /** The fallback template for a slug (`GET /lookup`). */
  async lookup(params: z.input<typeof templateLookupSchema>): Promise<Template> {
    const query = checkParams(templateLookupSchema, params, `${this.#name}.lookup`) as Record<
      string,
      unknown
    >;
    return (
      await this.#transport.sendParsed('GET', `${this.collectionPath}/lookup`, templateSchema, { query })
    ).body;
  }

  /** One template. */
  async get(id: string, params?: z.input<typeof contextOnlySchema>): Promise<Template> {
    const where = `${this.#name}.get`;
    checkTemplateId(id, where);
    const query = checkParams(contextOnlySchema, params, where) as Record<string, unknown>;
    return (await this.#transport.sendParsed('GET', this.itemPath(id), templateSchema, { query })).body;
  }

  /** Create a template; `slug` is required and must match the slug pattern. */
  async create(body: z.input<C>): Promise<Template> {
    const checked = checkParams(this.#create, body, `${this.#name}.create`);
    return (await this.#transport.sendParsed('POST', this.collectionPath, templateSchema, { body: checked }))
      .body;
  }

  /** Update a template. */
  async update(id: string, body: z.input<U>, options?: UpdateOptions): Promise<Template> {
    const where = `${this.#name}.update`;
    checkTemplateId(id, where);
    const method = updateMethod(options, where);
    const checked = checkParams(this.#update, body, where);
    return (await this.#transport.sendParsed(method, this.itemPath(id), templateSchema, { body: checked }))
      .body;
  }

  /** Delete a template: to the trash, or for good with `force: true`. */
  async delete(id: string, options?: DeleteOptions): Promise<DeleteResult<Template>> {
    const where = `${this.#name}.delete`;
    checkTemplateId(id, where);
    const query = checkParams(deleteSchema, options, where);
    const path = this.itemPath(id);
    const res = await this.#transport.send('DELETE', path, { query });
    return parseDelete(this.#transport, templateSchema, res.body, 'DELETE', path, res.status);
  }

  /** Revisions of a template (the string id is the parent). */
  revisions(parent: string): RevisionsResource {
    checkTemplateId(parent, `${this.#name}.revisions`, 'parent');
    return new RevisionsResource(this.#transport, `${this.#name}.revisions`, this.itemPath(parent));
  }

  /** Autosaves of a template (the string id is the parent). */
  autosaves(parent: string): AutosavesResource<U> {
    checkTemplateId(parent, `${this.#name}.autosaves`, 'parent');
    return new AutosavesResource(
      this.#transport,
      `${this.#name}.autosaves`,
      this.itemPath(parent),
      this.#update,
    );
  }
}
