/**
 * The one cookie jar of the package's scripted browsers (the test provider's `authorize()` walker
 * and the CLI demo's browser).
 */

interface StoredCookie {
  value: string;
  path: string;
}

function originOf(url: string | URL | undefined): string {
  return url !== undefined && URL.canParse(url) ? new URL(url).origin : '';
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  return (
    requestPath === cookiePath ||
    requestPath.startsWith(cookiePath.endsWith('/') ? cookiePath : `${cookiePath}/`)
  );
}

/**
 * Cookies of a scripted browser, kept per origin (scheme, host and port: the sites of a local test
 * each have their own port), with `Path` honoured; `Max-Age=0` or a past `Expires` deletes. Pass the
 * same jar to several `authorize()` calls to keep one browser session.
 *
 * @group Testing
 */
export class TestCookieJar {
  readonly #byOrigin = new Map<string, Map<string, StoredCookie>>();

  /**
   * The `cookie` request header for `url` (its origin and path), or, without a URL, every cookie
   * held; `undefined` when none applies.
   */
  header(url?: string | URL): string | undefined {
    const pairs: string[] = [];
    const path = url === undefined ? undefined : new URL(url).pathname;
    for (const cookies of this.#for(url)) {
      for (const [name, c] of cookies) {
        if (path === undefined || pathMatches(path, c.path)) pairs.push(`${name}=${c.value}`);
      }
    }
    return pairs.length === 0 ? undefined : pairs.join('; ');
  }

  /**
   * Store the `Set-Cookie` headers of a response received from `url` (default: `response.url`, or
   * no particular origin when the response has none).
   */
  store(response: Response, url?: string | URL): void {
    const origin = originOf(url ?? response.url);
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      let path = '/';
      let remove = false;
      for (const attribute of attributes) {
        const at = attribute.indexOf('=');
        const key = (at === -1 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
        const v = at === -1 ? '' : attribute.slice(at + 1).trim();
        if (key === 'path' && v.startsWith('/')) path = v;
        if (key === 'max-age' && /^-?\d+$/.test(v) && Number(v) <= 0) remove = true;
        if (key === 'expires' && Date.parse(v) < Date.now()) remove = true;
      }
      const cookies = this.#byOrigin.get(origin) ?? new Map<string, StoredCookie>();
      this.#byOrigin.set(origin, cookies);
      if (remove) cookies.delete(name);
      else cookies.set(name, { value, path });
    }
  }

  /** The value of one cookie (for `url`'s origin when given). */
  get(name: string, url?: string | URL): string | undefined {
    for (const cookies of this.#for(url)) {
      const found = cookies.get(name);
      if (found !== undefined) return found.value;
    }
    return undefined;
  }

  /** The names of the cookies held for an origin. */
  names(url: string | URL): string[] {
    return [...(this.#byOrigin.get(originOf(url))?.keys() ?? [])];
  }

  /**
   * The cookies of `url`'s origin (every origin's without a URL), and those stored without knowing
   * their origin (an in-process response): those go to every origin.
   */
  *#for(url: string | URL | undefined): Iterable<Map<string, StoredCookie>> {
    const origin = originOf(url);
    for (const [key, cookies] of this.#byOrigin)
      if (origin === '' || key === '' || key === origin) yield cookies;
  }
}
