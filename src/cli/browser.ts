/**
 * A small scripted browser for the demo and the example tests: it follows redirects one by one,
 * keeps cookies per origin, submits HTML forms, and does the fragment relay page's job (read the
 * fragment, POST it back as a form) — all with plain HTTP, no JavaScript engine.
 */
import { AffiliationError } from '../core/errors.js';
import { redactUrl } from '../core/redact.js';
import { TestCookieJar } from '../testing/cookie-jar.js';
import { formValues, type HtmlForm, parseForms, stripTags } from '../testing/html-form.js';

export type { FormField, HtmlForm } from '../testing/html-form.js';
export { formValues, parseForms };

/** The scripted browser could not go on (too many redirects, a malformed answer). */
export class BrowserError extends AffiliationError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: 'browser_error', cause: options.cause });
  }
}

/** One HTTP exchange the browser made. `url` is redacted. */
export interface BrowserStep {
  method: string;
  url: string;
  status: number;
  /** Why the browser made this request: `navigate`, `redirect`, `form`, or `relay`. */
  reason: 'navigate' | 'redirect' | 'form' | 'relay';
  /** The redirect target (redacted), for 3xx answers. */
  location?: string;
}

/** A page the browser ended on after following redirects. */
export interface BrowserPage {
  /** The final URL, including the fragment the last redirect carried. */
  url: string;
  status: number;
  headers: Headers;
  body: string;
  forms: HtmlForm[];
}

/** Options of {@link Browser}. */
export interface BrowserOptions {
  /** Fetch implementation; default the global fetch. */
  fetch?: typeof fetch;
  /** Called after every request. */
  onStep?: (step: BrowserStep) => void;
  /** Most redirects followed for one navigation. Default 20. */
  maxRedirects?: number;
}

/** Does this page look like the SDK's fragment relay (an HTML page that needs the URL fragment)? */
export function isRelayPage(page: BrowserPage): boolean {
  const type = page.headers.get('content-type') ?? '';
  if (!type.includes('text/html')) return false;
  return /location\.hash/.test(page.body);
}

/**
 * A cookie jar per origin and a redirect walker. Cookies are kept by origin (host and port), the
 * way a browser scopes them for the sites in this demo; `Path` is honoured, `Max-Age=0` and past
 * `Expires` delete.
 */
export class Browser {
  readonly #fetch: typeof fetch | undefined;
  readonly #onStep: ((step: BrowserStep) => void) | undefined;
  readonly #maxRedirects: number;
  readonly #jar = new TestCookieJar();

  constructor(options: BrowserOptions = {}) {
    this.#fetch = options.fetch;
    this.#onStep = options.onStep;
    this.#maxRedirects = options.maxRedirects ?? 20;
  }

  /** The cookies the browser holds for an origin (names only, for tests and the demo's printout). */
  cookieNames(origin: string): string[] {
    return this.#jar.names(origin);
  }

  /** Open a URL as if typed in the address bar and follow redirects. */
  async open(url: string): Promise<BrowserPage> {
    return this.#navigate('GET', url, undefined, 'navigate');
  }

  /** Submit a form of the page, like clicking its button. */
  async submit(
    form: HtmlForm,
    choices: Record<string, string> = {},
    button?: { name: string; value: string },
  ): Promise<BrowserPage> {
    const values = formValues(form, choices, button);
    if (form.method === 'GET') {
      const target = new URL(form.action);
      target.search = values.toString();
      return this.#navigate('GET', target.href, undefined, 'form');
    }
    return this.#navigate('POST', form.action, values, 'form');
  }

  /**
   * Do what the relay page's script does: take the parameters in the fragment of the page's URL and
   * POST them as an `application/x-www-form-urlencoded` form to the page's own address.
   */
  async relay(page: BrowserPage): Promise<BrowserPage> {
    const url = new URL(page.url);
    const params = new URLSearchParams(url.hash.slice(1));
    url.hash = '';
    const action = page.forms[0]?.action ?? url.href;
    return this.#navigate('POST', action, params, 'relay');
  }

  /**
   * Follow a page to its end: open the URL and, whenever the browser lands on a relay page with
   * a fragment, run the relay.
   */
  async openAndRelay(url: string): Promise<BrowserPage> {
    const page = await this.open(url);
    return new URL(page.url).hash.length > 1 && isRelayPage(page) ? this.relay(page) : page;
  }

  async #navigate(
    method: 'GET' | 'POST',
    url: string,
    form: URLSearchParams | undefined,
    reason: BrowserStep['reason'],
  ): Promise<BrowserPage> {
    let current = new URL(url);
    let currentMethod = method;
    let body = form;
    let why = reason;
    for (let hop = 0; ; hop++) {
      if (hop > this.#maxRedirects) throw new BrowserError(`too many redirects from ${redactUrl(url)}`);
      const headers = new Headers({ accept: 'text/html,application/json;q=0.9' });
      const cookie = this.#jar.header(current);
      if (cookie) headers.set('cookie', cookie);
      if (body) headers.set('content-type', 'application/x-www-form-urlencoded');
      if (currentMethod === 'POST') headers.set('origin', current.origin);
      const target = new URL(current.href);
      target.hash = '';
      const f = this.#fetch ?? globalThis.fetch;
      const res = await f(target.href, {
        method: currentMethod,
        headers,
        body: body?.toString(),
        redirect: 'manual',
      });
      this.#jar.store(res, current);
      const location = res.headers.get('location');
      let next: URL | undefined;
      if (res.status >= 300 && res.status < 400 && location) {
        try {
          next = new URL(location, current);
        } catch (error) {
          throw new BrowserError(`${redactUrl(current.href)} redirected to an invalid URL`, { cause: error });
        }
      }
      this.#onStep?.({
        method: currentMethod,
        url: redactUrl(current.href),
        status: res.status,
        reason: why,
        ...(next ? { location: redactUrl(next.href) } : {}),
      });
      if (!next) {
        const text = await res.text();
        return {
          url: current.href,
          status: res.status,
          headers: res.headers,
          body: text,
          forms: parseForms(text, target.href),
        };
      }
      await res.body?.cancel().catch(() => {});
      // Browsers keep the method and body only for 307/308.
      if (res.status !== 307 && res.status !== 308) {
        currentMethod = 'GET';
        body = undefined;
      }
      current = next;
      why = 'redirect';
    }
  }
}

/** Options of {@link walkToOrigin}. */
export interface WalkOptions {
  /** A value to pick in any `<select>` that offers it (e.g. the institution on a selection page). */
  choose?: string;
  /** Called before each form is submitted (with the page's `<h1>`) and before the relay runs. */
  onPage?: (event: { kind: 'form' | 'relay'; heading: string; page: BrowserPage }) => void;
  /** Most pages walked. Default 10. */
  maxPages?: number;
}

/** The text of a page's first `<h1>`. */
export function pageHeading(html: string): string {
  const m = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html);
  return stripTags(m?.[1] ?? '');
}

/**
 * Act as the shopper until the browser is back on `origin`: submit each page's only form with its
 * preselected answers (choosing `choose` where offered), and run the relay page when the answer
 * comes back in the fragment. Returns the first page on `origin` that is not a relay page, or the
 * page where the walk could not go on (an error page, a page with no or several forms).
 */
export async function walkToOrigin(
  browser: Browser,
  start: BrowserPage,
  origin: string,
  options: WalkOptions = {},
): Promise<BrowserPage> {
  const home = new URL(origin).origin;
  let page = start;
  for (let i = 0; i < (options.maxPages ?? 10); i++) {
    const here = new URL(page.url);
    if (here.origin === home && here.hash.length > 1 && isRelayPage(page)) {
      options.onPage?.({ kind: 'relay', heading: pageHeading(page.body), page });
      page = await browser.relay(page);
      continue;
    }
    const form = page.forms[0];
    if (here.origin === home || page.status !== 200 || page.forms.length !== 1 || !form) return page;
    const choices: Record<string, string> = {};
    for (const field of form.fields) {
      if (
        field.type === 'select' &&
        options.choose !== undefined &&
        field.options?.includes(options.choose)
      ) {
        choices[field.name] = options.choose;
      }
    }
    options.onPage?.({ kind: 'form', heading: pageHeading(page.body), page });
    page = await browser.submit(form, choices);
  }
  return page;
}
