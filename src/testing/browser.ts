/**
 * The one scripted browser of the package (the test provider's `authorize()`, the CLI demo, the
 * example tests): it follows redirects one by one, keeps cookies, submits HTML forms, and does the
 * fragment relay page's job (read the fragment, POST it back as a form) — all with plain HTTP, no
 * JavaScript engine.
 */
import { mediaType } from '../core/body.js';
import { AffiliationError } from '../core/errors.js';
import { redactUrl } from '../core/redact.js';
import { TestCookieJar } from './cookie-jar.js';
import { formValues, type HtmlForm, parseForms } from './html-form.js';

/** The scripted browser could not go on (too many redirects, a malformed answer). */
export class BrowserError extends AffiliationError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: 'browser_error', cause: options.cause });
  }
}

/** One HTTP exchange the browser made. `url` and `location` are redacted unless `redactSteps: false`. */
export interface BrowserStep {
  method: 'GET' | 'POST';
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
  /** The target of a redirect that {@link BrowserOptions.follow} refused to follow. */
  redirectedTo?: string;
}

/** Options of {@link Browser}. */
export interface BrowserOptions {
  /** Fetch implementation; default the global fetch. */
  fetch?: typeof fetch;
  /** Called after every request. */
  onStep?: (step: BrowserStep) => void;
  /** Most redirects followed for one navigation. Default 20. */
  maxRedirects?: number;
  /** The cookie jar. Default: a new, empty one. */
  cookieJar?: TestCookieJar;
  /**
   * Whether to follow a redirect to this URL. A redirect not followed ends the navigation on the
   * redirect answer, its target in {@link BrowserPage.redirectedTo}. Default: follow every one.
   */
  follow?: (url: URL) => boolean;
  /** Redact `url` and `location` in the steps (they are for printing). Default true. */
  redactSteps?: boolean;
}

/** Does this page look like the SDK's fragment relay (an HTML page that needs the URL fragment)? */
export function isRelayPage(page: BrowserPage): boolean {
  if (mediaType(page.headers.get('content-type')) !== 'text/html') return false;
  return /location\.hash/.test(page.body);
}

/** A redirect walker with a cookie jar (see {@link TestCookieJar} for how cookies are scoped). */
export class Browser {
  readonly #options: BrowserOptions;
  readonly #jar: TestCookieJar;

  constructor(options: BrowserOptions = {}) {
    this.#options = options;
    this.#jar = options.cookieJar ?? new TestCookieJar();
  }

  /** The cookies the browser holds for an origin (names only, for tests and the demo's printout). */
  cookieNames(origin: string): string[] {
    return this.#jar.names(origin);
  }

  /** Open a URL as if typed in the address bar and follow redirects. */
  async open(url: string): Promise<BrowserPage> {
    return this.#navigate(url, undefined, 'navigate');
  }

  /** Submit a form of the page, like clicking its button. */
  async submit(form: HtmlForm, choices: Record<string, string> = {}): Promise<BrowserPage> {
    const values = formValues(form, choices);
    if (form.method === 'GET') {
      const target = new URL(form.action);
      target.search = values.toString();
      return this.#navigate(target.href, undefined, 'form');
    }
    return this.#navigate(form.action, values, 'form');
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
    return this.#navigate(action, params, 'relay');
  }

  /**
   * Follow a page to its end: open the URL and, whenever the browser lands on a relay page with
   * a fragment, run the relay.
   */
  async openAndRelay(url: string): Promise<BrowserPage> {
    const page = await this.open(url);
    return new URL(page.url).hash.length > 1 && isRelayPage(page) ? this.relay(page) : page;
  }

  /** Request `url`, a POST when there is a form to send, and follow redirects. */
  async #navigate(
    url: string,
    form: URLSearchParams | undefined,
    reason: BrowserStep['reason'],
  ): Promise<BrowserPage> {
    const { maxRedirects = 20, follow = () => true, onStep } = this.#options;
    const shown = this.#options.redactSteps === false ? (url: string) => url : redactUrl;
    let current = new URL(url);
    let body = form;
    let why = reason;
    for (let hop = 0; ; hop++) {
      if (hop > maxRedirects) throw new BrowserError(`too many redirects from ${redactUrl(url)}`);
      const method = body ? 'POST' : 'GET';
      const headers = new Headers({ accept: 'text/html,application/json;q=0.9' });
      const cookie = this.#jar.header(current);
      if (cookie) headers.set('cookie', cookie);
      if (body) headers.set('content-type', 'application/x-www-form-urlencoded');
      if (body) headers.set('origin', current.origin);
      const target = new URL(current.href);
      target.hash = '';
      const send = this.#options.fetch ?? globalThis.fetch;
      const res = await send(target.href, {
        method,
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
      onStep?.({
        method,
        url: shown(current.href),
        status: res.status,
        reason: why,
        ...(next ? { location: shown(next.href) } : {}),
      });
      if (next !== undefined) await res.body?.cancel().catch(() => {});
      // The page, or a redirect not followed (its body unread).
      if (next === undefined || !follow(next)) {
        const text = next === undefined ? await res.text() : '';
        return {
          url: current.href,
          status: res.status,
          headers: res.headers,
          body: text,
          forms: parseForms(text, target.href),
          ...(next === undefined ? {} : { redirectedTo: next.href }),
        };
      }
      // Browsers keep the method and body only for 307/308.
      if (res.status !== 307 && res.status !== 308) body = undefined;
      current = next;
      why = 'redirect';
    }
  }
}
