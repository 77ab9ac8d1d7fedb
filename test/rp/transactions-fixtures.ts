import { expect } from 'vitest';
import { ValidationError } from '../../src/rp/errors.js';
import type { Transaction } from '../../src/rp/types.js';

/** A realistic transaction; `overrides` change any field. */
export function transaction(overrides: Partial<Transaction> = {}, now = 1_700_000_000_000): Transaction {
  return {
    state: 'st-Yk3b8Vq0rS9Jm2Xw5Zc7Lp4Nd1Hf6Tg0Ea8Ub3Qy',
    nonce: 'no-Fh2Kd9Wq4Vb7Zx1Mc6Jp3Ls8Rt0Yg5Ne2Ua7Hi',
    codeVerifier: 'cv-Pq8Lm3Zx6Vb1Nw9Kd4Jh7Gf2Ts5Ry0Ea3Uc8Yi',
    responseType: 'code',
    scopes: ['openid', 'student'],
    affiliation: 'student',
    redirectUri: 'https://shop.example/callback',
    createdAt: now,
    expiresAt: now + 600_000,
    ...overrides,
  };
}

/** The `ValidationError` code a promise rejects with, or `'no error'`. */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).code;
  }
  return 'no error';
}

/**
 * A browser's cookie jar for one site, as far as a store's cookies go: applies `Set-Cookie` values
 * (a later one replaces the cookie of the same name, `Max-Age=0` deletes it, expiry by the jar's
 * clock) and gives the `Cookie` header the browser would send.
 */
export class CookieJar {
  readonly #cookies = new Map<string, { value: string; expiresAt: number }>();
  constructor(readonly now: () => number = Date.now) {}

  apply(setCookie: string | undefined): void {
    if (setCookie === undefined) return;
    const [pair = '', ...attributes] = setCookie.split('; ');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const maxAge = attributes.find((a) => a.startsWith('Max-Age='));
    const seconds = maxAge === undefined ? Number.POSITIVE_INFINITY : Number(maxAge.slice(8));
    if (seconds <= 0) this.#cookies.delete(name);
    else this.#cookies.set(name, { value: pair.slice(eq + 1), expiresAt: this.now() + seconds * 1000 });
  }

  /** The `Cookie` header: `''` when the jar is empty. */
  header(): string {
    const now = this.now();
    return [...this.#cookies]
      .filter(([, c]) => c.expiresAt > now)
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  names(): string[] {
    return [...this.#cookies.keys()];
  }
}
