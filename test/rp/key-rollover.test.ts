/**
 * Key rollover against the SDK's own test provider over real HTTP (issue 17 point 4): a token signed
 * with a `kid` the key cache lacks forces one key refresh, at most one per 10 s, also right after a
 * key fetch; a `kid` still unknown after it is `signature_invalid` without a refetch loop; a failed
 * refresh keeps the cached keys working.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AffiliationClient, MemoryTransactionStore } from '../../src/index.js';
import { KEY_REFRESH_INTERVAL_MS } from '../../src/rp/engine.js';
import { DEFAULT_TEST_CLIENT, type RunningTestProvider, TestProvider } from '../../src/testing.js';
import { rejection } from '../helpers/setup.js';

let op: RunningTestProvider;
const REDIRECT_URI = DEFAULT_TEST_CLIENT.redirectUris[0] as string;

beforeAll(async () => {
  // The provider's clock reads Date.now at each call, so the tests' fake clock moves it too.
  op = await TestProvider.start({ now: () => Date.now() });
});
afterAll(() => op.close());
afterEach(() => {
  vi.useRealTimers();
});

/** A client whose key requests are counted, and made to fail on demand. */
async function client(responseType: 'code' | 'id_token', warnings: string[] = []) {
  const keys = { requests: 0, failing: false };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url === op.endpoints.jwks) {
      keys.requests++;
      // 500: an answer the HTTP layer does not retry, so each refresh attempt is one request.
      if (keys.failing) return new Response('broken', { status: 500 });
    }
    return globalThis.fetch(input, init);
  };
  const rp = await AffiliationClient.discover({
    issuer: op.issuer,
    clientId: DEFAULT_TEST_CLIENT.clientId,
    clientSecret: DEFAULT_TEST_CLIENT.clientSecret as string,
    redirectUri: REDIRECT_URI,
    responseType,
    transactions: new MemoryTransactionStore({ bindToBrowser: false }),
    fetch,
    logger: { warn: (message) => warnings.push(message) },
  });
  const validate = async () => {
    const { url } = await rp.createAuthorizationRequest({ affiliation: 'student' });
    return rp.validateCallback(await op.authorize(url));
  };
  return { keys, validate };
}

describe.each(['code', 'id_token'] as const)('key rollover on the %s flow', (responseType) => {
  it('a key rolled over right after the keys were fetched: one refresh, and the shopper gets through', async () => {
    const { keys, validate } = await client(responseType);
    await validate();
    expect(keys.requests).toBe(1);
    // At once, well within a minute of the fetch (openid-client alone refetches only after 60 s).
    await op.rotateKeys();
    await expect(validate()).resolves.toMatchObject({ affiliation: 'student' });
    expect(keys.requests).toBe(2);
    // The new key is cached now.
    await validate();
    expect(keys.requests).toBe(2);
  });

  it('a second rollover within 10 s of a refresh: signature_invalid, no refetch loop; after 10 s, accepted', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { keys, validate } = await client(responseType);
    await validate();
    await op.rotateKeys();
    await validate();
    expect(keys.requests).toBe(2);
    await op.rotateKeys();
    for (let i = 0; i < 5; i++) {
      const error = await rejection(validate());
      expect(error.code).toBe('signature_invalid');
      expect(error.message).toMatch(/No key of the provider matches/);
    }
    expect(keys.requests).toBe(2);
    vi.setSystemTime(Date.now() + KEY_REFRESH_INTERVAL_MS);
    await expect(validate()).resolves.toMatchObject({ affiliation: 'student' });
    expect(keys.requests).toBe(3);
  });

  it('a failed key refresh keeps the cached keys working, and is tried again no sooner than 10 s later', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const warnings: string[] = [];
    const { keys, validate } = await client(responseType, warnings);
    await validate();
    keys.failing = true;
    // Old enough that the keys are fetched again before use.
    vi.setSystemTime(Date.now() + 10 * 60_000);
    await expect(validate()).resolves.toMatchObject({ affiliation: 'student' });
    expect(keys.requests).toBe(2);
    expect(warnings.filter((w) => /could not refresh the provider keys/.test(w))).toHaveLength(1);
    await expect(validate()).resolves.toMatchObject({ affiliation: 'student' });
    expect(keys.requests).toBe(2);
    vi.setSystemTime(Date.now() + KEY_REFRESH_INTERVAL_MS);
    keys.failing = false;
    await expect(validate()).resolves.toMatchObject({ affiliation: 'student' });
    expect(keys.requests).toBe(3);
  });

  it('a rollover while the key endpoint is down: signature_invalid after the one failed attempt', async () => {
    const { keys, validate } = await client(responseType);
    await validate();
    keys.failing = true;
    const kid = await op.rotateKeys();
    const error = await rejection(validate());
    expect(error.code).toBe('signature_invalid');
    expect(error.message).toContain(kid);
    expect(keys.requests).toBe(2);
  });
});
