import type { z } from 'zod';
import { docsSiteRequestChannel, traceAsync } from '../diagnostics/channels.js';
import type { HttpClient } from '../http/client.js';
import { DocsSiteError } from './errors.js';
import type { DocsSiteMethod, DocsSiteResponse } from './types/resources.js';
import { joinRoute, queryRoute, serializeQuery } from './url.js';

/** What a request carries. */
export interface SendOptions {
  query?: Readonly<Record<string, unknown>> | undefined;
  /** A JSON body (POST, PUT, PATCH). */
  body?: unknown;
  /** A raw body with its content type (media upload). */
  raw?: { data: Uint8Array | Blob; contentType: string } | undefined;
  headers?: Readonly<Record<string, string>> | undefined;
  /** Return a 2xx body as text instead of parsing JSON (oEmbed `format=xml`). */
  text?: boolean;
  /** Cancels the request (a `TransportError` with code `aborted`). */
  signal?: AbortSignal | undefined;
}

/** Immutable settings shared by a client and its resources. */
export interface TransportSettings {
  readonly base: string;
  readonly restRoot: string;
  readonly routeStyle: 'path' | 'query';
  readonly contentNamespace: string;
  readonly username: string | undefined;
}

const WP_ERROR = (v: unknown): v is { code: string; message?: unknown; data?: unknown } =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  typeof (v as { code?: unknown }).code === 'string';

/**
 * The one place requests to the site are built, sent and their answers checked. Internal: resources
 * call it; users reach it through `DocsSiteClient.request()`.
 */
export class Transport {
  readonly settings: TransportSettings;
  readonly http: HttpClient;
  // Private, so inspecting or serializing a client never shows the Basic credentials.
  readonly #authorization: string | undefined;

  constructor(settings: TransportSettings, http: HttpClient, authorization: string | undefined) {
    this.settings = settings;
    this.http = http;
    this.#authorization = authorization;
  }

  /** Send a request; resolves with the parsed JSON body for 2xx, throws a {@link DocsSiteError} otherwise. */
  send(method: DocsSiteMethod, route: string, options: SendOptions = {}): Promise<DocsSiteResponse> {
    return traceAsync(
      docsSiteRequestChannel,
      () => ({
        method,
        route: routeTemplate(route),
        serverAddress: new URL(this.settings.base).host,
        ...(options.raw?.data instanceof Uint8Array ? { requestBytes: options.raw.data.byteLength } : {}),
      }),
      () => this.#send(method, route, options),
      (ctx, response) => {
        ctx.status = response.status;
      },
    );
  }

  async #send(method: DocsSiteMethod, route: string, options: SendOptions): Promise<DocsSiteResponse> {
    const headers = new Headers(options.headers);
    if (!headers.has('accept')) headers.set('accept', 'application/json');
    if (this.#authorization) headers.set('authorization', this.#authorization);
    let body: BodyInit | undefined;
    if (options.raw) {
      headers.set('content-type', options.raw.contentType);
      body = options.raw.data as Uint8Array<ArrayBuffer> | Blob;
    } else if (options.body !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(options.body);
    }
    // The full URL of the route below the REST root, with a PHP-style query string.
    const qs = serializeQuery(options.query).toString();
    const { base, restRoot, routeStyle } = this.settings;
    const target = routeStyle === 'query' ? queryRoute(base, route) : joinRoute(base, restRoot, route);
    const url = qs ? `${target}${target.includes('?') ? '&' : '?'}${qs}` : target;
    const response = await this.http.fetch(url, {
      method,
      headers,
      body,
      // A redirected POST silently becomes a GET that "succeeds": never follow redirects of writes.
      redirect: method === 'GET' ? 'follow' : 'manual',
      signal: options.signal,
    });
    const text = await response.text();
    const status = response.status;
    if (status >= 300 && status < 400) {
      const message = this.#msg(`${method} ${route}: the site redirected (${status}); not followed`);
      throw new DocsSiteError(message, { code: 'unexpected_redirect', status, method, path: route });
    }
    if (options.text && status < 300) return { status, headers: response.headers, body: text };
    let parsed: unknown = null;
    let jsonError: unknown;
    if (text.trim() !== '') {
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        jsonError = error;
      }
    }
    const jsonOk = jsonError === undefined;
    const html = /\bhtml\b/i.test(response.headers.get('content-type') ?? '') || /^\s*</.test(text);
    // WordPress answers every route below a working REST root with JSON (an unknown route too:
    // rest_no_route). A 404 without a WordPress error, or an HTML page, comes from something else.
    if (status === 404 && !(jsonOk && WP_ERROR(parsed))) {
      throw this.notRestApi(method, route, status, html ? 'an HTML page' : 'no WordPress error');
    }
    if (status >= 400) throw this.errorFor(method, route, status, jsonOk ? parsed : undefined);
    if (!jsonOk && html) throw this.notRestApi(method, route, status, 'an HTML page');
    if (!jsonOk) {
      throw new DocsSiteError(
        this.#msg(`${method} ${route}: the site answered ${status} with a body that is not JSON`),
        { code: 'invalid_response', status, method, path: route, cause: jsonError },
      );
    }
    return { status, headers: response.headers, body: parsed };
  }

  /** Send and check the body against a schema. */
  async sendParsed<S extends z.ZodType>(
    method: DocsSiteMethod,
    route: string,
    schema: S,
    options: SendOptions = {},
  ): Promise<DocsSiteResponse<z.output<S>>> {
    const response = await this.send(method, route, options);
    return { ...response, body: this.parse(schema, response.body, method, route, response.status) };
  }

  /**
   * Check a value against a schema; a mismatch is an `invalid_response` error naming the field.
   * `route` is empty when the value did not come with a request (`posts.parse(value)`): `method`
   * then names the caller.
   */
  parse<S extends z.ZodType>(
    schema: S,
    value: unknown,
    method: string,
    route: string,
    status?: number,
  ): z.output<S> {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at "${issue.path.join('.')}"` : '';
    const label = route ? `${method} ${route}: the answer` : `${method}: the value`;
    throw new DocsSiteError(
      this.#msg(`${label} does not have the documented shape${where}: ${issue?.message ?? 'invalid'}`),
      route
        ? { code: 'invalid_response', status, method, path: route, cause: result.error }
        : { code: 'invalid_response', cause: result.error },
    );
  }

  /**
   * The error for an answer that did not come from the WordPress REST API (a wrong REST root or base
   * address, pretty permalinks off, or not a WordPress site): it says what was tried and what to check.
   */
  notRestApi(method: string, route: string, status: number, what: string): DocsSiteError {
    const { base, restRoot, routeStyle } = this.settings;
    const tried =
      routeStyle === 'query' ? `${base}/?rest_route=/` : `${base}/${restRoot ? `${restRoot}/` : ''}`;
    const check =
      routeStyle === 'query'
        ? `baseUrl (${base}), and that the site runs WordPress at all`
        : `restRoot ("${restRoot}"; the default is "wp-json", and a site without pretty permalinks answers only at ?rest_route=, routeStyle: 'query'), baseUrl (${base}), and that the site runs WordPress at all`;
    return new DocsSiteError(
      this.#msg(
        `${method} ${route}: the site answered ${status} with ${what}, not the WordPress REST API (looked for it at ${tried}). Check ${check}`,
      ),
      { code: 'rest_api_not_found', status, method, path: route },
    );
  }

  /** Build the error for an error status and body (also used for the items of a batch). */
  errorFor(method: string, route: string, status: number, body: unknown): DocsSiteError {
    const authConfigured = this.#authorization !== undefined;
    if (!WP_ERROR(body)) {
      const code = status === 401 && authConfigured ? 'credentials_refused' : 'http_error';
      const message = this.#msg(`${method} ${route}: the site answered ${status}`);
      return new DocsSiteError(message, { code, status, method, path: route });
    }
    const serverMessage = typeof body.message === 'string' ? body.message : '';
    const data = this.#redactData(body.data);
    if (status === 401 && authConfigured) {
      return new DocsSiteError(
        this.#msg(
          `${method} ${route}: the site refused the credentials of "${this.settings.username}" (401 ${body.code}: ${serverMessage}); check the user name and application password`,
        ),
        { code: 'credentials_refused', serverCode: body.code, status, data, method, path: route },
      );
    }
    const ns = this.settings.contentNamespace;
    const hint =
      status === 403 && authConfigured
        ? ` (the user "${this.settings.username}" is not allowed to do this, or its credentials were refused)`
        : body.code === 'rest_no_route' && route.startsWith(`/${ns}/`) && ns !== 'wp/v2'
          ? ` (a stock WordPress names the content namespace wp/v2: use DocsSiteClient.connect() or contentNamespace: 'wp/v2')`
          : '';
    const message = this.#msg(`${method} ${route}: ${status} ${body.code}: ${serverMessage}${hint}`);
    return new DocsSiteError(message, { code: body.code, status, data, method, path: route });
  }

  #msg(text: string): string {
    return this.http.redact(text);
  }

  #redactData(data: unknown): unknown {
    if (data === undefined) return undefined;
    try {
      return JSON.parse(this.http.redact(JSON.stringify(data)));
    } catch {
      return undefined;
    }
  }
}

/**
 * A route as a low-cardinality template for telemetry: numeric ids and template ids (`theme//slug`)
 * become `{id}`, the query is dropped. `/wp/v2/templates/t//home/revisions/7` →
 * `/wp/v2/templates/{id}/revisions/{id}`.
 */
export function routeTemplate(route: string): string {
  const path = route.split('?', 1)[0] ?? '';
  return path
    .replace(/\/(templates|template-parts)\/(?!lookup(?:\/|$))[^/]+\/\/[^/]+/, '/$1/{id}')
    .replace(/\/\d+(?=\/|$)/g, '/{id}');
}
