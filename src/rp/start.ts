/**
 * Starting a validation: `client.startHandler()` for `Request → Response` frameworks, and
 * {@link checkStartRequest}, the same-origin check it is built on, for frameworks without Web
 * `Request`s.
 *
 * Why the check reads `Sec-Fetch-Site` first: shops serve their pages with
 * `Referrer-Policy: no-referrer`, and under that policy Chromium and Firefox send `Origin: null` on a
 * form POST, even a same-origin one (Fetch standard, "append a request `Origin` header"). Measured
 * with Chromium 156 and Firefox ESR 153, a form on `http://127.0.0.1:P/` posting to `/start`:
 *
 * | page's Referrer-Policy | form on            | `Sec-Fetch-Site` | `Origin`                 |
 * |------------------------|--------------------|------------------|--------------------------|
 * | `no-referrer`          | the same origin    | `same-origin`    | `null`                   |
 * | default                | the same origin    | `same-origin`    | `http://127.0.0.1:P`     |
 * | `no-referrer`          | `http://localhost:P` | `cross-site`   | `null`                   |
 * | default                | `http://localhost:P` | `cross-site`   | `http://localhost:P`     |
 * | (address bar, GET)     | —                  | `none`           | absent                   |
 *
 * Both browsers send `Sec-Fetch-*` only to potentially trustworthy origins (https, and http on
 * loopback hosts); an older browser, or plain http on another host, sends `Origin` alone.
 */
import { mediaType, readBounded } from '../core/body.js';
import { AffiliationError, TransportError } from '../core/errors.js';
import { texts as en } from '../i18n/catalogs/en.js';
import { ENGLISH, ShopperTexts, type Speaker } from '../i18n/texts.js';
import type { AuthorizationRequest, AuthorizationRequestOptions } from './authorization.js';
import { type ShopperPages, shopperPage } from './handler.js';
import { AFFILIATIONS, IDENTIFIERS } from './scope.js';
import type { Affiliation, ClaimsRequest, Identifier, TransactionContext } from './types.js';

/** Codes of {@link StartRequestError}. @group RP */
export type StartRequestErrorCode =
  | 'method_not_allowed'
  | 'cross_site_start'
  | 'unsupported_media_type'
  | 'form_too_large'
  | 'invalid_start_form';

/**
 * A request to the start route was refused before anything was stored: not a POST (405), not from
 * the shop's own pages (403), not a URL-encoded form (415), too large (413), or with a field this
 * route does not accept (400). `status` is the HTTP status to answer with.
 *
 * @group Errors
 */
export class StartRequestError extends AffiliationError {
  declare readonly code: StartRequestErrorCode;
  /** The HTTP status to answer with: 400, 403, 405, 413 or 415. */
  readonly status: 400 | 403 | 405 | 413 | 415;
  constructor(
    message: string,
    options: {
      code: StartRequestErrorCode;
      status: StartRequestError['status'];
      userMessage?: string;
      cause?: unknown;
    },
  ) {
    super(message, {
      code: options.code,
      cause: options.cause,
      userMessage: options.userMessage ?? en['start.again'],
    });
    this.status = options.status;
  }
}

/**
 * The parts of a start request the check reads: a Web `Request`, or a Node/Express/Fastify request
 * (`req.method`, `req.headers`).
 *
 * @group RP
 */
export interface StartRequestLike {
  method?: string | undefined;
  /** A `Headers` object, or Node's header record (lower-case names). */
  headers: Headers | Record<string, string | string[] | undefined>;
}

/** What {@link checkStartRequest} based its decision on. @group RP */
export interface StartRequestCheck {
  /** `sec-fetch-site` when the browser sent that header, else `origin`. */
  decidedBy: 'sec-fetch-site' | 'origin';
}

export function header(headers: StartRequestLike['headers'], name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  // A repeated header is ambiguous: treat it as not matching.
  if (Array.isArray(value)) return value.length === 1 ? value[0] : '\u0000repeated';
  return value;
}

/**
 * Check that a request may start a validation: a `POST` from a page of the shop's own origin.
 * Fails closed.
 *
 * - Not `POST`: `StartRequestError` 405 (answer with `Allow: POST`).
 * - `Sec-Fetch-Site` present: only `same-origin` passes. `same-site` (a sibling subdomain),
 *   `cross-site` and `none` (a URL typed or bookmarked: never the shop's form) get 403. When
 *   `Origin` is sent too, it must be `null` (the page's `Referrer-Policy: no-referrer`) or
 *   `shopOrigin`.
 * - Otherwise `Origin` must equal `shopOrigin`; `null` or absent gets 403 (nothing shows it came
 *   from the shop).
 *
 * @param shopOrigin The shop's public origin (`https://shop.example`), from configuration — never
 *   from the `Host` or `X-Forwarded-*` headers.
 * @throws {StartRequestError} `method_not_allowed` (405) or `cross_site_start` (403).
 * @example
 * ```ts
 * // Express, without a Web Request:
 * app.post('/start', (req, res, next) => {
 *   try {
 *     checkStartRequest(req, 'https://shop.example');
 *   } catch (error) {
 *     if (error instanceof StartRequestError) return void res.status(error.status).send(error.userMessage);
 *     return next(error);
 *   }
 *   // … createAuthorizationRequest, Set-Cookie, 303
 * });
 * ```
 * @group RP
 */
export function checkStartRequest(request: StartRequestLike, shopOrigin: string): StartRequestCheck {
  if ((request.method ?? '').toUpperCase() !== 'POST') {
    throw new StartRequestError('The start route accepts POST only', {
      code: 'method_not_allowed',
      status: 405,
    });
  }
  const site = header(request.headers, 'sec-fetch-site');
  const origin = header(request.headers, 'origin');
  if (site !== undefined) {
    if (site === 'same-origin' && (origin === undefined || origin === 'null' || origin === shopOrigin)) {
      return { decidedBy: 'sec-fetch-site' };
    }
    throw crossSite(`Sec-Fetch-Site is ${JSON.stringify(site.slice(0, 40))}, not same-origin`);
  }
  if (origin !== undefined && origin === shopOrigin) return { decidedBy: 'origin' };
  throw crossSite(
    origin === undefined
      ? 'The request carries neither Sec-Fetch-Site nor Origin'
      : `Origin ${JSON.stringify(origin.slice(0, 200))} is not the shop's origin ${shopOrigin}`,
  );
}

function crossSite(why: string): StartRequestError {
  return new StartRequestError(`Refused to start a validation from another site: ${why}`, {
    code: 'cross_site_start',
    status: 403,
  });
}

/** A form field the start route may read. @group RP */
export type StartFormField = 'affiliation' | 'identifier' | 'institution' | 'flow';

/** The client(s) a start handler uses; `AffiliationClient` satisfies it. */
export interface StartClient {
  readonly responseType: 'code' | 'id_token';
  createAuthorizationRequest(
    options: AuthorizationRequestOptions,
    context?: TransactionContext,
  ): Promise<AuthorizationRequest>;
}

/**
 * Options of {@link AffiliationClient.startHandler}: what the shop fixes and what the shopper's form
 * may choose. The form is `application/x-www-form-urlencoded` with the fields `affiliation`,
 * `identifier`, `institution` (an entityID, sent as `aarc_idp_hint`; empty means "choose at the
 * service") and `flow` (`code` or `id_token`).
 *
 * @group RP
 */
export interface StartHandlerOptions {
  /**
   * Which form fields the shopper may set. A listed field that the form leaves out (or empty) takes
   * its default below; a known field that is not listed may only carry the fixed value (another one
   * is refused with 400, so a shop that fixes the affiliation never validates another one by
   * mistake). Other fields are ignored.
   * Default `['affiliation', 'institution']`, plus `'flow'` when `flows` offers both flows.
   */
  formFields?: readonly StartFormField[] | undefined;
  /** The affiliation validated when the form does not choose one. Default `'student'`. */
  affiliation?: Affiliation | undefined;
  /** The affiliations the form may ask for. Default all four (`AFFILIATIONS`). */
  affiliations?: readonly Affiliation[] | undefined;
  /** The identifier requested when the form does not choose one. Default none (`transient`). */
  identifier?: Identifier | undefined;
  /** The institution (entityID) sent as `aarc_idp_hint` when the form does not choose one. Default none. */
  idpHint?: string | undefined;
  /** Further scopes, passed to `createAuthorizationRequest`. Default none. */
  scopes?: string[] | undefined;
  /** A claims request, passed to `createAuthorizationRequest`. Default none. */
  claims?: ClaimsRequest | undefined;
  /**
   * The client for each flow the form may pick with `flow=code` / `flow=id_token` (an
   * `AffiliationClient` has one response type; make a second one with `responseType: 'id_token'`
   * sharing the transaction store). Default: this client for its own response type only.
   */
  flows?: { code?: StartClient; id_token?: StartClient } | undefined;
  /**
   * The shop's public origin (`https://shop.example`). Default: the origin of the client's
   * `redirectUri`. Never taken from the `Host` or `X-Forwarded-*` headers.
   */
  origin?: string | undefined;
  /** Largest form body read, in bytes. Default 4096. */
  maxFormBytes?: number | undefined;
  /**
   * The answer to a refused start (any `AffiliationError`: `StartRequestError` with its `status`,
   * `ScopeError`, `ValidationError('unknown_hint')`, …). Default: a small no-store HTML page with
   * `error.userMessage`, status `StartRequestError.status`, 502 for `TransportError`, else 400;
   * `Allow: POST` on 405.
   */
  onError?: ((error: AffiliationError, request: Request) => Response | Promise<Response>) | undefined;
  /**
   * The language of the default refusal page: a tag such as `de`. Default: the client's `language`,
   * else the request's `Accept-Language`, else English.
   */
  language?: string | undefined;
}

const DEFAULT_MAX_FORM_BYTES = 4096;
const FIELDS: readonly StartFormField[] = ['affiliation', 'identifier', 'institution', 'flow'];

function badForm(message: string, userMessage: string): StartRequestError {
  return new StartRequestError(message, { code: 'invalid_start_form', status: 400, userMessage });
}

/** The default answer to a refused start: the shopper's page, in the shopper's language. */
export function defaultStartErrorResponse(error: AffiliationError, speaker: Speaker = ENGLISH): Response {
  const status =
    error instanceof StartRequestError ? error.status : error instanceof TransportError ? 502 : 400;
  const response = shopperPage(error, status, 'page.not_started.title', speaker);
  if (status === 405) response.headers.set('allow', 'POST');
  return response;
}

/** Read a URL-encoded form of at most `max` bytes. */
async function readForm(request: Request, max: number): Promise<URLSearchParams> {
  if (mediaType(request.headers.get('content-type')) !== 'application/x-www-form-urlencoded') {
    throw new StartRequestError('The start route expects an application/x-www-form-urlencoded form', {
      code: 'unsupported_media_type',
      status: 415,
    });
  }
  const tooLarge = () =>
    new StartRequestError(`The start form is larger than ${max} bytes`, {
      code: 'form_too_large',
      status: 413,
    });
  const body = await readBounded(request.body, max, tooLarge, {
    declaredLength: request.headers.get('content-length'),
  });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch (error) {
    throw new StartRequestError('The start form is not valid UTF-8', {
      code: 'invalid_start_form',
      status: 400,
      cause: error,
    });
  }
  return new URLSearchParams(text);
}

/** The one value of a form field; `undefined` when absent or empty. */
function single(form: URLSearchParams, name: StartFormField): string | undefined {
  const values = form.getAll(name);
  if (values.length > 1) {
    throw badForm(`The form field "${name}" is sent ${values.length} times`, en['start.one_value']);
  }
  return values[0] === '' ? undefined : values[0];
}

function checkOptions(client: StartClient, redirectUri: string, options: StartHandlerOptions) {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('startHandler options must be an object');
  }
  const flows = options.flows ?? { [client.responseType]: client };
  for (const [flow, c] of Object.entries(flows)) {
    if (c === undefined) continue;
    if ((flow !== 'code' && flow !== 'id_token') || c.responseType !== flow) {
      throw new TypeError(`startHandler flows.${flow} must be a client with responseType "${flow}"`);
    }
  }
  const both = flows.code !== undefined && flows.id_token !== undefined;
  const fields = options.formFields ?? ['affiliation', 'institution', ...(both ? ['flow' as const] : [])];
  for (const f of fields) {
    if (!FIELDS.includes(f)) throw new TypeError(`startHandler formFields: unknown field ${String(f)}`);
  }
  const affiliations = options.affiliations ?? AFFILIATIONS;
  const affiliation = options.affiliation ?? affiliations[0] ?? 'student';
  if (affiliations.length === 0 || !affiliations.every((a) => AFFILIATIONS.includes(a))) {
    throw new TypeError(`startHandler affiliations must be some of ${AFFILIATIONS.join(', ')}`);
  }
  if (!AFFILIATIONS.includes(affiliation)) {
    throw new TypeError(`startHandler affiliation must be one of ${AFFILIATIONS.join(', ')}`);
  }
  if (options.identifier !== undefined && !IDENTIFIERS.includes(options.identifier)) {
    throw new TypeError(`startHandler identifier must be one of ${IDENTIFIERS.join(', ')}`);
  }
  const origin = options.origin ?? new URL(redirectUri).origin;
  if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
    throw new TypeError(`startHandler origin must be an origin such as https://shop.example, not ${origin}`);
  }
  const maxFormBytes = options.maxFormBytes ?? DEFAULT_MAX_FORM_BYTES;
  if (!Number.isInteger(maxFormBytes) || maxFormBytes <= 0) {
    throw new TypeError('startHandler maxFormBytes must be a positive integer (bytes)');
  }
  return {
    fields: new Set(fields),
    affiliation,
    affiliations,
    identifier: options.identifier,
    idpHint: options.idpHint,
    flows,
    origin,
    maxFormBytes,
  };
}

/** Build the start route. */
export function createStartHandler(
  client: StartClient,
  redirectUri: string,
  options: StartHandlerOptions = {},
  pages?: ShopperPages,
): (request: Request) => Promise<Response> {
  const o = checkOptions(client, redirectUri, options);
  const texts = pages?.texts ?? new ShopperTexts();
  const language = texts.language(options.language, 'startHandler language');
  const onError =
    options.onError ??
    ((error: AffiliationError, request: Request) =>
      defaultStartErrorResponse(error, texts.speaker(request.headers.get('accept-language'), language)));

  /**
   * The value of a field the form may set, else the shop's default. A field the shop fixes may be
   * sent with the fixed value only.
   */
  const field = (
    form: URLSearchParams,
    name: StartFormField,
    fixed: string | undefined,
  ): string | undefined => {
    const value = single(form, name);
    if (o.fields.has(name)) return value ?? fixed;
    if (value !== undefined && value !== fixed) {
      throw badForm(
        `The form sets "${name}", which this start route fixes${fixed === undefined ? '' : ` to ${JSON.stringify(fixed)}`} (see formFields)`,
        en['start.not_offered'],
      );
    }
    return fixed;
  };

  return async (request: Request): Promise<Response> => {
    try {
      checkStartRequest(request, o.origin);
      const form = await readForm(request, o.maxFormBytes);
      const affiliation = field(form, 'affiliation', o.affiliation) ?? o.affiliation;
      if (!o.affiliations.includes(affiliation as Affiliation)) {
        throw badForm(
          `The form asks for affiliation ${JSON.stringify(affiliation.slice(0, 40))}; allowed: ${o.affiliations.join(', ')}`,
          en['start.affiliation'],
        );
      }
      const identifier = field(form, 'identifier', o.identifier);
      if (identifier !== undefined && !IDENTIFIERS.includes(identifier as Identifier)) {
        throw badForm(
          `The form asks for identifier ${JSON.stringify(identifier.slice(0, 40))}; allowed: ${IDENTIFIERS.join(', ')}`,
          en['start.option'],
        );
      }
      const idpHint = field(form, 'institution', o.idpHint);
      const flow = field(form, 'flow', client.responseType) ?? client.responseType;
      const chosen = flow === 'code' || flow === 'id_token' ? o.flows[flow] : undefined;
      if (chosen === undefined) {
        throw badForm(
          `The form asks for flow ${JSON.stringify(flow.slice(0, 40))}, which this start route does not offer`,
          en['start.option'],
        );
      }
      const started = await chosen.createAuthorizationRequest(
        {
          affiliation: affiliation as Affiliation,
          ...(identifier !== undefined ? { identifier: identifier as Identifier } : {}),
          ...(idpHint !== undefined ? { idpHint } : {}),
          ...(options.scopes !== undefined ? { scopes: options.scopes } : {}),
          ...(options.claims !== undefined ? { claims: options.claims } : {}),
        },
        // The store may evict this browser's older transactions; it needs their cookies.
        { cookie: request.headers.get('cookie') ?? '' },
      );
      const headers = new Headers({
        location: started.url,
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      });
      for (const value of cookieList(started.setCookie)) headers.append('set-cookie', value);
      // Where the error page's restart form posts (callbackHandler's startUrl when not given).
      if (pages) pages.startPath = new URL(request.url).pathname;
      return new Response(null, { status: 303, headers });
    } catch (error) {
      // Anything else (a store that is down) is the app's to handle, like any route's failure.
      if (!(error instanceof AffiliationError)) throw error;
      return onError(error, request);
    }
  };
}

/** `setCookie` as a list: one value, several (a store that also evicts), or none. */
function cookieList(value: string | readonly string[] | undefined): readonly string[] {
  if (value === undefined || value === '') return [];
  return typeof value === 'string' ? [value] : value.filter((v) => v !== '');
}
