/**
 * One request inside a `/batch/v1` call. `path` is relative to the REST root (`/wp/v2/posts/5`)
 * and may carry a query string.
 *
 * @group Docs site
 */
export interface BatchRequest {
  /** Default `POST`. */
  method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string | string[]>;
}
