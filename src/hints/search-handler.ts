/**
 * The type-ahead endpoint behind `<institution-picker>`: `GET ?q=&lang=&country=&limit=&recent=…` →
 * JSON. Built by {@link HintFeed.searchHandler}; Web `Request → Response`, so it mounts in Hono, Next,
 * Fastify or Express (through their Web adapters) alike.
 */
import { base64url, digest } from '../core/crypto.js';
import { OptionsError } from '../core/errors.js';
import { integerOption } from '../core/options.js';
import type { HintFeed } from './feed.js';
import { COUNTRY_RE, LANG_RE, MAX_ENTITY_ID } from './parse.js';
import { MAX_RECENT } from './search/index.js';
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

const KNOWN_PARAMS = new Set(['q', 'lang', 'country', 'limit', 'recent']);

/**
 * @param source the feed
 * @param version changes whenever the list served changes (part of the ETag)
 */
export function createSearchHandler(
  source: Pick<HintFeed, 'search' | 'get' | 'displayName'>,
  version: () => string,
  options: SearchHandlerOptions = {},
): (request: Request) => Promise<Response> {
  if (typeof options !== 'object' || options === null)
    throw new OptionsError('searchHandler options must be an object');
  const maxLimit = integerOption('maxLimit', options.maxLimit, 50, { max: 1000 });
  const defaultLimit = integerOption('defaultLimit', options.defaultLimit, Math.min(10, maxLimit), {
    max: maxLimit,
  });
  const maxQueryLength = integerOption('maxQueryLength', options.maxQueryLength, 100, { max: 1000 });
  const maxAge = integerOption('maxAgeSeconds', options.maxAgeSeconds, 60, { min: 0, max: 86_400 });
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
    const params = readParams(new URL(request.url).searchParams, { maxLimit, defaultLimit, maxQueryLength });
    if (typeof params === 'string') {
      const error = { error: 'invalid_request', message: params };
      return json(request, 400, error, { 'cache-control': 'no-store' });
    }
    const { q, ...options } = params;
    // The same list and the same parameters give the same answer: the ETag says both.
    const key = JSON.stringify([q, options.lang ?? '', options.country ?? '', options.limit, options.recent]);
    const etag = `"${base64url(await digest(`${version()}\0${key}`)).slice(0, 27)}"`;
    const common = { etag, 'cache-control': cacheControl };
    const inm = request.headers.get('if-none-match');
    if (inm?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
      return new Response(null, { status: 304, headers: { ...corsHeaders(request), ...common } });
    }
    const body: SearchResponseBody = {
      query: q,
      results: q.trim() === '' ? [] : source.search(q, options),
      recent: options.recent.flatMap((id) => {
        const entry = source.get(id);
        if (entry === undefined) return [];
        return [{ entityId: id, name: source.displayName(id, options.lang) ?? id, country: entry.country }];
      }),
    };
    return json(request, 200, body, common);
  };
}

/** The request's parameters, or why they are not valid (the message of the 400). */
function readParams(
  search: URLSearchParams,
  limits: { maxLimit: number; defaultLimit: number; maxQueryLength: number },
): (HintSearchOptions & { q: string; limit: number; recent: string[] }) | string {
  for (const key of new Set(search.keys())) {
    if (KNOWN_PARAMS.has(key) && key !== 'recent' && search.getAll(key).length > 1) {
      return `give ${key} once`;
    }
  }
  const q = search.get('q') ?? '';
  if (q.length > limits.maxQueryLength) return `q is longer than ${limits.maxQueryLength} characters`;
  const lang = search.get('lang') ?? undefined;
  if (lang !== undefined && (lang.length > 35 || !LANG_RE.test(lang))) {
    return 'lang must be a language tag such as en, nl or pt-BR';
  }
  const country = search.get('country') ?? undefined;
  if (country !== undefined && !COUNTRY_RE.test(country)) {
    return 'country must be a two-letter country code such as NL';
  }
  const rawLimit = search.get('limit');
  const limit = rawLimit === null ? limits.defaultLimit : Number(rawLimit);
  if (rawLimit !== null && (!/^\d{1,4}$/.test(rawLimit) || limit < 1 || limit > limits.maxLimit)) {
    return `limit must be an integer from 1 to ${limits.maxLimit}`;
  }
  const recent = search.getAll('recent');
  if (recent.length > MAX_RECENT) return `give at most ${MAX_RECENT} recent entityIDs`;
  if (recent.some((id) => id.length === 0 || id.length > MAX_ENTITY_ID)) {
    return `each recent entityID must be 1 to ${MAX_ENTITY_ID} characters`;
  }
  return { q, lang, country: country?.toUpperCase(), limit, recent };
}
