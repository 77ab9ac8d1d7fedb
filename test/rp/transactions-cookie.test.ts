import { hkdfSync } from 'node:crypto';
import fc from 'fast-check';
import { compactDecrypt } from 'jose';
import { describe, expect, it } from 'vitest';
import { AffiliationError, OptionsError } from '../../src/core/errors.js';
import { ValidationError } from '../../src/rp/errors.js';
import { encodeTransaction } from '../../src/rp/transactions/codec.js';
import { CookieTransactionStore, MAX_COOKIE_PAIR_BYTES } from '../../src/rp/transactions/index.js';
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

/** The locator the store puts before a seal: the state's first 12 bytes as base64url, padded to 16. */
function tagOf(state: string): string {
  return Buffer.from(state).subarray(0, 12).toString('base64url').padEnd(16, 'A');
}

async function failure(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => new Error('expected a ValidationError'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
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
    // The cookie outlives the seal (10 minutes) by 10 minutes: a late callback is then told "expired".
    expect(attributes).toEqual(['Max-Age=1200', 'Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']);
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
    expect(setCookie).toMatch(/^tx_0=/);
    expect(setCookie.split('; ').slice(1)).toEqual([
      'Max-Age=690',
      'Path=/auth',
      'HttpOnly',
      'SameSite=Strict',
    ]);
  });

  it("caps Max-Age by the transaction's own expiry", async () => {
    const { store } = storeAt();
    expect(await store.put(transaction({ expiresAt: T0 + 30_500 }))).toContain('Max-Age=631;');
  });

  it('gives two tabs two cookie names, so each keeps its own transaction', async () => {
    const { store } = storeAt();
    const a = transaction({ state: 'state-a' });
    const b = transaction({ state: 'state-b' });
    const setA = await store.put(a, { cookie: 'session=1' });
    const setB = await store.put(b, { cookie: `session=1; ${cookiePair(setA)}` });
    expect(store.cookieNames).toEqual(['__Host-av_tx_0', '__Host-av_tx_1', '__Host-av_tx_2']);
    expect(cookiePair(setA).split('=')[0]).toBe('__Host-av_tx_0');
    expect(cookiePair(setB).split('=')[0]).toBe('__Host-av_tx_1');
    // Without Secure or with another path a __Host- cookie would be refused: the plain name then.
    const secret = 'x'.repeat(32);
    expect(new CookieTransactionStore({ secret, secure: false }).cookieNames[0]).toBe('av_tx_0');
    expect(new CookieTransactionStore({ secret, path: '/cb' }).cookieNames[0]).toBe('av_tx_0');
    const header = `${cookiePair(setA)}; ${cookiePair(setB)}`;
    expect(await store.take('state-b', { cookie: header })).toEqual(b);
    expect(await store.take('state-a', { cookie: header })).toEqual(a);
  });

  it('fails closed without the callback’s cookies, and says when the request carries no transaction cookie', async () => {
    const { store } = storeAt();
    await store.put(transaction());
    for (const context of [undefined, {}, { cookie: undefined }]) {
      await expect(store.take(transaction().state, context)).rejects.toThrow(OptionsError);
    }
    for (const cookie of [null, '', 'a=b; c=d']) {
      const error = await failure(store.take(transaction().state, { cookie }));
      expect(error.code).toBe('unknown_state');
      expect(error.message).toMatch(
        /carries no transaction cookie: the start route did not send `setCookie`/,
      );
      expect(error.message).toMatch(
        /served over plain http on a host other than localhost, where a browser drops a `Secure` cookie \(serve it over https, or on localhost\)/,
      );
      expect(error.message).toMatch(/another browser/);
    }
    expect(await store.take('', { cookie: 'a=b' })).toBeUndefined();
    // With secure: false, plain http is not a reason.
    const plain = new CookieTransactionStore({ secret: SECRET, secure: false });
    expect((await failure(plain.take('s', { cookie: '' }))).message).not.toMatch(/Secure/);
  });

  it('says when the browser holds transaction cookies, but none for this state', async () => {
    const { store } = storeAt();
    const cookie = cookiePair(await store.put(transaction({ state: 'other-state' }), { cookie: '' }));
    const error = await failure(store.take('this-state', { cookie }));
    expect(error.code).toBe('unknown_state');
    expect(error.message).toMatch(/hold other validations, none for this state/);
    expect(error.message).toMatch(/another browser/);
  });

  it('reports expired_transaction after the expiry', async () => {
    const { store, clock } = storeAt({ ttlMs: 60_000 });
    const setCookie = await store.put(transaction());
    clock.now = T0 + 59_999;
    const other = new CookieTransactionStore({ secret: SECRET, now: () => clock.now });
    expect(await other.take(transaction().state, { cookie: cookiePair(setCookie) })).toBeDefined();
    clock.now = T0 + 60_000;
    const error = await failure(store.take(transaction().state, { cookie: cookiePair(setCookie) }));
    expect(error.code).toBe('expired_transaction');
  });

  it('binds the seal to its state: a cookie renamed for another state is refused', async () => {
    const { store } = storeAt();
    const setCookie = await store.put(transaction({ state: 'victim-state' }));
    const seal = sealOf(setCookie);
    const moved = `__Host-av_tx_1=${tagOf('attacker-state')}${seal.slice(16)}`;
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
      [parts[0], parts[1], flip(parts[2] ?? ''), parts[3]].join('.'), // ciphertext
      [parts[0], parts[1], parts[2], flip(parts[3] ?? '')].join('.'), // authentication tag
      [parts[0], flip(parts[1] ?? ''), parts[2], parts[3]].join('.'), // iv
      [flip(parts[0] ?? ''), parts[1], parts[2], parts[3]].join('.'), // locator
      'not-a-jwe',
      '',
      `${seal}x`,
      'eyJhbGciOiJub25lIn0..AAAA.AAAA.AAAA',
    ];
    for (const value of tampered) {
      const error = await failure(store.take(tx.state, { cookie: `__Host-av_tx_0=${value}` }));
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
    const header = `__Host-av_tx_0=garbage; ${cookiePair(setCookie)}`;
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

  it('seals the one stored form of a transaction, the same the Redis store keeps', async () => {
    const { store } = storeAt({ ttlMs: 60_000 });
    const tx = transaction({ idpHint: 'https://idp.example.edu/idp' }, T0);
    const [, iv, ciphertext, tag] = sealOf(await store.put(tx)).split('.');
    // Opened as documented: HKDF-SHA-256 of the secret, and the constant protected header put back.
    const key = new Uint8Array(
      hkdfSync('sha256', SECRET, new Uint8Array(0), 'affiliation-validation/transaction-cookie/v1', 32),
    );
    const header = Buffer.from('{"alg":"dir","enc":"A256GCM"}').toString('base64url');
    const { plaintext } = await compactDecrypt(`${header}..${iv}.${ciphertext}.${tag}`, key);
    expect(new TextDecoder().decode(plaintext)).toBe(encodeTransaction(tx, T0 + 60_000));
  });

  it('seals differently each time (fresh IV)', async () => {
    const { store } = storeAt();
    expect(sealOf(await store.put(transaction()))).not.toBe(sealOf(await store.put(transaction())));
  });

  it('fits a large realistic transaction in its cookie budget (≤ 1,022 bytes as sent back)', async () => {
    const { store } = storeAt();
    const large: Transaction = transaction({
      state: 'S'.repeat(43),
      nonce: 'N'.repeat(43),
      codeVerifier: 'V'.repeat(43),
      scopes: ['openid', 'faculty+staff', 'persistent', 'email', 'profile'],
      affiliation: 'faculty+staff',
      identifier: 'persistent',
      claims: { id_token: { reuse_detection: null }, userinfo: { reuse_detection: null } },
      idpHint: `https://login.${'long-institution-name-'.repeat(4)}example.edu/idp/shibboleth`,
      redirectUri: `https://checkout.${'merchant-'.repeat(4)}example.com/integrations/affiliation-validation/callback`,
    });
    const setCookie = await store.put(large);
    expect(Buffer.byteLength(cookiePair(setCookie))).toBeLessThanOrEqual(MAX_COOKIE_PAIR_BYTES);
    expect(await store.take(large.state, { cookie: cookiePair(setCookie) })).toEqual(large);
  });

  it('refuses a transaction too large for its cookie budget with an OptionsError', async () => {
    const { store } = storeAt();
    await expect(
      store.put(transaction({ idpHint: `https://idp.example.edu/${'x'.repeat(700)}` })),
    ).rejects.toThrow(
      /more than the 1022 a transaction cookie may take .*shorten the redirectUri or idpHint/,
    );
  });

  it('clearCookie replaces the cookie of that state, and only that one, with a "used" marker', async () => {
    const { store } = storeAt({ path: '/cb' });
    const setA = await store.put(transaction({ state: 'state-a' }), { cookie: '' });
    const setB = await store.put(transaction({ state: 'state-b' }), { cookie: cookiePair(setA) });
    const cookie = `${cookiePair(setA)}; ${cookiePair(setB)}`;
    expect(store.clearCookie('state-b', { cookie })).toBe(
      `av_tx_1=${tagOf('state-b')}.used; Max-Age=600; Path=/cb; HttpOnly; Secure; SameSite=Lax`,
    );
    // Nothing to clear in a request without that state's cookie, or without cookie information.
    expect(store.clearCookie('state-b', { cookie: cookiePair(setA) })).toBeUndefined();
    expect(store.clearCookie('state-b')).toBeUndefined();
  });

  it('never throws anything but a ValidationError on hostile cookie headers', async () => {
    const { store } = storeAt();
    const headers = [
      ';;;',
      '=',
      '__Host-av_tx_0',
      '__Host-av_tx_0=',
      '__Host-av_tx_0="x"',
      `__Host-av_tx_1=${'a.'.repeat(5000)}`,
      '\u0000',
    ];
    expect.assertions(headers.length);
    for (const cookie of headers) {
      await store.take('s', { cookie }).then(
        (result) => expect(result).toBeUndefined(),
        (error: unknown) => expect(error).toBeInstanceOf(ValidationError),
      );
    }
  });

  it('answers any Cookie header with a transaction, undefined or a ValidationError (property)', async () => {
    const { store } = storeAt();
    const tx = transaction();
    const seal = sealOf(await store.put(tx));
    const name = '__Host-av_tx_0';
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
          // A fresh instance each time: the one that opens the seal remembers the state as taken.
          const fresh = new CookieTransactionStore({ secret: SECRET, now: () => T0 });
          await fresh.take(tx.state, { cookie }).then(
            (result) => {
              if (result !== undefined) expect(result).toEqual(tx);
            },
            (error: unknown) => expect(error).toBeInstanceOf(ValidationError),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('detects a replay on the instance that took the state, and from the "used" marker on any instance', async () => {
    const { store } = storeAt();
    const state = transaction().state;
    const cookie = cookiePair(await store.put(transaction()));
    expect(await store.take(state, { cookie })).toBeDefined();
    expect((await failure(store.take(state, { cookie }))).code).toBe('replayed_transaction');
    // The browser got the marker with the first answer: a reload reaching another instance.
    const marker = cookiePair(store.clearCookie(state, { cookie }) ?? '');
    const other = new CookieTransactionStore({ secret: SECRET, now: () => T0 });
    const replay = await failure(other.take(state, { cookie: marker }));
    expect(replay.code).toBe('replayed_transaction');
    expect(replay.message).toMatch(/submitted twice \(a reload or a double click\)/);
    // The documented limit of a stateless store: a copy of the live cookie that reaches another
    // instance still opens (the service's single-use code then refuses the exchange).
    expect(await other.take(state, { cookie })).toBeDefined();
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
    expect(make({ maxRememberedStates: 0 })).toThrow(/`maxRememberedStates`/);
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
    let message = '';
    expect(() => {
      try {
        new CookieTransactionStore({ secret: 'too-short-secret' });
      } catch (error) {
        message = (error as Error).message;
        throw error;
      }
    }).toThrow(OptionsError);
    expect(message).toMatch(/at least 32 bytes/);
    expect(message).not.toContain('too-short-secret');
  });
});
