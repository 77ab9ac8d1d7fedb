/**
 * MemoryTransactionStore binds each transaction to the browser that started it (RFC 9700 §2.1,
 * OpenID Connect Core 3.1.2.1): a callback URL opened in another browser is refused.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { OptionsError } from '../../src/core/errors.js';
import { ValidationError } from '../../src/rp/errors.js';
import { MemoryTransactionStore } from '../../src/rp/transactions/index.js';
import { REDIRECT_URI } from '../helpers/op-mock.js';
import { browserCookie, newClient, rejection, useOp } from '../helpers/setup.js';
import { codeOf, transaction as fixture } from './transactions-fixtures.js';

const { op } = useOp();

/** A fresh transaction: its own random state, expiring in 10 minutes from `now`. */
function transaction(overrides: Parameters<typeof fixture>[0] = {}, now = Date.now()) {
  return fixture({ state: randomBytes(32).toString('base64url'), ...overrides }, now);
}

describe('MemoryTransactionStore browser binding', () => {
  it('sets an HttpOnly, Secure, SameSite=Lax cookie per transaction that lives as long as it', async () => {
    const now = 1_700_000_000_000;
    const store = new MemoryTransactionStore({ now: () => now, ttlMs: 300_000 });
    const a = transaction({}, now);
    const b = transaction({}, now);
    const setA = (await store.put(a, { cookie: '' })) as string;
    const setB = (await store.put(b, { cookie: browserCookie(setA) })) as string;
    expect(setA).toMatch(
      /^__Host-av_bind_0=[A-Za-z0-9_-]{43}; Max-Age=300; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    // Two tabs, two cookies: the names differ, and so do the random values.
    expect(setB.split('=')[0]).toBe('__Host-av_bind_1');
    expect(browserCookie(setA).split('=')[1]).not.toBe(browserCookie(setB).split('=')[1]);
    // The value is random, not derived from the state (nothing in it an attacker could compute).
    expect(setA).not.toContain(a.state);
  });

  it('gives the transaction to the browser holding its cookie, among other cookies', async () => {
    const store = new MemoryTransactionStore();
    const tx = transaction();
    const cookie = browserCookie(await store.put(tx));
    await expect(store.take(tx.state, { cookie: `session=abc; ${cookie}; theme=dark` })).resolves.toEqual(tx);
  });

  it('refuses a callback without the cookie, or with another value, and keeps the transaction for the right browser', async () => {
    const store = new MemoryTransactionStore();
    const tx = transaction();
    const cookie = browserCookie(await store.put(tx));
    const [name, value] = cookie.split('=') as [string, string];
    const other = `${name}=${value.slice(0, -1)}${value.endsWith('A') ? 'B' : 'A'}`;
    for (const [header, says] of [
      ['', /carries no binding cookie/],
      ['session=abc', /carries no binding cookie/],
      [other, /browser that started/],
      [`${name}=`, /carries no binding cookie/],
      [`${name}=${value}x`, /browser that started/],
    ] as const) {
      const error = await rejection(store.take(tx.state, { cookie: header }));
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).code).toBe('unknown_state');
      expect((error as ValidationError).message).toMatch(says);
      expect((error as ValidationError).message).not.toContain(value);
    }
    // A cookie for another transaction does not open this one.
    const otherTx = transaction();
    const otherCookie = browserCookie(await store.put(otherTx));
    expect(await codeOf(store.take(tx.state, { cookie: otherCookie }))).toBe('unknown_state');
    // Still there for the shopper's own browser, and then taken exactly once.
    await expect(store.take(tx.state, { cookie })).resolves.toEqual(tx);
    expect(await codeOf(store.take(tx.state, { cookie }))).toBe('replayed_transaction');
  });

  it('accepts the right value among several cookies of the same name', async () => {
    const store = new MemoryTransactionStore();
    const tx = transaction();
    const cookie = browserCookie(await store.put(tx));
    const name = cookie.split('=')[0] as string;
    await expect(store.take(tx.state, { cookie: `${name}=stale; ${cookie}` })).resolves.toEqual(tx);
  });

  it('fails closed: refuses to take without cookie information at all, and keeps the transaction', async () => {
    const store = new MemoryTransactionStore();
    const tx = transaction();
    const cookie = browserCookie(await store.put(tx));
    for (const context of [undefined, {}, { cookie: undefined }]) {
      const error = await rejection(store.take(tx.state, context));
      expect(error).toBeInstanceOf(OptionsError);
      expect(error.message).toMatch(/needs the callback request's Cookie header/);
      expect(error.message).toMatch(/\{ cookie: req\.headers\.cookie \}/);
    }
    await expect(store.take(tx.state, { cookie })).resolves.toEqual(tx);
  });

  it('checks nothing and sets no cookie with bindToBrowser: false', async () => {
    const store = new MemoryTransactionStore({ bindToBrowser: false });
    const tx = transaction();
    expect(await store.put(tx)).toBeUndefined();
    expect(store.bindsToBrowser).toBe(false);
    expect(store.clearCookie(tx.state)).toBeUndefined();
    await expect(store.take(tx.state, { cookie: '' })).resolves.toEqual(tx);
  });

  it('clears the binding cookie with the same name, path and attributes', async () => {
    const store = new MemoryTransactionStore({
      cookieName: 'shop_bind',
      path: '/av',
      secure: false,
      sameSite: 'strict',
    });
    const tx = transaction();
    const set = (await store.put(tx)) as string;
    expect(set).toMatch(/^shop_bind_0=[A-Za-z0-9_-]{43}; Max-Age=\d+; Path=\/av; HttpOnly; SameSite=Strict$/);
    const cookie = browserCookie(set);
    // Only from the browser that holds it, before and after the take.
    expect(store.clearCookie(tx.state, { cookie: 'shop_bind_0=another' })).toBeUndefined();
    expect(store.clearCookie(tx.state, { cookie: '' })).toBeUndefined();
    expect(store.clearCookie(tx.state)).toBeUndefined();
    await store.take(tx.state, { cookie });
    const clear = store.clearCookie(tx.state, { cookie }) as string;
    expect(clear.split('=')[0]).toBe(set.split('=')[0]);
    expect(clear).toMatch(
      /=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=\/av; HttpOnly; SameSite=Strict$/,
    );
  });

  it('names its cookies __Host- by default, so a sibling subdomain cannot plant one; plain names otherwise', async () => {
    const tx = () => transaction();
    const name = async (options: ConstructorParameters<typeof MemoryTransactionStore>[0]) =>
      ((await new MemoryTransactionStore(options).put(tx())) as string).split('=')[0];
    expect(await name({})).toBe('__Host-av_bind_0');
    expect(await name({ secure: false })).toBe('av_bind_0');
    expect(await name({ path: '/shop' })).toBe('av_bind_0');
    expect(await name({ cookieName: 'mine' })).toBe('mine_0');
    // What a browser requires of a __Host- cookie: Secure, Path=/, no Domain.
    const header = (await new MemoryTransactionStore().put(tx())) as string;
    expect(header).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect(header).not.toMatch(/Domain=/i);
  });

  it('refuses bad cookie options with an OptionsError that names the option', () => {
    expect(() => new MemoryTransactionStore({ bindToBrowser: 'yes' as never })).toThrow(/bindToBrowser/);
    expect(() => new MemoryTransactionStore({ cookieName: 'a b' })).toThrow(OptionsError);
    expect(() => new MemoryTransactionStore({ path: 'nope' })).toThrow(/path/);
    expect(() => new MemoryTransactionStore({ cookieName: '__Host-b', secure: false })).toThrow(/__Host-/);
    expect(() => new MemoryTransactionStore({ sameSite: 'none' as never })).toThrow(/sameSite/);
  });
});

describe('AffiliationClient with the default store: the callback must come from the starting browser', () => {
  it('createAuthorizationRequest hands out the binding cookie as setCookie', async () => {
    const client = await newClient({ transactions: undefined });
    const { setCookie } = await client.createAuthorizationRequest({ affiliation: 'student' });
    expect(setCookie).toMatch(/^__Host-av_bind_0=/);
  });

  it('refuses a Request from another browser (login CSRF), then serves the shopper’s own', async () => {
    const client = await newClient({ transactions: undefined });
    const { url, setCookie } = await client.createAuthorizationRequest({ affiliation: 'student' });
    const callback = await op.authorize(url);
    // The victim's browser carries its own cookies, not the attacker's binding.
    const error = await rejection(
      client.validateCallback(new Request(callback, { headers: { cookie: 'sid=victim' } })),
    );
    expect((error as ValidationError).code).toBe('unknown_state');
    const bare = await rejection(client.validateCallback(new Request(callback)));
    expect((bare as ValidationError).code).toBe('unknown_state');
    const ok = new Request(callback, { headers: { cookie: browserCookie(setCookie) } });
    await expect(client.validateCallback(ok)).resolves.toMatchObject({ affiliation: 'student' });
  });

  it('checks a URL input when { cookie } is given, even as undefined (a request without cookies)', async () => {
    const client = await newClient({ transactions: undefined });
    const { url, setCookie } = await client.createAuthorizationRequest({ affiliation: 'student' });
    const callback = await op.authorize(url);
    const headers: { cookie?: string } = {}; // what req.headers is when the browser sent no cookie
    expect(
      ((await rejection(client.validateCallback(callback, { cookie: headers.cookie }))) as ValidationError)
        .code,
    ).toBe('unknown_state');
    await expect(
      client.validateCallback(callback, { cookie: browserCookie(setCookie) }),
    ).resolves.toBeTruthy();
  });

  it('fails closed: refuses a callback URL given without { cookie }, and keeps the transaction', async () => {
    const client = await newClient({ transactions: undefined });
    const { url, setCookie } = await client.createAuthorizationRequest(
      { affiliation: 'student' },
      { cookie: '' },
    );
    const callback = await op.authorize(url);
    const error = await rejection(client.validateCallback(callback));
    expect(error).toBeInstanceOf(OptionsError);
    expect(error.message).toMatch(
      /pass the request itself .* or the URL with \{ cookie: req\.headers\.cookie \}/,
    );
    await expect(
      client.validateCallback(callback, { cookie: browserCookie(setCookie) }),
    ).resolves.toBeTruthy();
  });

  it('fails closed for any store that says it binds, even one whose take would not check', async () => {
    const inner = new MemoryTransactionStore({ bindToBrowser: false });
    const client = await newClient({
      transactions: { bindsToBrowser: true, put: (tx) => inner.put(tx), take: (state) => inner.take(state) },
    });
    const { url } = await client.createAuthorizationRequest({ affiliation: 'student' }, { cookie: '' });
    expect(await rejection(client.validateCallback(await op.authorize(url)))).toBeInstanceOf(OptionsError);
  });

  it('warns once when starts come without the start request’s cookies (one validation per browser then)', async () => {
    const warn = vi.fn();
    const client = await newClient({ transactions: undefined, logger: { warn } });
    const first = await client.createAuthorizationRequest({ affiliation: 'student' });
    const second = await client.createAuthorizationRequest({ affiliation: 'student' });
    // Both in the first cookie name: the second start replaced the first in this browser.
    expect(browserCookie(first.setCookie).split('=')[0]).toBe(browserCookie(second.setCookie).split('=')[0]);
    await client.createAuthorizationRequest(
      { affiliation: 'student' },
      { cookie: browserCookie(second.setCookie) },
    );
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/createAuthorizationRequest got no \{ cookie \}/);
  });

  it('the callback handler clears the binding cookie on success and on error', async () => {
    const client = await newClient({ transactions: undefined });
    const { url, setCookie, state } = await client.createAuthorizationRequest({ affiliation: 'student' });
    const name = browserCookie(setCookie).split('=')[0] as string;
    const handler = client.callbackHandler({ onSuccess: () => new Response('ok') });
    const response = await handler(
      new Request(await op.authorize(url), { headers: { cookie: browserCookie(setCookie) } }),
    );
    expect(await response.text()).toBe('ok');
    expect(response.headers.get('set-cookie')).toMatch(new RegExp(`^${name}=; Max-Age=0`));
    const failed = await handler(
      new Request(`${REDIRECT_URI}?error=access_denied&state=${state}`, {
        headers: { cookie: browserCookie(setCookie) },
      }),
    );
    expect(failed.headers.get('set-cookie')).toMatch(new RegExp(`^${name}=; Max-Age=0`));
    // A request without the cookie has nothing to clear (and another validation's cookie in the
    // same browser is never touched).
    const bare = await handler(new Request(`${REDIRECT_URI}?error=access_denied&state=${state}`));
    expect(bare.headers.get('set-cookie')).toBeNull();
  });
});

describe('MemoryTransactionStore: which case a refused callback is', () => {
  it('superseded when the same cookie name now holds a newer validation; another browser when it holds an older one', async () => {
    const store = new MemoryTransactionStore();
    const older = transaction();
    const olderCookie = browserCookie(await store.put(older)); // no start cookies: name _0
    const newer = transaction();
    const newerCookie = browserCookie(await store.put(newer)); // name _0 again: replaces it
    const superseded = await rejection(store.take(older.state, { cookie: newerCookie }));
    expect((superseded as ValidationError).code).toBe('unknown_state');
    expect(superseded.message).toMatch(/superseded by a newer one started in the same browser/);
    // A browser holding an older validation under that name is just another browser.
    const elsewhere = await rejection(store.take(newer.state, { cookie: olderCookie }));
    expect(elsewhere.message).toMatch(/did not come from the browser that started this validation/);
    await expect(store.take(newer.state, { cookie: newerCookie })).resolves.toEqual(newer);
  });
});
