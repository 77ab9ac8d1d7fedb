import { base64 } from '../core/crypto.js';
import { OptionsError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { isSecureUrl } from '../core/url-policy.js';

/**
 * Application-password credentials (HTTP Basic). Create one in the site's admin under Users →
 * Profile → Application Passwords, or through `DocsSiteClient.authorizationUrl()`.
 *
 * @group Docs site
 */
export interface DocsSiteAuth {
  /** The user's login name. */
  username: string;
  /** The application password, with or without its spaces. Never logged and redacted from every error. */
  applicationPassword: string;
}

/**
 * Options of {@link DocsSiteClient}. Validated when the client is built; a bad option throws an
 * `OptionsError` naming it.
 *
 * @group Docs site
 */
export interface DocsSiteOptions {
  /**
   * The site's base address `{docs_url}`, e.g. `https://docs.example.org` (a sub-directory such as
   * `https://example.org/docs` works). `http:` is accepted, but credentials are only sent over
   * `http:` to a loopback host.
   */
  baseUrl: string | URL;
  /** The REST root `{rest_root}` below the base address. Default `wp-json`. Ignored with `routeStyle: 'query'`. */
  restRoot?: string | undefined;
  /**
   * How routes are addressed. `path` (default): `{baseUrl}/{restRoot}/cms/v2/posts`. `query`:
   * `{baseUrl}/?rest_route=/cms/v2/posts`, which every WordPress answers, also one without pretty
   * permalinks.
   */
  routeStyle?: 'path' | 'query' | undefined;
  /** Application-password credentials. Without them requests are anonymous (reads of public content). */
  auth?: DocsSiteAuth | undefined;
  /**
   * Namespace of the content routes. Default `cms/v2` (the service); a stock WordPress names it
   * `wp/v2`. `DocsSiteClient.connect()` reads it from the site's index (and checks this one there).
   */
  contentNamespace?: string | undefined;
  /** The fetch implementation. Default: undici's `fetch` on the SDK's pooled agent; msw tests pass `globalThis.fetch`. */
  fetch?: typeof fetch | undefined;
  /** Time limit of one attempt in milliseconds. Default 10 000 ms. */
  timeoutMs?: number | undefined;
  /** Retries of idempotent requests (GET, PUT, DELETE) on 429/502/503/504 and network errors. Default 2; POST and PATCH are never retried. */
  retries?: number | undefined;
  /** Largest answer accepted, in bytes. Default 5 MiB. */
  maxResponseBytes?: number | undefined;
  /** Structured logger; receives only redacted data. Default: no-op. */
  logger?: Logger | undefined;
}

/** Check the options up front and name the bad one; returns them normalized. */
export function resolveOptions(options: DocsSiteOptions) {
  if (typeof options !== 'object' || options === null)
    throw new OptionsError('DocsSiteClient options are required');
  const href = String(options.baseUrl);
  const url = URL.canParse(href) ? new URL(href) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new OptionsError('baseUrl must be an absolute http(s) URL');
  }
  if (url.username || url.password) {
    throw new OptionsError('baseUrl must not hold credentials; use the auth option');
  }
  if (url.search || url.hash) throw new OptionsError('baseUrl must not have a query or a fragment');
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;

  const restRoot = (options.restRoot ?? 'wp-json').replace(/^\/+|\/+$/g, '');
  if (!/^[\w.~-]*(\/[\w.~-]+)*$/.test(restRoot) || restRoot.split('/').some((s) => s === '..' || s === '.')) {
    throw new OptionsError('restRoot must be a path such as "wp-json"');
  }

  const routeStyle = options.routeStyle ?? 'path';
  if (routeStyle !== 'path' && routeStyle !== 'query')
    throw new OptionsError('routeStyle must be "path" or "query"');

  const contentNamespace = options.contentNamespace ?? 'cms/v2';
  if (typeof contentNamespace !== 'string' || !/^[\w.-]+\/[\w.-]+$/.test(contentNamespace)) {
    throw new OptionsError('contentNamespace must look like "cms/v2" or "wp/v2"');
  }

  let auth: DocsSiteAuth | undefined;
  if (options.auth !== undefined) {
    const { username, applicationPassword } = options.auth ?? {};
    if (typeof username !== 'string' || username === '' || username.includes(':')) {
      throw new OptionsError('auth.username must be a non-empty string without ":"');
    }
    if (typeof applicationPassword !== 'string' || applicationPassword.trim() === '') {
      throw new OptionsError('auth.applicationPassword must be a non-empty string');
    }
    if (!isSecureUrl(url)) {
      throw new OptionsError(
        'baseUrl must use https when auth is set: an application password is never sent in clear text (http is allowed on loopback hosts only)',
      );
    }
    auth = { username, applicationPassword };
  }
  return { base, restRoot, routeStyle, contentNamespace, auth };
}

/** The Authorization header value and the secrets to redact for the credentials. */
export function basicAuth(auth: DocsSiteAuth): { header: string; secrets: string[] } {
  const token = base64(`${auth.username}:${auth.applicationPassword}`);
  const compact = auth.applicationPassword.replace(/\s+/g, '');
  const spaced = auth.applicationPassword;
  const secrets = [spaced, compact, token, encodeURIComponent(spaced)];
  // The password's four-character groups (WordPress shows "abcd efgh ijkl …") must not leak one by one either.
  for (const group of spaced.split(/\s+/)) if (group.length >= 4) secrets.push(group);
  return { header: `Basic ${token}`, secrets: [...new Set(secrets)] };
}
