/**
 * Rules of spec/oidc-interface.md checked from both sides at once: the SDK's relying party
 * (`AffiliationClient`) against the local test provider over 127.0.0.1, and against the msw OP mock
 * where one claim has to be broken on purpose.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AffiliationClient,
  type ClaimsRequest,
  MemoryTransactionStore,
  ProviderError,
} from '../../src/index.js';
import { type RunningTestProvider, TestProvider } from '../../src/testing.js';
import { REDIRECT_URI, resultOf } from '../testing/helpers.js';

let op: RunningTestProvider;

beforeAll(async () => {
  op = await TestProvider.start({
    signingAlg: 'ES256',
    clients: [
      {
        clientId: 'spec-shop',
        clientSecret: 'spec-shop-secret',
        redirectUris: [REDIRECT_URI],
        allowedClaims: ['reuse_detection' as const],
      },
    ],
  });
});
afterAll(() => op.close());

function sdk(): Promise<AffiliationClient> {
  return AffiliationClient.discover({
    issuer: op.issuer,
    clientId: 'spec-shop',
    clientSecret: 'spec-shop-secret',
    redirectUri: REDIRECT_URI,
    // A bare callback URL below: a store that binds to the browser would refuse it.
    transactions: new MemoryTransactionStore({ bindToBrowser: false }),
  });
}

describe('spec 2.3 / 7.2 row 5: a requested claim that is not supported is ignored, no error', () => {
  it('spec 7.2 row 5: the transaction starts, the unsupported claim is absent, requested_claims echoes the request exactly and the RP accepts it', async () => {
    const client = await sdk();
    // `email` is not a claim of the service; the public type only names reuse_detection.
    const claims = { id_token: { reuse_detection: null, email: null } } as unknown as ClaimsRequest;
    const { url } = await client.createAuthorizationRequest({ affiliation: 'student', claims });
    const sent = new URL(url).searchParams.get('claims');
    expect(JSON.parse(sent ?? 'null')).toEqual(claims);
    const callback = await op.authorize(url);
    expect(resultOf(callback).params.get('error')).toBeNull();
    const result = await client.validateCallback(callback);
    expect(result.claims.requested_claims).toEqual(claims);
    expect(result.claims).not.toHaveProperty('email');
    expect(result.reuseDetection?.length).toBeGreaterThan(0);
  });
});

describe('spec 7: error redirects reach the RP as a ProviderError', () => {
  it('spec 7: error_description may be absent: the ProviderError then has no description, and keeps the state', async () => {
    const client = await sdk();
    const { state } = await client.createAuthorizationRequest({ affiliation: 'student' });
    const error = await client.validateCallback(`${REDIRECT_URI}#error=access_denied&state=${state}`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).error).toBe('access_denied');
    expect((error as ProviderError).description).toBeUndefined();
    expect((error as ProviderError).state).toBe(state);
  });
});
