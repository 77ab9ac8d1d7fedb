/**
 * `client.callbackHandler()`: the whole callback route for `Request → Response` frameworks (Hono,
 * Next.js route handlers, Deno/Bun-style servers, Express through an adapter).
 */
import { AffiliationError, TransportError } from '../core/errors.js';
import { escapeHtml } from '../core/html.js';
import { ENGLISH, type ShopperTextKey, type ShopperTexts, type Speaker } from '../i18n/texts.js';
import type { CallbackParams } from './callback-input.js';
import { paramsFromUrl } from './callback-input.js';
import { type AnyAffiliationError, ProviderError } from './errors.js';
import { checkAction, fragmentRelayHtml, pageHeaders } from './relay.js';
import type { AffiliationResult, TransactionStore } from './types.js';

/**
 * Callbacks of {@link AffiliationClient.callbackHandler}.
 *
 * @group RP
 */
export interface CallbackHandlerOptions {
  /** Called with the validated result; return the response for the shopper (e.g. a redirect). */
  onSuccess(result: AffiliationResult, request: Request): Response | Promise<Response>;
  /**
   * Called when the callback is rejected: a `ProviderError`, `ValidationError`, `TransportError`,
   * … as the union {@link AnyAffiliationError}, so `switch (error.code)` narrows without
   * `instanceof`. Default: an HTML page with status 400 (502 when the service could not be
   * reached) showing `error.userMessage`, HTML-escaped.
   */
  onError?: ((error: AnyAffiliationError, request: Request) => Response | Promise<Response>) | undefined;
  /**
   * The language of the default pages (the error page, the fragment relay page): a tag such as `de`.
   * Default: the client's `language`, else the request's `Accept-Language`, else English.
   */
  language?: string | undefined;
  /**
   * The start route the error page's "Choose your institution again" button posts to (a path of
   * this origin). Default: the path the client's `startHandler()` last answered at; without either,
   * the page has no button (only its link back to the shop).
   */
  startUrl?: string | undefined;
}

/** The shopper's side of one client: its texts, the service's origin and its start route. */
export interface ShopperPages {
  readonly texts: ShopperTexts;
  /** The service's origin: a restart form's redirect goes there (the page's CSP `form-action`). */
  readonly serviceOrigin: string;
  /** The path the client's `startHandler()` last answered at. */
  startPath: string | undefined;
}

export interface HandlerDeps {
  read(request: Request): Promise<CallbackParams>;
  validate(params: Map<string, string>, cookie: string | undefined): Promise<AffiliationResult>;
  store: TransactionStore;
  pages: ShopperPages;
}

/**
 * A form that starts a refused validation again in one click, for a page of the shop (the default
 * error page shows its `html`). @group RP
 */
export interface RestartForm {
  /** The start route it posts to. */
  readonly action: string;
  /** The form's fields: the refused validation's choices, and an empty `institution`. */
  readonly fields: Readonly<Record<string, string>>;
  /** The button's text, in the shopper's language. */
  readonly label: string;
  /** The form as HTML (escaped), ready to put into a page whose CSP allows `form-action` to the start route and the service. */
  readonly html: string;
}

/** What to tell the shopper about an error, in their language: {@link AffiliationClient.shopperMessage}. @group RP */
export interface ShopperMessage {
  /** The language's tag, for `<html lang>`. */
  readonly lang: string;
  /** `error.userMessage` in that language. */
  readonly text: string;
  /**
   * One click to start again: when the service did not recognise the hinted institution
   * (`ProviderError` with `reason: 'unknown_institution'`), the validation is started again without it.
   */
  readonly restart?: RestartForm;
}

/** The shopper's message for `error`; a restart form when the start route is known and one click helps. */
export function shopperMessage(error: AffiliationError, speaker: Speaker, startUrl?: string): ShopperMessage {
  const message = { lang: speaker.lang, text: speaker.userMessage(error) };
  const started = error instanceof ProviderError && error.reason === 'unknown_institution' && error.started;
  if (startUrl === undefined || !started) return message;
  const fields: Record<string, string> = {
    affiliation: started.affiliation,
    flow: started.flow,
    institution: '',
  };
  if (started.identifier !== undefined) fields.identifier = started.identifier;
  const label = speaker.text('page.failed.restart');
  const inputs = Object.entries(fields).map(
    ([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`,
  );
  const html = `<form method="post" action="${escapeHtml(startUrl)}">${inputs.join('')}<button type="submit">${escapeHtml(label)}</button></form>`;
  return { ...message, restart: { action: startUrl, fields, label, html } };
}

/** The error page's only style, allowed by its hash: no `unsafe-inline`, no file to serve. */
const ERROR_PAGE_STYLE =
  'body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}';
// SHA-256 of ERROR_PAGE_STYLE, written out: a Web Crypto hash is async (test/rp/handler.test.ts checks it).
const ERROR_PAGE_STYLE_HASH = "'sha256-GXxuLoJ4sEiVfOJ8dj1o9K2UAwL+SjVRxffAECOe72g='";

/**
 * A shopper's page (the callback's error page, the start route's refusal): small, self-contained,
 * no-store, in the speaker's language. A restart form may post to this origin's start route, which
 * redirects to the service: Chromium applies `form-action` to that redirect too.
 */
export function shopperPage(
  error: AffiliationError,
  status: number,
  title: ShopperTextKey,
  speaker: Speaker,
  message: ShopperMessage = shopperMessage(error, speaker),
  serviceOrigin?: string,
): Response {
  const t = (key: ShopperTextKey, values?: Record<string, string>) => escapeHtml(speaker.text(key, values));
  // The shop's own origin serves this page, so "/" is the shop: the shopper gets a way back.
  const html = `<!doctype html>
<html lang="${escapeHtml(message.lang)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>${t(title)}</title><style>${ERROR_PAGE_STYLE}</style></head>
<body><main><h1>${t(title)}</h1><p>${escapeHtml(message.text)}</p>${message.restart?.html ?? ''}<p><a href="/">${t('page.failed.back')}</a></p><p><small>${t('page.failed.code', { code: error.code })}</small></p></main></body>
</html>
`;
  const formAction = message.restart ? `'self'${serviceOrigin ? ` ${serviceOrigin}` : ''}` : "'none'";
  return new Response(html, {
    status,
    headers: pageHeaders(
      `default-src 'none'; img-src data:; style-src ${ERROR_PAGE_STYLE_HASH}; base-uri 'none'; form-action ${formAction}; frame-ancestors 'none'`,
    ),
  });
}

/** The default `onError`: the shopper's page with the message in the shopper's language. */
export function defaultErrorResponse(
  error: AffiliationError,
  speaker: Speaker = ENGLISH,
  startUrl?: string,
  serviceOrigin?: string,
): Response {
  const message = shopperMessage(error, speaker, startUrl);
  const status = error instanceof TransportError ? 502 : 400;
  return shopperPage(error, status, 'page.failed.title', speaker, message, serviceOrigin);
}

/**
 * The callback's answer as the browser gets it (a copy: the original's headers may be immutable,
 * as `Response.redirect`'s are): the transaction's cookie cleared, and never cached or
 * leaked through the Referer header (the callback URL holds the code and state; the page may show
 * the result). Headers the app set itself are kept.
 */
function finish(response: Response, clearCookie: string | undefined): Response {
  const headers = new Headers(response.headers);
  if (clearCookie) headers.append('set-cookie', clearCookie);
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
  if (!headers.has('referrer-policy')) headers.set('referrer-policy', 'no-referrer');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function needsRelay(request: Request): boolean {
  const method = request.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') return false;
  try {
    return paramsFromUrl(new URL(request.url)) === undefined;
  } catch {
    return false; // malformed parameters: let validation report them
  }
}

export function createCallbackHandler(
  deps: HandlerDeps,
  options: CallbackHandlerOptions,
): (request: Request) => Promise<Response> {
  if (typeof options !== 'object' || options === null || typeof options.onSuccess !== 'function') {
    throw new TypeError('callbackHandler needs { onSuccess(result, request) }');
  }
  const { pages } = deps;
  const language = pages.texts.language(options.language, 'callbackHandler language');
  if (options.startUrl !== undefined) checkAction(options.startUrl, 'startUrl');
  const speaker = (request: Request) => pages.texts.speaker(request.headers.get('accept-language'), language);
  const onError =
    options.onError ??
    ((error: AffiliationError, request: Request) =>
      defaultErrorResponse(
        error,
        speaker(request),
        options.startUrl ?? pages.startPath,
        pages.serviceOrigin,
      ));
  return async (request: Request): Promise<Response> => {
    if (needsRelay(request)) {
      const relay = fragmentRelayHtml({}, speaker(request));
      return new Response(relay.html, { status: 200, headers: relay.headers });
    }
    let state: string | undefined;
    // A request always says what cookies it carries: none is ''.
    const cookie = request.headers.get('cookie') ?? '';
    // Success or error, the transaction is over: the store gets to replace or delete the cookie of
    // this state (only that one; other validations of the same browser keep theirs).
    const done = (response: Response) =>
      finish(response, state ? deps.store.clearCookie?.(state, { cookie }) : undefined);
    let result: AffiliationResult;
    try {
      const read = await deps.read(request);
      state = read.params.get('state');
      result = await deps.validate(read.params, read.cookie);
    } catch (error) {
      if (!(error instanceof AffiliationError)) throw error;
      // Every error the relying party throws is one of the union's classes.
      return done(await onError(error as AnyAffiliationError, request));
    }
    return done(await options.onSuccess(result, request));
  };
}
