/**
 * A minimal scripted browser for the provider's own pages: follows redirects by hand, keeps
 * cookies, and submits the one form of each page with its default values.
 */
import { AffiliationError } from '../core/errors.js';
import type { TestProvider } from './provider.js';

/**
 * Cookies of the scripted browser, for the provider's origin. Pass the same jar to several
 * `authorize()` calls to keep one browser session.
 *
 * @group Testing
 */
export class TestCookieJar {
  readonly #cookies = new Map<string, string>();

  /** The `cookie` request header value, or `undefined` when the jar is empty. */
  header(): string | undefined {
    if (this.#cookies.size === 0) return undefined;
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Store the `Set-Cookie` headers of a response (`Max-Age=0` deletes). */
  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const expired = attributes.some((a) => /^\s*max-age\s*=\s*(0|-\d+)\s*$/i.test(a));
      if (expired) this.#cookies.delete(name);
      else this.#cookies.set(name, pair.slice(eq + 1).trim());
    }
  }

  /** The value of one cookie. */
  get(name: string): string | undefined {
    return this.#cookies.get(name);
  }
}

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
  institution?: string;
  /**
   * Values typed into the pages' forms, by field name, replacing the defaults wherever a form has
   * that field: `username` on the login page (used as the user when no outcome is scripted),
   * `consent` (`'yes'` or `'no'`) on the consent page. Default: none (each form's defaults).
   */
  fields?: Record<string, string>;
  /** Cookie jar of the scripted browser. Default: a new, empty jar. */
  cookieJar?: TestCookieJar;
  /** The fetch used for every step. Default: real HTTP for a started provider, in-process otherwise. */
  fetch?: typeof fetch;
  /** Called after every request, e.g. to print the walk. Default: none. */
  onStep?: (step: AuthorizeStep) => void;
  /** Most requests made before giving up. Default: `20`. */
  maxSteps?: number;
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
    const cookie = jar.header();
    if (cookie !== undefined) headers.cookie = cookie;
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await doFetch(url.href, { method, headers, body, redirect: 'manual' });
    jar.store(response);
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
    const html = await response.text();
    if (response.status !== 200) {
      throw new TestProviderWalkError(
        `The provider answered ${response.status} at ${url.pathname}`,
        response.status,
      );
    }
    const form = parseForm(html);
    if (form === undefined)
      throw new TestProviderWalkError(`No form on the page at ${url.pathname}`, response.status);
    const overrides: Record<string, string> = { ...options.fields };
    if (options.institution !== undefined) overrides.entity_id = options.institution;
    for (const [name, value] of Object.entries(overrides)) {
      if (!form.fields.some(([field]) => field === name)) continue;
      form.fields = form.fields.filter(([field]) => field !== name);
      form.fields.push([name, value]);
    }
    url = new URL(form.action, url);
    method = form.method;
    const encoded = new URLSearchParams(form.fields).toString();
    if (method === 'GET') {
      url.search = encoded;
      body = undefined;
    } else {
      body = encoded;
    }
  }
  throw new TestProviderWalkError(`Gave up after ${maxSteps} requests without reaching the redirect URI`);
}

interface ParsedForm {
  action: string;
  method: 'GET' | 'POST';
  fields: [string, string][];
}

/** Parse the first form of a page into what a browser would submit with the defaults. */
export function parseForm(html: string): ParsedForm | undefined {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (form === null) return undefined;
  const formAttrs = attributes(form[1] ?? '');
  const inner = form[2] ?? '';
  const fields: [string, string][] = [];
  const elements = /<select\b([^>]*)>([\s\S]*?)<\/select>|<input\b([^>]*)>/gi;
  for (const match of inner.matchAll(elements)) {
    const isSelect = match[1] !== undefined;
    const attrs = attributes((isSelect ? match[1] : match[3]) ?? '');
    const name = attrs.get('name');
    if (name === undefined || attrs.has('disabled')) continue;
    if (isSelect) {
      const options = [...(match[2] ?? '').matchAll(/<option\b([^>]*)>([\s\S]*?)<\/option>/gi)].map((o) => {
        const optionAttrs = attributes(o[1] ?? '');
        return {
          value: optionAttrs.get('value') ?? decodeEntities((o[2] ?? '').trim()),
          selected: optionAttrs.has('selected'),
        };
      });
      const chosen = options.find((o) => o.selected) ?? options[0];
      if (chosen !== undefined) fields.push([name, chosen.value]);
      continue;
    }
    const type = (attrs.get('type') ?? 'text').toLowerCase();
    if (type === 'submit' || type === 'button' || type === 'image' || type === 'reset' || type === 'file')
      continue;
    if ((type === 'radio' || type === 'checkbox') && !attrs.has('checked')) continue;
    fields.push([name, attrs.get('value') ?? (type === 'checkbox' || type === 'radio' ? 'on' : '')]);
  }
  return {
    action: formAttrs.get('action') ?? '',
    method: (formAttrs.get('method') ?? 'get').toUpperCase() === 'POST' ? 'POST' : 'GET',
    fields,
  };
}

function attributes(source: string): Map<string, string> {
  const result = new Map<string, string>();
  const re = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (const m of source.matchAll(re)) {
    const name = (m[1] ?? '').toLowerCase();
    if (!result.has(name)) result.set(name, decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  }
  return result;
}

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower === 'amp') return '&';
    if (lower === 'lt') return '<';
    if (lower === 'gt') return '>';
    if (lower === 'quot') return '"';
    if (lower === 'apos') return "'";
    const code = lower.startsWith('#x')
      ? Number.parseInt(lower.slice(2), 16)
      : Number.parseInt(lower.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
