/**
 * A minimal scripted browser for the provider's own pages: follows redirects by hand, keeps
 * cookies, and submits the one form of each page with its default values.
 */
import { AffiliationError } from '../core/errors.js';
import { TestCookieJar } from './cookie-jar.js';
import { formValues, type HtmlForm, parseForms } from './html-form.js';
import type { TestProvider } from './provider.js';

export { TestCookieJar };

/** One request the scripted browser made. @group Testing */
export interface AuthorizeStep {
  method: 'GET' | 'POST';
  url: string;
  status: number;
  /** The `Location` of a redirect. */
  location?: string;
}

/** Options of `TestProvider.authorize()`. @group Testing */
export interface AuthorizeOptions {
  /** entityID picked on the institution selection page. Default: the page's first (preselected) institution. */
  institution?: string | undefined;
  /**
   * Values typed into the pages' forms, by field name, replacing the defaults wherever a form has
   * that field: `username` on the login page (used as the user when no outcome is scripted),
   * `consent` (`'yes'` or `'no'`) on the consent page. Default: none (each form's defaults).
   */
  fields?: Record<string, string> | undefined;
  /** Cookie jar of the scripted browser. Default: a new, empty jar. */
  cookieJar?: TestCookieJar | undefined;
  /** The fetch used for every step. Default: real HTTP for a started provider, in-process otherwise. */
  fetch?: typeof fetch | undefined;
  /** Called after every request, e.g. to print the walk. Default: none. */
  onStep?: ((step: AuthorizeStep) => void) | undefined;
  /** Most requests made before giving up. Default: `20`. */
  maxSteps?: number | undefined;
}

/** The scripted browser could not walk the provider's pages (an unexpected page or status). @group Testing */
export class TestProviderWalkError extends AffiliationError {
  declare readonly code: 'authorize_walk_failed';
  /** HTTP status of the last response. */
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message, { code: 'authorize_walk_failed' });
    this.status = status;
  }
}

export async function walkAuthorization(
  provider: TestProvider,
  start: string | URL,
  options: AuthorizeOptions,
  defaultFetch: typeof fetch,
): Promise<string> {
  const doFetch = options.fetch ?? defaultFetch;
  const jar = options.cookieJar ?? new TestCookieJar();
  const maxSteps = options.maxSteps ?? 20;
  const isProviderPage = (url: URL) => provider.isInteractivePage(url);

  let url = new URL(start);
  if (!isProviderPage(url)) {
    throw new TestProviderWalkError(
      `${url.origin}${url.pathname} is not the authorization endpoint of this provider`,
    );
  }
  let method: 'GET' | 'POST' = 'GET';
  let body: string | undefined;
  for (let step = 0; step < maxSteps; step++) {
    const headers: Record<string, string> = { accept: 'text/html' };
    const cookie = jar.header(url);
    if (cookie !== undefined) headers.cookie = cookie;
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response: Response = await doFetch(url.href, { method, headers, body, redirect: 'manual' });
    jar.store(response, url);
    const location = response.headers.get('location') ?? undefined;
    options.onStep?.({ method, url: url.href, status: response.status, ...(location ? { location } : {}) });

    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      if (location === undefined)
        throw new TestProviderWalkError('A redirect without a Location header', response.status);
      const next = new URL(location, url);
      if (!isProviderPage(next)) return next.href;
      url = next;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html: string = await response.text();
    if (response.status !== 200) {
      throw new TestProviderWalkError(
        `The provider answered ${response.status} at ${url.pathname}`,
        response.status,
      );
    }
    const form: HtmlForm | undefined = parseForms(html, url.href)[0];
    if (form === undefined)
      throw new TestProviderWalkError(`No form on the page at ${url.pathname}`, response.status);
    // Values typed into the form replace the defaults, only where the form has that field.
    const typed: Record<string, string> = { ...options.fields };
    if (options.institution !== undefined) typed.entity_id = options.institution;
    const choices = Object.fromEntries(
      Object.entries(typed).filter(([name]) => form.fields.some((field) => field.name === name)),
    );
    url = new URL(form.action);
    method = form.method;
    const encoded = formValues(form, choices).toString();
    if (method === 'GET') {
      url.search = encoded;
      body = undefined;
    } else {
      body = encoded;
    }
  }
  throw new TestProviderWalkError(`Gave up after ${maxSteps} requests without reaching the redirect URI`);
}
