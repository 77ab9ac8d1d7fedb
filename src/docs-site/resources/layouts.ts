import { invalidParam } from '../errors.js';
import { encodeSegment } from '../url.js';
import { type JsonObject, PluginNamespace, type PluginQuery } from './plugin-base.js';

/** Layout names: a letter followed by word characters. */
export const LAYOUT_NAME = /^[A-Za-z]\w*$/;

/**
 * Layouts and sections (`/layoutblocks/v1`).
 *
 * @group Docs site
 */
export class LayoutsResource extends PluginNamespace {
  readonly namespace = 'layoutblocks/v1';

  /** `GET /layouts/favorites`. */
  async favorites(query?: PluginQuery): Promise<unknown> {
    return this.call('GET', '/layouts/favorites', 'layouts.favorites', { query });
  }
  /** `PATCH /layouts/favorites`. */
  async updateFavorites(body: JsonObject): Promise<unknown> {
    return this.call('PATCH', '/layouts/favorites', 'layouts.updateFavorites', { body });
  }
  /** `DELETE /layouts/favorites`. */
  async deleteFavorites(query?: PluginQuery): Promise<unknown> {
    return this.call('DELETE', '/layouts/favorites', 'layouts.deleteFavorites', { query });
  }
  /** `GET /layouts/all`. */
  async all(query?: PluginQuery): Promise<unknown> {
    return this.call('GET', '/layouts/all', 'layouts.all', { query });
  }
  /** `GET /layouts`. */
  async list(query?: PluginQuery): Promise<unknown> {
    return this.call('GET', '/layouts', 'layouts.list', { query });
  }
  /** `GET /sections`. */
  async sections(query?: PluginQuery): Promise<unknown> {
    return this.call('GET', '/sections', 'layouts.sections', { query });
  }
  /** One layout by name (`GET /layouts/<name>`); the name starts with a letter, then word characters. */
  async get(name: string, query?: PluginQuery): Promise<unknown> {
    if (typeof name !== 'string' || !LAYOUT_NAME.test(name)) {
      throw invalidParam(
        'name',
        'must start with a letter, followed by letters, digits or underscores',
        'layouts.get',
      );
    }
    return this.call('GET', `/layouts/${encodeSegment(name)}`, 'layouts.get', { query });
  }
}
