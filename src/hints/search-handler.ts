/**
 * The type-ahead endpoint behind `<institution-picker>`: `GET ?q=&lang=&country=&limit=&recent=…` →
 * JSON. Built by {@link HintFeed.searchHandler}; Web `Request → Response`, so it mounts in Hono, Next,
 * Fastify or Express (through their Web adapters) alike.
 */
import { base64url, digest } from '../core/crypto.js';
import { OptionsError } from '../core/errors.js';
import type { HintSearchOptions, HintSearchResult } from './types.js';

/**
 * Options of {@link HintFeed.searchHandler}.
 *
 * @group Hints
 */
export interface SearchHandlerOptions {
  /** Results when the request gives no `limit`. Default 10. */
  defaultLimit?: number | undefined;
  /** Largest `limit` a request may ask for (more is a 400). Default 50, at most 1000. */
  maxLimit?: number | undefined;
  /** Longest `q`, in characters (longer is a 400). Default 100. */
  maxQueryLength?: number | undefined;
  /**
   * Origins (`https://shop.example`) whose pages may call the endpoint from the browser (CORS). Default
   * none: only pages of the endpoint's own origin can read the answers (the picker is served by the
   * shop, so that is the usual case). `'*'` allows any origin.
   */
  allowOrigins?: readonly string[] | '*' | undefined;
  /** `Cache-Control: max-age` of answers, in seconds (0: `no-cache`, revalidate with the ETag). Default 60. */
  maxAgeSeconds?: number | undefined;
}

/** One institution of `recent` that the list still has, with its name in `lang`. @group Hints */
export interface KnownInstitution {
  readonly entityId: string;
  readonly name: string;
  readonly country: string | undefined;
}

/** The JSON body of a successful answer. @group Hints */
export interface SearchResponseBody {
  readonly query: string;
  readonly results: readonly HintSearchResult[];
  /** The entityIDs of `recent` that the list still has (the picker forgets the others), in request order. */
  readonly recent: readonly KnownInstitution[];
}

/** What the handler needs from the feed. */
export interface SearchSource {
  search(query: string, options: HintSearchOptions): HintSearchResult[];
  get(entityId: string): { readonly country: string | undefined } | undefined;
  displayName(entityId: string, lang?: string): string | undefined;
}

const LANG_RE = /^[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*$/;
const COUNTRY_RE = /^[A-Za-z]{2}$/;
const MAX_RECENT = 10;
const MAX_ENTITY_ID = 1024;
const KNOWN_PARAMS = new Set(['q', 'lang', 'country', 'limit', 'recent']);

class BadRequest extends Error {}

function int(name: string, value: unknown, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new OptionsError(`${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

/**
 * @param source the feed
 * @param version changes whenever the list served changes (part of the ETag)
 */
export function createSearchHandler(
  source: SearchSource,
  version: () => string,
  options: SearchHandlerOptions = {},
): (request: Request) => Promise<Response> {
  if (typeof options !== 'object' || options === null)
    throw new OptionsError('searchHandler options must be an object');
  const maxLimit = int('maxLimit', options.maxLimit, 1, 1000) ?? 50;
  const defaultLimit = int('defaultLimit', options.defaultLimit, 1, maxLimit) ?? Math.min(10, maxLimit);
  const maxQueryLength = int('maxQueryLength', options.maxQueryLength, 1, 1000) ?? 100;
  const maxAge = int('maxAgeSeconds', options.maxAgeSeconds, 0, 86_400) ?? 60;
  const allow = options.allowOrigins;
  if (
    allow !== undefined &&
    allow !== '*' &&
    !(Array.isArray(allow) && allow.every((o) => typeof o === 'string' && /^https?:\/\/[^/]+$/.test(o)))
  ) {
    throw new OptionsError(
      'allowOrigins must be "*" or a list of origins such as "https://shop.example" (no path)',
    );
  }
  const origins = allow === '*' || allow === undefined ? allow : new Set(allow);
  const cacheControl = maxAge === 0 ? 'no-cache' : `public, max-age=${maxAge}`;

  const corsHeaders = (request: Request): Record<string, string> => {
    if (origins === undefined) return {};
    if (origins === '*') return { 'access-control-allow-origin': '*' };
    const origin = request.headers.get('origin');
    const headers: Record<string, string> = { vary: 'Origin' };
    if (origin !== null && origins.has(origin)) headers['access-control-allow-origin'] = origin;
    return headers;
  };
  const json = (request: Request, status: number, body: unknown, extra: Record<string, string> = {}) =>
    new Response(request.method === 'HEAD' ? null : JSON.stringify(body), {
      status,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'x-content-type-options': 'nosniff',
        ...corsHeaders(request),
        ...extra,
      },
    });
  const bad = (request: Request, message: string) =>
    json(request, 400, { error: 'invalid_request', message }, { 'cache-control': 'no-store' });

  return async (request: Request): Promise<Response> => {
    if (request.method === 'OPTIONS' && origins !== undefined) {
      return new Response(null, {
        status: 204,
        headers: {
          ...corsHeaders(request),
          'access-control-allow-methods': 'GET, HEAD',
          'access-control-max-age': '600',
        },
      });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return json(request, 405, { error: 'method_not_allowed', message: 'use GET' }, { allow: 'GET, HEAD' });
    }
    let params: { q: string; lang?: string; country?: string; limit: number; recent: string[] };
    try {
      params = readParams(new URL(request.url).searchParams, { maxLimit, defaultLimit, maxQueryLength });
    } catch (error) {
      if (error instanceof BadRequest) return bad(request, error.message);
      throw error;
    }
    // The same list and the same parameters give the same answer: the ETag says both.
    const key = JSON.stringify([
      params.q,
      params.lang ?? '',
      params.country ?? '',
      params.limit,
      params.recent,
    ]);
    const etag = `"${base64url(await digest(`${version()}\0${key}`)).slice(0, 27)}"`;
    const common = { etag, 'cache-control': cacheControl };
    const inm = request.headers.get('if-none-match');
    if (inm?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
      return new Response(null, { status: 304, headers: { ...corsHeaders(request), ...common } });
    }
    const options: HintSearchOptions = {
      limit: params.limit,
      ...(params.lang !== undefined ? { lang: params.lang } : {}),
      ...(params.country !== undefined ? { country: params.country } : {}),
      ...(params.recent.length > 0 ? { recent: params.recent } : {}),
    };
    const body: SearchResponseBody = {
      query: params.q,
      results: params.q.trim() === '' ? [] : source.search(params.q, options),
      recent: params.recent.flatMap((id) => {
        const entry = source.get(id);
        if (entry === undefined) return [];
        return [{ entityId: id, name: source.displayName(id, params.lang) ?? id, country: entry.country }];
      }),
    };
    return json(request, 200, body, common);
  };
}

function readParams(
  search: URLSearchParams,
  limits: { maxLimit: number; defaultLimit: number; maxQueryLength: number },
): { q: string; lang?: string; country?: string; limit: number; recent: string[] } {
  for (const key of new Set(search.keys())) {
    if (KNOWN_PARAMS.has(key) && key !== 'recent' && search.getAll(key).length > 1) {
      throw new BadRequest(`give ${key} once`);
    }
  }
  const q = search.get('q') ?? '';
  if (q.length > limits.maxQueryLength) {
    throw new BadRequest(`q is longer than ${limits.maxQueryLength} characters`);
  }
  const lang = search.get('lang') ?? undefined;
  if (lang !== undefined && (lang.length > 35 || !LANG_RE.test(lang))) {
    throw new BadRequest('lang must be a language tag such as en, nl or pt-BR');
  }
  const country = search.get('country') ?? undefined;
  if (country !== undefined && !COUNTRY_RE.test(country)) {
    throw new BadRequest('country must be a two-letter country code such as NL');
  }
  const rawLimit = search.get('limit');
  let limit = limits.defaultLimit;
  if (rawLimit !== null) {
    if (!/^\d{1,4}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > limits.maxLimit) {
      throw new BadRequest(`limit must be an integer from 1 to ${limits.maxLimit}`);
    }
    limit = Number(rawLimit);
  }
  const recent = search.getAll('recent');
  if (recent.length > MAX_RECENT) throw new BadRequest(`give at most ${MAX_RECENT} recent entityIDs`);
  if (recent.some((id) => id.length === 0 || id.length > MAX_ENTITY_ID)) {
    throw new BadRequest(`each recent entityID must be 1 to ${MAX_ENTITY_ID} characters`);
  }
  return {
    q,
    limit,
    recent,
    ...(lang !== undefined ? { lang } : {}),
    ...(country !== undefined ? { country: country.toUpperCase() } : {}),
  };
}
