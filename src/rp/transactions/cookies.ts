import { createHash } from 'node:crypto';
import { OptionsError } from '../../core/errors.js';
import { describe } from './options.js';

/** Cookie options shared by the stores that put a cookie per transaction in the browser. */
export interface TransactionCookieOptions {
  cookieName?: string;
  secure?: boolean;
  sameSite?: 'lax' | 'strict';
  path?: string;
}

const COOKIE_NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;
const PATH_RE = /^\/[\x21-\x3A\x3C-\x7E]{0,255}$/;

/**
 * One cookie per transaction, named `<prefix>_<16 chars>` after its state, with the same
 * attributes on every cookie (so a deletion matches the cookie it deletes).
 */
export class TransactionCookies {
  readonly prefix: string;
  readonly attributes: string;

  /**
   * Without a `cookieName`, the name is `defaultName` with the `__Host-` prefix when the cookie is
   * `Secure` with path `/` (the defaults): a browser then refuses the cookie from any other host,
   * so a sibling subdomain cannot plant one (cookie tossing).
   *
   * @throws {OptionsError} for an option a browser would refuse or misread.
   */
  constructor(options: TransactionCookieOptions, defaultName: string) {
    const cookieName = options.cookieName;
    if (cookieName !== undefined && (typeof cookieName !== 'string' || !COOKIE_NAME_RE.test(cookieName))) {
      throw new OptionsError(
        `Option \`cookieName\` must be 1–64 characters of A–Z, a–z, 0–9, "_", "." or "-", got ${describe(cookieName)}`,
      );
    }
    const secure = options.secure ?? true;
    if (typeof secure !== 'boolean') {
      throw new OptionsError(`Option \`secure\` must be a boolean, got ${describe(secure)}`);
    }
    const sameSite = options.sameSite ?? 'lax';
    if (sameSite !== 'lax' && sameSite !== 'strict') {
      throw new OptionsError(`Option \`sameSite\` must be 'lax' or 'strict', got ${describe(sameSite)}`);
    }
    const path = options.path ?? '/';
    if (typeof path !== 'string' || !PATH_RE.test(path)) {
      throw new OptionsError(
        `Option \`path\` must start with "/" and hold no spaces, ";" or control characters, got ${describe(path)}`,
      );
    }
    const name = cookieName ?? (secure && path === '/' ? `__Host-${defaultName}` : defaultName);
    if (name.startsWith('__Host-') && (!secure || path !== '/')) {
      throw new OptionsError(
        'Option `cookieName` with the `__Host-` prefix requires `secure: true` and `path: "/"`',
      );
    }
    if (name.startsWith('__Secure-') && !secure) {
      throw new OptionsError('Option `cookieName` with the `__Secure-` prefix requires `secure: true`');
    }
    this.prefix = name;
    this.attributes = `Path=${path}; HttpOnly${secure ? '; Secure' : ''}; SameSite=${sameSite === 'lax' ? 'Lax' : 'Strict'}`;
  }

  /**
   * The cookie name for `state`: the prefix, `_`, and the first 16 base64url characters (96 bits)
   * of SHA-256(state). One cookie per transaction, so validations in several tabs do not overwrite
   * each other.
   */
  nameFor(state: string): string {
    const digest = createHash('sha256').update(state, 'utf8').digest('base64url');
    return `${this.prefix}_${digest.slice(0, 16)}`;
  }

  /** The `Set-Cookie` header value that sets the cookie for `state`. */
  set(state: string, value: string, maxAgeSeconds: number): string {
    return `${this.nameFor(state)}=${value}; Max-Age=${maxAgeSeconds}; ${this.attributes}`;
  }

  /** The `Set-Cookie` header value that deletes the cookie for `state`. */
  clear(state: string): string {
    return `${this.nameFor(state)}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; ${this.attributes}`;
  }
}

/** All values of cookie `name` in a `Cookie` header (RFC 6265 §5.4 form: `a=b; c=d`). */
export function cookieValues(header: string, name: string): string[] {
  const values: string[] = [];
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq === -1) continue;
    if (pair.slice(0, eq).trim() !== name) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    values.push(value);
  }
  return values;
}
