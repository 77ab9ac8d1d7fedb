/** Shared msw setup for RP unit tests: one OP mock per test file, unhandled requests are errors. */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { AuthorizationRequestOptions } from '../../src/rp/authorization.js';
import { AffiliationClient } from '../../src/rp/client.js';
import type { AffiliationClientOptions } from '../../src/rp/options.js';
import { MemoryTransactionStore } from '../../src/rp/transactions/index.js';
import { mswFetch } from './msw-fetch.js';
import type { OpMockOptions } from './op-mock.js';
import { CLIENT_ID, CLIENT_SECRET, ISSUER, OpMock, REDIRECT_URI } from './op-mock.js';

export function useOp(options: OpMockOptions = {}) {
  const op = new OpMock(options);
  const server = setupServer(...op.handlers());
  beforeAll(async () => {
    await op.init();
    server.listen({ onUnhandledRequest: 'error' });
  });
  afterEach(async () => {
    op.knobs = {};
    server.resetHandlers();
  });
  afterAll(() => server.close());
  return { op, server };
}

/**
 * A client against the OP mock. Its store does not bind to the browser, so a test can pass a bare
 * callback URL; tests of the binding pass their own store, or `{ transactions: undefined }` for the
 * client's real default (test/rp/transactions-binding.test.ts).
 */
export function newClient(overrides: Partial<AffiliationClientOptions> = {}, issuer = ISSUER) {
  return AffiliationClient.discover({
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: REDIRECT_URI,
    transactions: new MemoryTransactionStore({ bindToBrowser: false }),
    fetch: mswFetch,
    ...overrides,
  });
}

/** Request → OP round trip → validateCallback with the callback URL. */
export async function roundTrip(
  client: AffiliationClient,
  op: OpMock,
  request: AuthorizationRequestOptions = { affiliation: 'student' },
) {
  const { url } = await client.createAuthorizationRequest(request);
  const callback = await op.authorize(url);
  return client.validateCallback(callback);
}

/** The rejection of a promise (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a rejection, got a result');
}

/** The `Cookie` header a browser sends back for a `Set-Cookie` header value (name=value only). */
export function browserCookie(setCookie: string | undefined): string {
  return (setCookie ?? '').split(';')[0] as string;
}
