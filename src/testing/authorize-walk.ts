/**
 * `TestProvider.authorize()`: the scripted browser walks the provider's own pages, submitting the
 * one form of each with its default values, until a redirect leaves them.
 */
import { AffiliationError } from '../core/errors.js';
import { Browser, BrowserError } from './browser.js';
import type { TestCookieJar } from './cookie-jar.js';

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
  constructor(message: string, options: { status?: number | undefined; cause?: unknown } = {}) {
    super(message, { code: 'authorize_walk_failed', cause: options.cause });
    this.status = options.status;
  }
}

/** Walk from `start` through the pages `isProviderPage` accepts; resolve with the URL redirected to. */
export async function walkAuthorization(
  isProviderPage: (url: URL) => boolean,
  start: string | URL,
  options: AuthorizeOptions,
  defaultFetch: typeof fetch,
): Promise<string> {
  const maxSteps = options.maxSteps ?? 20;
  const url = new URL(start);
  if (!isProviderPage(url)) {
    throw new TestProviderWalkError(
      `${url.origin}${url.pathname} is not the authorization endpoint of this provider`,
    );
  }
  let steps = 0;
  const browser = new Browser({
    fetch: options.fetch ?? defaultFetch,
    follow: isProviderPage,
    redactSteps: false,
    maxRedirects: maxSteps,
    ...(options.cookieJar ? { cookieJar: options.cookieJar } : {}),
    onStep: ({ method, url, status, location }) => {
      steps++;
      options.onStep?.({ method, url, status, ...(location ? { location } : {}) });
    },
  });
  const typed: Record<string, string> = { ...options.fields };
  if (options.institution !== undefined) typed.entity_id = options.institution;
  try {
    let page = await browser.open(url.href);
    while (page.redirectedTo === undefined) {
      if (steps >= maxSteps) {
        throw new TestProviderWalkError(
          `Gave up after ${maxSteps} requests without reaching the redirect URI`,
        );
      }
      const { status } = page;
      const path = new URL(page.url).pathname;
      if (status >= 300 && status < 400) {
        throw new TestProviderWalkError('A redirect without a Location header', { status });
      }
      if (status !== 200)
        throw new TestProviderWalkError(`The provider answered ${status} at ${path}`, { status });
      const form = page.forms[0];
      if (form === undefined) throw new TestProviderWalkError(`No form on the page at ${path}`, { status });
      // Values typed into the form replace the defaults, only where the form has that field.
      const choices = Object.fromEntries(
        Object.entries(typed).filter(([name]) => form.fields.some((field) => field.name === name)),
      );
      page = await browser.submit(form, choices);
    }
    return page.redirectedTo;
  } catch (error) {
    if (error instanceof BrowserError) throw new TestProviderWalkError(error.message, { cause: error });
    throw error;
  }
}
