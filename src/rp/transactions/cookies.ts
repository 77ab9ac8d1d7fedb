import { OptionsError } from '../../core/errors.js';
import { describe } from '../../core/options.js';
import type { TransactionContext } from '../types.js';
import type { CookieTransactionStoreOptions } from './cookie.js';

/**
 * Most transaction cookies one browser holds for one store: the newest 3 validations. Two tabs
 * validating side by side still work, with room for one restart (a shopper who went back and
 * clicked again); an older start is superseded. Each cookie costs Cookie-header bytes on every
 * request to the shop, so more would cost every shopper for a case that practically never occurs.
 */
export const MAX_TRANSACTION_COOKIES = 3;

/** The live validation a binding cookie stands for: when it started (or expires), and its state. */
export interface Occupant {
  order: number;
  state?: string | undefined;
}

const COOKIE_NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;
const PATH_RE = /^\/[\x21-\x3A\x3C-\x7E]{0,255}$/;

/**
 * The fixed set of cookie names a store uses, `<prefix>_0` … `<prefix>_2` (slots), with the same
 * attributes on every cookie (so a deletion matches the cookie it deletes). A browser can hold no
 * more of them than there are names, whatever the number of starts: the budget holds by
 * construction, even when a start route does not pass the request's cookies.
 */
export class TransactionCookies {
  readonly prefix: string;
  readonly attributes: string;
  readonly secure: boolean;

  /**
   * Without a `cookieName`, the prefix is `defaultName` with the `__Host-` prefix when the cookie
   * is `Secure` with path `/` (the defaults): a browser then refuses the cookie from any other
   * host, so a sibling subdomain cannot plant one (cookie tossing).
   *
   * @throws {OptionsError} for an option a browser would refuse or misread.
   */
  constructor(
    options: Pick<CookieTransactionStoreOptions, 'cookieName' | 'secure' | 'sameSite' | 'path'>,
    defaultName: string,
  ) {
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
    this.secure = secure;
    this.attributes = `Path=${path}; HttpOnly${secure ? '; Secure' : ''}; SameSite=${sameSite === 'lax' ? 'Lax' : 'Strict'}`;
  }

  /** The cookie name of slot `slot` (0 … {@link MAX_TRANSACTION_COOKIES} − 1). */
  nameOf(slot: number): string {
    return `${this.prefix}_${slot}`;
  }

  /**
   * The values of each slot in a `Cookie` header, by slot (several values for one name are
   * possible: cookies of another path, or planted ones).
   */
  read(header: string): string[][] {
    const slots: string[][] = [];
    for (let slot = 0; slot < MAX_TRANSACTION_COOKIES; slot++) slots.push([]);
    for (const pair of header.split(';')) {
      const eq = pair.indexOf('=');
      if (eq === -1) continue;
      const name = pair.slice(0, eq).trim();
      if (name.length !== this.prefix.length + 2 || !name.startsWith(`${this.prefix}_`)) continue;
      const slot = slots[Number(name.at(-1))];
      let value = pair.slice(eq + 1).trim();
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
      if (slot !== undefined && value !== '') slot.push(value);
    }
    return slots;
  }

  /**
   * The slot a new start takes, the rule of every store that binds: the first slot this browser does
   * not use for a live validation, else the one of its oldest, which is then superseded (its callback
   * gets `unknown_state`). Without the start request's cookies (`header` undefined), slot 0: one
   * validation per browser. `live(value, slot)` tells which live validation a cookie value binds:
   * its order (when it started) and, where the store knows it, its state; `undefined` for none.
   */
  async slotFor(
    header: string | undefined,
    live: (value: string, slot: number) => Occupant | undefined | Promise<Occupant | undefined>,
  ): Promise<{ slot: number; superseded?: string | undefined }> {
    if (header === undefined) return { slot: 0 };
    const slots = this.read(header);
    let oldest: (Occupant & { slot: number }) | undefined;
    for (const [slot, values] of slots.entries()) {
      let occupant: Occupant | undefined;
      for (const value of values) {
        const found = await live(value, slot);
        if (found !== undefined && (occupant === undefined || found.order > occupant.order)) occupant = found;
      }
      if (occupant === undefined) return { slot };
      if (oldest === undefined || occupant.order < oldest.order) oldest = { slot, ...occupant };
    }
    return { slot: oldest?.slot ?? 0, superseded: oldest?.state };
  }

  /** The `Set-Cookie` header value that sets slot `slot`. */
  set(slot: number, value: string, maxAgeSeconds: number): string {
    return `${this.nameOf(slot)}=${value}; Max-Age=${maxAgeSeconds}; ${this.attributes}`;
  }

  /** The `Set-Cookie` header value that deletes slot `slot`. */
  clear(slot: number): string {
    return `${this.nameOf(slot)}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; ${this.attributes}`;
  }
}

/**
 * The request's Cookie header from a store context: `undefined` when the caller does not know it,
 * `''` when the request had none.
 */
export function cookieHeader(context: TransactionContext | undefined): string | undefined {
  const cookie = context?.cookie;
  if (cookie === undefined) return undefined;
  return typeof cookie === 'string' ? cookie : '';
}

/**
 * A binding store was asked to take a transaction without the callback's cookies: refuse (fail
 * closed) and say what to pass.
 */
export function cookieRequired(): OptionsError {
  return new OptionsError(
    "The transaction store binds validations to the browser, so it needs the callback request's Cookie header: " +
      'pass the request itself (validateCallback(request)), or the URL with { cookie: req.headers.cookie } ' +
      "(Web Request: request.headers.get('cookie'))",
  );
}
