import { checkId } from '../params/check.js';
import { encodeSegment } from '../url.js';
import { type JsonObject, PluginNamespace, type PluginQuery } from './plugin-base.js';
import { type UpdateOptions, updateMethod } from './shared.js';

/**
 * Contact forms (`/forms/v1`). The interface does not declare these routes' arguments nor their
 * answers: bodies are plain JSON objects and answers are returned as parsed JSON.
 *
 * @group Docs site
 */
export class FormsResource extends PluginNamespace {
  readonly namespace = 'forms/v1';

  #item(id: number, where: string): string {
    return `/contact-forms/${encodeSegment(checkId(id, where))}`;
  }

  /** `GET /contact-forms`. */
  async list(query?: PluginQuery): Promise<unknown> {
    return this.call('GET', '/contact-forms', 'forms.list', { query });
  }
  /** `POST /contact-forms`. */
  async create(body: JsonObject): Promise<unknown> {
    return this.call('POST', '/contact-forms', 'forms.create', { body });
  }
  /** `GET /contact-forms/{id}`. */
  async get(id: number, query?: PluginQuery): Promise<unknown> {
    return this.call('GET', this.#item(id, 'forms.get'), 'forms.get', { query });
  }
  /** `POST|PUT|PATCH /contact-forms/{id}`. */
  async update(id: number, body: JsonObject, options?: UpdateOptions): Promise<unknown> {
    const method = updateMethod(options, 'forms.update');
    return this.call(method, this.#item(id, 'forms.update'), 'forms.update', { body });
  }
  /** `DELETE /contact-forms/{id}`. */
  async delete(id: number, query?: PluginQuery): Promise<unknown> {
    return this.call('DELETE', this.#item(id, 'forms.delete'), 'forms.delete', { query });
  }
  /** Submit a form: `POST /contact-forms/{id}/feedback`. */
  async feedback(id: number, body: JsonObject): Promise<unknown> {
    return this.call('POST', `${this.#item(id, 'forms.feedback')}/feedback`, 'forms.feedback', { body });
  }
  /** `GET /contact-forms/{id}/feedback/schema`. */
  async feedbackSchema(id: number): Promise<unknown> {
    return this.call(
      'GET',
      `${this.#item(id, 'forms.feedbackSchema')}/feedback/schema`,
      'forms.feedbackSchema',
    );
  }
  /** `GET /contact-forms/{id}/refill`. */
  async refill(id: number, query?: PluginQuery): Promise<unknown> {
    return this.call('GET', `${this.#item(id, 'forms.refill')}/refill`, 'forms.refill', { query });
  }
}
