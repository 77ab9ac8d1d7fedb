/**
 * Building request URLs below the REST root without ever collapsing `//` (template ids look like
 * `theme//slug`) and with PHP-style query strings (`include[]=1&include[]=2`,
 * `categories[terms][]=3`), which is what WordPress parses into arrays and objects.
 */

import { invalidParam } from './errors.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Refuse text that is not well-formed UTF-16 (a lone surrogate): it cannot be percent-encoded
 * (`encodeURIComponent` throws) and `URLSearchParams` would silently replace it with U+FFFD.
 */
export function assertWellFormed(value: string, param: string): void {
  if (LONE_SURROGATE.test(value)) {
    throw invalidParam(param, 'holds a lone UTF-16 surrogate and cannot be sent');
  }
}

/** Percent-encode one path segment; `/` never appears in a segment. */
export function encodeSegment(value: string | number): string {
  const text = String(value);
  assertWellFormed(text, 'path');
  return encodeURIComponent(text);
}

/**
 * Encode an id that may hold slashes (a template id `theme//slug`): each part between slashes is
 * percent-encoded, the slashes are kept as they are, empty parts included.
 */
export function encodeSlashedId(id: string): string {
  return id.split('/').map(encodeSegment).join('/');
}

/** Serialize parameters PHP-style. `undefined` and `null` are left out; booleans are `true`/`false`. */
export function serializeQuery(params: Readonly<Record<string, unknown>> | undefined): URLSearchParams {
  const out = new URLSearchParams();
  if (!params) return out;
  const add = (key: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    if (typeof value === 'string') assertWellFormed(value, key);
    if (Array.isArray(value)) {
      for (const item of value) add(`${key}[]`, item);
      return;
    }
    if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) add(`${key}[${k}]`, v);
      return;
    }
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      out.append(key, String(value));
    }
  };
  for (const [key, value] of Object.entries(params)) add(key, value);
  return out;
}

/** Join a base URL (no trailing slash) with a root and a route path by plain concatenation. */
export function joinRoute(base: string, restRoot: string, route: string): string {
  assertWellFormed(route, 'path');
  const r = route.startsWith('/') ? route : `/${route}`;
  return restRoot === '' ? `${base}${r}` : `${base}/${restRoot}${r === '/' ? '/' : r}`;
}

/**
 * The `?rest_route=` form: `{base}/?rest_route=/cms/v2/posts`. The route keeps its slashes (`//` of
 * template ids included) and its percent-escapes; characters that mean something in a query string
 * (`&`, `=`, `+`, `#`, …) are escaped. A query string already on the route is appended.
 */
export function queryRoute(base: string, route: string): string {
  assertWellFormed(route, 'path');
  const at = route.indexOf('?');
  const path = at === -1 ? route : route.slice(0, at);
  const rest = at === -1 ? '' : route.slice(at + 1);
  const value = (path.startsWith('/') ? path : `/${path}`).replace(/[^A-Za-z0-9\-._~!$'()*,;:@/%]/g, (c) =>
    encodeURIComponent(c),
  );
  return `${base}/?rest_route=${value}${rest ? `&${rest}` : ''}`;
}
