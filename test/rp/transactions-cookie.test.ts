import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AffiliationError, OptionsError } from '../../src/core/errors.js';
import { ValidationError } from '../../src/rp/errors.js';
import { CookieTransactionStore, MAX_COOKIE_BYTES } from '../../src/rp/transactions/index.js';
import type { Transaction, TransactionStore } from '../../src/rp/types.js';
import { transaction } from './transactions-fixtures.js';

const T0 = 1_700_000_000_000;
const SECRET = 'a-32-byte-or-longer-test-secret-value!!';

function storeAt(options: Partial<ConstructorParameters<typeof CookieTransactionStore>[0]> = {}) {
  const clock = { now: T0 };
  const store = new CookieTransactionStore({ secret: SECRET, now: () => clock.now, ...options });
  return { store, clock };
}

/** The `name=value` part of a Set-Cookie header, as a browser sends it back. */
function cookiePair(setCookie: string): string {
  return setCookie.split(';')[0] ?? '';
}

function sealOf(setCookie: string): string {
  return cookiePair(setCookie).split('=')[1] ?? '';
}

async function failure(promise: Promise<unknown>): Promise<ValidationError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe('CookieTransactionStore', () => {
  it('round-trips a transaction through the Set-Cookie and Cookie headers', async () => {
    const { store } = storeAt();
    const tx = transaction({
      claims: { id_token: { reuse_detection: null }, userinfo: { reuse_detection: null } },
      identifier: 'persistent',
      idpHint: 'https://idp.example.edu/idp/shibboleth',
    });
    const setCookie = await store.put(tx);
    const header = `other=1; ${cookiePair(setCookie)}; more=2`;
    expect(await store.take(tx.state, { cookie: header })).toEqual(tx);
  });

  it('works as a TransactionStore', async () => {
    const store: TransactionStore = storeAt().store;
    const setCookie = await store.put(transaction());
    expect(typeof setCookie).toBe('string');
    expect(await store.take(transaction().state, { cookie: cookiePair(setCookie ?? '') })).toBeDefined();
  });

  it('sets HttpOnly, Secure, SameSite=Lax, Path and Max-Age by default', async () => {
    const { store } = storeAt();
    const setCookie = await store.put(transaction());
    const [, ...attributes] = setCookie.split('; ');
    expect(attributes).toEqual(['Max-Age=600', 'Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']);
  });

  it('honours secure, sameSite, path, cookieName and ttlMs options', async () => {
    const { store } = storeAt({
      secure: false,
      sameSite: 'strict',
      path: '/auth',
      cookieName: 'tx',
      ttlMs: 90_000,
    });
    const setCookie = await store.put(transaction());
    expect(setCookie).toMatch(/^tx_[A-Za-z0-9_-]{16}=/);
    expect(setCookie.split('; ').slice(1)).toEqual([
      'Max-Age=90',
      'Path=/auth',
      'HttpOnly',
      'SameSite=Strict',
    ]);
  });

  it("caps Max-Age by the transaction's own expiry", async () => {
    const { store } = storeAt();
    expect(await store.put(transaction({ expiresAt: T0 + 30_500 }))).toContain('Max-Age=31;');
  });

  it('names one cookie per state, so several tabs keep their own transaction', async () => {
    const { store } = storeAt();
    const a = transaction({ state: 'state-a' });
    const b = transaction({ state: 'state-b' });
    const setA = await store.put(a);
    const setB = await store.put(b);
    expect(cookiePair(setA).split('=')[0]).toBe(store.cookieNameFor('state-a'));
    expect(store.cookieNameFor('state-a')).not.toBe(store.cookieNameFor('state-b'));
    expect(store.cookieNameFor('state-a')).toMatch(/^__Host-av_tx_[A-Za-z0-9_-]{16}$/);
    // Without Secure or with another path a __Host- cookie would be refused: the plain name then.
    const secret = 'x'.repeat(32);
    expect(new CookieTransactionStore({ secret, secure: false }).cookieNameFor('s')).toMatch(/^av_tx_/);
    expect(new CookieTransactionStore({ secret, path: '/cb' }).cookieNameFor('s')).toMatch(/^av_tx_/);
    const header = `${cookiePair(setA)}; ${cookiePair(setB)}`;
    expect(await store.take('state-b', { cookie: header })).toEqual(b);
    expect(await store.take('state-a', { cookie: header })).toEqual(a);
  });

  it('returns undefined when the cookie is absent', async () => {
    const { store } = storeAt();
    await store.put(transaction());
    expect(await store.take(transaction().state)).toBeUndefined();
    expect(await store.take(transaction().state, {})).toBeUndefined();
    expect(await store.take(transaction().state, { cookie: null })).toBeUndefined();
    expect(await store.take(transaction().state, { cookie: 'a=b; c=d' })).toBeUndefined();
    expect(await store.take('', { cookie: 'a=b' })).toBeUndefined();
  });

  it('reports expired_transaction after the expiry', async () => {
    const { store, clock } = storeAt({ ttlMs: 60_000 });
    const setCookie = await store.put(transaction());
    clock.now = T0 + 59_999;
    expect(await store.take(transaction().state, { cookie: cookiePair(setCookie) })).toBeDefined();
    clock.now = T0 + 60_000;
    const error = await failure(store.take(transaction().state, { cookie: cookiePair(setCookie) }));
    expect(error.code).toBe('expired_transaction');
  });

  it('binds the seal to its state: a cookie renamed for another state is refused', async () => {
    const { store } = storeAt();
    const setCookie = await store.put(transaction({ state: 'victim-state' }));
    const moved = `${store.cookieNameFor('attacker-state')}=${sealOf(setCookie)}`;
    const error = await failure(store.take('attacker-state', { cookie: moved }));
    expect(error.code).toBe('unknown_state');
    expect(error.message).toMatch(/another state/);
  });

  it('refuses a tampered seal with unknown_state and no jose error', async () => {
    const { store } = storeAt();
    const tx = transaction();
    const seal = sealOf(await store.put(tx));
    const parts = seal.split('.');
    const flip = (s: string) =>
      s[5] === 'A' ? `${s.slice(0, 5)}B${s.slice(6)}` : `${s.slice(0, 5)}A${s.slice(6)}`;
    const tampered = [
      [parts[0], parts[1], parts[2], flip(parts[3] ?? ''), parts[4]].join('.'), // ciphertext
      [parts[0], parts[1], parts[2], parts[3], flip(parts[4] ?? '')].join('.'), // tag
      [parts[0], parts[1], flip(parts[2] ?? ''), parts[3], parts[4]].join('.'), // iv
      [flip(parts[0] ?? ''), parts[1], parts[2], parts[3], parts[4]].join('.'), // header
      'not-a-jwe',
      '',
      `${seal}x`,
      'eyJhbGciOiJub25lIn0..AAAA.AAAA.AAAA',
    ];
    for (const value of tampered) {
      const error = await failure(
        store.take(tx.state, { cookie: `${store.cookieNameFor(tx.state)}=${value}` }),
      );
      expect(error.code).toBe('unknown_state');
      expect(error.cause).toBeUndefined();
      expect(error).toBeInstanceOf(AffiliationError);
    }
  });

  it('refuses a seal made with another secret', async () => {
    const other = new CookieTransactionStore({ secret: `${SECRET}-rotated`, now: () => T0 });
    const { store } = storeAt();
    const setCookie = await other.put(transaction());
    const error = await failure(store.take(transaction().state, { cookie: cookiePair(setCookie) }));
    expect(error.code).toBe('unknown_state');
    expect(error.message).toMatch(/different secret/);
  });

  it('accepts a string or a Uint8Array secret and derives the same key from the same bytes', async () => {
    const bytes = new TextEncoder().encode(SECRET);
    const fromBytes = new CookieTransactionStore({ secret: bytes, now: () => T0 });
    const setCookie = await fromBytes.put(transaction());
    expect(await storeAt().store.take(transaction().state, { cookie: cookiePair(setCookie) })).toBeDefined();
  });

  it('finds the right value when a duplicate cookie name is sent (e.g. different paths)', async () => {
    const { store } = storeAt();
    const setCookie = await store.put(transaction());
    const name = store.cookieNameFor(transaction().state);
    const header = `${name}=garbage; ${cookiePair(setCookie)}`;
    expect(await store.take(transaction().state, { cookie: header })).toEqual(transaction());
  });

  it('keeps every secret out of the cookie in plain text', async () => {
    const { store } = storeAt();
    const tx = transaction();
    const setCookie = await store.put(tx);
    const b64 = (s: string) => Buffer.from(s).toString('base64url');
    for (const secret of [tx.nonce, tx.codeVerifier ?? '', tx.state, tx.redirectUri]) {
      expect(setCookie).not.toContain(secret);
      expect(setCookie).not.toContain(b64(secret).slice(4, 24));
    }
    expect(setCookie).not.toContain(SECRET);
  });

  it('seals differently each time (fresh IV)', async () => {
    const { store } = storeAt();
    expect(sealOf(await store.put(transaction()))).not.toBe(sealOf(await store.put(transaction())));
  });

  it('fits the largest realistic transaction in one cookie (< 4 KB)', async () => {
    const { store } = storeAt({ cookieName: '__Host-av_tx' });
    const largest: Transaction = transaction({
      state: 'S'.repeat(43),
      nonce: 'N'.repeat(43),
      codeVerifier: 'V'.repeat(128),
      scopes: ['openid', 'faculty+staff', 'persistent', 'email', 'profile', 'offline_access'],
      affiliation: 'faculty+staff',
      identifier: 'persistent',
      claims: { id_token: { reuse_detection: null }, userinfo: { reuse_detection: null } },
      idpHint: `https://login.${'very-long-institution-name-'.repeat(6)}example.edu/simplesaml/saml2/idp/metadata.php`,
      redirectUri: `https://checkout.${'merchant-'.repeat(8)}example.com/integrations/affiliation-validation/callback?${'x'.repeat(300)}`,
    });
    const setCookie = await store.put(largest);
    expect(Buffer.byteLength(setCookie)).toBeLessThan(MAX_COOKIE_BYTES);
    expect(await store.take(largest.state, { cookie: cookiePair(setCookie) })).toEqual(largest);
  });

  it('refuses a transaction too large for a cookie with an OptionsError', async () => {
    const { store } = storeAt();
    await expect(
      store.put(transaction({ redirectUri: `https://shop.example/${'x'.repeat(4000)}` })),
    ).rejects.toThrow(/more than a browser keeps in one cookie/);
  });

  it('clearCookie deletes the cookie with matching attributes', () => {
    const { store } = storeAt({ path: '/cb' });
    const clear = store.clearCookie('state-a');
    expect(clear).toBe(
      `${store.cookieNameFor('state-a')}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/cb; HttpOnly; Secure; SameSite=Lax`,
    );
  });

  it('never throws anything but a ValidationError on hostile cookie headers', async () => {
    const { store } = storeAt();
    const name = store.cookieNameFor('s');
    for (const cookie of [
      ';;;',
      '=',
      `${name}`,
      `${name}=`,
      `${name}="x"`,
      `${name}=${'a.'.repeat(5000)}`,
      '\u0000',
    ]) {
      try {
        const result = await store.take('s', { cookie });
        expect(result).toBeUndefined();
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
      }
    }
  });

  it('answers any Cookie header with a transaction, undefined or a ValidationError (property)', async () => {
    const { store } = storeAt();
    const tx = transaction();
    const seal = sealOf(await store.put(tx));
    const name = store.cookieNameFor(tx.state);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.string({ maxLength: 200 }).map((v) => `${name}=${v}`),
          fc
            .nat({ max: seal.length - 1 })
            .chain((i) =>
              fc.constantFrom(...'AQw-_.').map((c) => `${name}=${seal.slice(0, i)}${c}${seal.slice(i + 1)}`),
            ),
        ),
        async (cookie) => {
          try {
            const result = await store.take(tx.state, { cookie });
            if (result !== undefined) expect(result).toEqual(tx);
          } catch (error) {
            expect(error).toBeInstanceOf(ValidationError);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('cannot detect a replay of a copied cookie: the documented trade-off of a stateless store', async () => {
    const { store } = storeAt();
    const setCookie = await store.put(transaction());
    const cookie = cookiePair(setCookie);
    expect(await store.take(transaction().state, { cookie })).toBeDefined();
    // The browser deletes the cookie on clearCookie(); a copy offered again still opens until it expires.
    expect(await store.take(transaction().state, { cookie })).toBeDefined();
  });

  it('validates options up front, naming the option', () => {
    const make = (options: object) => () =>
      new CookieTransactionStore({ secret: SECRET, ...options } as ConstructorParameters<
        typeof CookieTransactionStore
      >[0]);
    expect(make({ secret: 'short' })).toThrow(/`secret` must be at least 32 bytes, got 5/);
    expect(make({ secret: new Uint8Array(31) })).toThrow(/`secret`/);
    expect(make({ secret: 42 })).toThrow(/`secret`/);
    expect(make({ cookieName: 'a b' })).toThrow(/`cookieName`/);
    expect(make({ cookieName: 'a;b' })).toThrow(/`cookieName`/);
    expect(make({ cookieName: '' })).toThrow(/`cookieName`/);
    expect(make({ ttlMs: 0 })).toThrow(/`ttlMs`/);
    expect(make({ secure: 'yes' })).toThrow(/`secure`/);
    expect(make({ sameSite: 'none' })).toThrow(/`sameSite`/);
    expect(make({ path: 'cb' })).toThrow(/`path`/);
    expect(make({ path: '/a; Domain=evil' })).toThrow(/`path`/);
    expect(make({ now: 'soon' })).toThrow(/`now`/);
    expect(make({ cookieName: '__Host-tx', path: '/cb' })).toThrow(/__Host-/);
    expect(make({ cookieName: '__Secure-tx', secure: false })).toThrow(/__Secure-/);
    expect(() => new CookieTransactionStore(undefined as unknown as { secret: string })).toThrow(
      OptionsError,
    );
    expect(make({})).not.toThrow();
  });

  it('never echoes the secret in an options error', () => {
    try {
      new CookieTransactionStore({ secret: 'too-short-secret' });
    } catch (error) {
      expect((error as Error).message).not.toContain('too-short-secret');
    }
  });
});
