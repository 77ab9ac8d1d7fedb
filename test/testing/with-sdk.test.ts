/**
 * The SDK's relying party (`AffiliationClient`) against the test provider over real HTTP: both
 * sides written from the interface document, each checking the other.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AffiliationClient,
  MemoryTransactionStore,
  ProviderError,
  ValidationError,
} from '../../src/index.js';
import { type LoginOutcome, type RunningTestProvider, TestProvider } from '../../src/testing.js';
import { NON_EDUGAIN, POLYTECHNIC, REDIRECT_URI, UNIVERSITY } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let op: RunningTestProvider;

const clients = [
  {
    clientId: 'sdk-shop',
    clientSecret: 'sdk-shop-secret',
    redirectUris: [REDIRECT_URI],
    allowedClaims: ['reuse_detection' as const],
  },
  {
    clientId: 'code-only-shop',
    clientSecret: 'code-only-secret',
    redirectUris: [REDIRECT_URI],
    allowedScopes: ['student'],
    responseTypes: ['code' as const],
  },
];

beforeAll(async () => {
  op = await TestProvider.start({ clients });
});
afterAll(() => op.close());
afterEach(() => {
  vi.useRealTimers();
});

function sdk(
  overrides: Partial<Parameters<typeof AffiliationClient.discover>[0]> = {},
): Promise<AffiliationClient> {
  return AffiliationClient.discover({
    issuer: op.issuer,
    clientId: 'sdk-shop',
    clientSecret: 'sdk-shop-secret',
    redirectUri: REDIRECT_URI,
    // A bare callback URL below: a store that binds to the browser would refuse it.
    transactions: new MemoryTransactionStore({ bindToBrowser: false }),
    ...overrides,
  });
}

describe('AffiliationClient against the test provider', () => {
  it('code flow with PKCE: a validated student with a transient subject', async () => {
    const client = await sdk();
    const { url, state } = await client.createAuthorizationRequest({ affiliation: 'student' });
    expect(url.startsWith(op.endpoints.authorization)).toBe(true);
    const callback = await op.authorize(url);
    expect(new URL(callback).searchParams.get('state')).toBe(state);
    const result = await client.validateCallback(callback);
    expect(result.affiliation).toBe('student');
    expect(result.identifier).toBe('transient');
    expect(result.transactionId).toMatch(UUID);
    expect(result.expiresAt.getTime() - result.authTime.getTime()).toBe(3600_000);
    expect(result.claims.iss).toBe(op.issuer);
  });

  it('code flow with client_secret_post and faculty+staff (sent as %2B)', async () => {
    const client = await sdk({ tokenEndpointAuthMethod: 'client_secret_post' });
    const { url } = await client.createAuthorizationRequest({ affiliation: 'faculty+staff' });
    expect(url).toContain('faculty%2Bstaff');
    op.scriptLogin({ affiliations: ['staff'] });
    const result = await client.validateCallback(await op.authorize(url));
    expect(result.affiliation).toBe('faculty+staff');
  });

  it('id_token flow: the ID token in the fragment', async () => {
    const client = await sdk({ responseType: 'id_token' });
    const { url } = await client.createAuthorizationRequest({ affiliation: 'member' });
    const callback = await op.authorize(url);
    expect(new URL(callback).hash).toMatch(/^#id_token=/);
    const result = await client.validateCallback(callback);
    expect(result.affiliation).toBe('member');
    expect(result.identifier).toBe('transient');
  });

  it('persistent subjects are stable per user, transient ones change every time', async () => {
    const client = await sdk();
    const run = async (identifier: 'persistent' | 'transient', userId: string) => {
      op.scriptLogin({ userId });
      const { url } = await client.createAuthorizationRequest({ affiliation: 'student', identifier });
      return client.validateCallback(await op.authorize(url));
    };
    const p1 = await run('persistent', 'alice');
    const p2 = await run('persistent', 'alice');
    const p3 = await run('persistent', 'bob');
    expect(p1.identifier).toBe('persistent');
    expect(p1.subject).toBe(p2.subject);
    expect(p3.subject).not.toBe(p1.subject);
    const t1 = await run('transient', 'alice');
    const t2 = await run('transient', 'alice');
    expect(t1.identifier).toBe('transient');
    expect(t1.subject).not.toBe(t2.subject);
  });

  it('an institution that cannot keep persistent identifiers is caught by the RP (returned_scopes)', async () => {
    const client = await sdk();
    const { url } = await client.createAuthorizationRequest({
      affiliation: 'student',
      identifier: 'persistent',
    });
    const error = await client
      .validateCallback(await op.authorize(url, { institution: POLYTECHNIC }))
      .catch((e) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe('returned_scopes_mismatch');
  });

  it('IdP hint assertion: the hinted institution is reported', async () => {
    const client = await sdk();
    const { url } = await client.createAuthorizationRequest({ affiliation: 'student', idpHint: UNIVERSITY });
    const result = await client.validateCallback(await op.authorize(url));
    expect(result.institution).toEqual({ entityId: UNIVERSITY });
  });

  it('reuse_detection requested for the ID token and for userinfo', async () => {
    const client = await sdk();
    op.scriptLogin({ reuseDetection: ['rd-42'] });
    const { url } = await client.createAuthorizationRequest({
      affiliation: 'student',
      claims: { id_token: { reuse_detection: null } },
    });
    expect((await client.validateCallback(await op.authorize(url))).reuseDetection).toEqual(['rd-42']);

    op.scriptLogin({ reuseDetection: ['rd-43'] });
    const viaUserinfo = await client.createAuthorizationRequest({
      affiliation: 'student',
      claims: { userinfo: { reuse_detection: null } },
    });
    const result = await client.validateCallback(await op.authorize(viaUserinfo.url));
    expect(result.userinfo).toMatchObject({ reuse_detection: ['rd-43'] });
    expect(result.userinfo?.sub).toBe(result.subject);
  });

  it('an ID token signed with a rotated key still validates (refetch on unknown kid)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = await sdk();
    const first = await client.createAuthorizationRequest({ affiliation: 'student' });
    await client.validateCallback(await op.authorize(first.url));
    await op.rotateKeys({ keepPrevious: false });
    const second = await client.createAuthorizationRequest({ affiliation: 'student' });
    // jose refetches for an unknown kid at most once per 30 s since the last fetch of the keys
    // (the provider keeps its own, real clock).
    vi.setSystemTime(Date.now() + 31_000);
    await expect(client.validateCallback(await op.authorize(second.url))).resolves.toMatchObject({
      affiliation: 'student',
    });
  });
});

describe('spec 7.2 and 3 errors reach the SDK as a ProviderError', () => {
  async function providerError(client: AffiliationClient, callback: string): Promise<ProviderError> {
    const error = await client.validateCallback(callback).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }

  it('invalid_scope (a scope the client may not request)', async () => {
    const client = await sdk({ clientId: 'code-only-shop', clientSecret: 'code-only-secret' });
    const { url, state } = await client.createAuthorizationRequest({ affiliation: 'employee' });
    const error = await providerError(client, await op.authorize(url));
    expect(error).toMatchObject({
      error: 'invalid_scope',
      description: 'Requested validation not allowed.',
      state,
    });
  });

  it('invalid_request: response type not registered (fragment)', async () => {
    const client = await sdk({
      clientId: 'code-only-shop',
      clientSecret: 'code-only-secret',
      responseType: 'id_token',
    });
    const { url, state } = await client.createAuthorizationRequest({ affiliation: 'student' });
    const error = await providerError(client, await op.authorize(url));
    expect(error).toMatchObject({
      error: 'invalid_request',
      description: 'Response type is not registered',
      state,
    });
  });

  it('access_denied: entity_id error for an unresolvable hint', async () => {
    const client = await sdk();
    const { url, state } = await client.createAuthorizationRequest({
      affiliation: 'student',
      idpHint: 'https://idp.gone.example/idp',
    });
    const error = await providerError(client, await op.authorize(url));
    expect(error).toMatchObject({
      error: 'access_denied',
      description: 'entity_id error',
      state,
      reason: 'unknown_institution',
      started: { affiliation: 'student', flow: 'code', institution: 'https://idp.gone.example/idp' },
    });
    expect(error.userMessage).toMatch(/did not recognise the institution.*choose your institution again/);
  });

  // The service's own descriptions, each a reason with the shopper's next step.
  it.each([
    [
      'not authenticated',
      { authenticated: false },
      'authentication failed',
      'authentication_failed',
      /try again/,
    ],
    [
      'no affiliation released',
      { releasesInformation: false },
      'no affiliation available for this user',
      'no_affiliation',
      /help desk/,
    ],
    [
      'no affiliation held',
      { affiliations: [] },
      'no affiliation available for this user',
      'no_affiliation',
      /help desk/,
    ],
    ['consent refused', { consent: false }, 'User Consent Denied', 'consent_denied', /agree to share/],
    [
      'affiliation not held',
      { affiliations: ['alum' as const] },
      'affiliation does not match requested validation',
      'affiliation_mismatch',
      /staff instead of student/,
    ],
  ] as const)('access_denied: %s', async (_, outcome, description, reason, next) => {
    const client = await sdk();
    op.scriptLogin(outcome as LoginOutcome);
    const { url, state } = await client.createAuthorizationRequest({ affiliation: 'student' });
    const error = await providerError(client, await op.authorize(url));
    expect(error).toMatchObject({ error: 'access_denied', state, description, reason });
    expect(error.userMessage).toMatch(next);
  });

  it('access_denied: non-eduGAIN institution', async () => {
    const client = await sdk();
    const { url } = await client.createAuthorizationRequest({ affiliation: 'student', idpHint: NON_EDUGAIN });
    expect((await providerError(client, await op.authorize(url))).error).toBe('access_denied');
  });

  it('unknown client_id and unregistered redirect_uri end at the error site, never at the RP', async () => {
    const unknown = await sdk({ clientId: 'not-registered' });
    const a = await unknown.createAuthorizationRequest({ affiliation: 'student' });
    expect(await op.authorize(a.url)).toBe(op.endpoints.errorClientId);
    const elsewhere = await sdk({ redirectUri: 'http://127.0.0.1:3999/other-callback' });
    const b = await elsewhere.createAuthorizationRequest({ affiliation: 'student' });
    expect(await op.authorize(b.url)).toBe(op.endpoints.errorRedirectUri);
  });

  it('token endpoint: invalid_client for a wrong secret (client_secret_post)', async () => {
    const client = await sdk({
      clientSecret: 'not-the-secret',
      tokenEndpointAuthMethod: 'client_secret_post',
    });
    const { url } = await client.createAuthorizationRequest({ affiliation: 'student' });
    const error = await client.validateCallback(await op.authorize(url)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ error: 'invalid_client', source: 'token', status: 401 });
    expect(String((error as Error).message)).not.toContain('not-the-secret');
  });

  it('token endpoint: invalid_client for a wrong secret (client_secret_basic: 401, Basic challenge, JSON body)', async () => {
    const client = await sdk({ clientSecret: 'not-the-secret' });
    const { url } = await client.createAuthorizationRequest({ affiliation: 'student' });
    const error = await client.validateCallback(await op.authorize(url)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ error: 'invalid_client', source: 'token', status: 401 });
  });

  it('token endpoint: invalid_request for an invalid code', async () => {
    const client = await sdk();
    const { url } = await client.createAuthorizationRequest({ affiliation: 'student' });
    const callback = new URL(await op.authorize(url));
    callback.searchParams.set('code', 'not-a-code-the-provider-issued');
    const error = await client.validateCallback(callback.href).catch((e: unknown) => e);
    // A refused code after a transaction that checked out: reported as a replay, the service's
    // answer kept as the cause.
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).code).toBe('replayed_transaction');
    expect((error as Error).cause).toBeInstanceOf(ProviderError);
    expect((error as Error).cause).toMatchObject({ error: 'invalid_request', source: 'token', status: 400 });
    expect(String((error as Error).message)).not.toContain('not-a-code-the-provider-issued');
  });
});

describe('the idTokenClaims hook lets a test break one rule at a time, and the SDK notices', () => {
  it.each([
    ['nonce_mismatch', (c: Record<string, unknown>) => ({ ...c, nonce: 'another-nonce' })],
    [
      'requested_scopes_mismatch',
      (c: Record<string, unknown>) => ({ ...c, requested_scopes: { values: ['openid', 'member'] } }),
    ],
    ['transaction_id_invalid', (c: Record<string, unknown>) => ({ ...c, transaction_id: 'not-a-uuid' })],
    ['audience_mismatch', (c: Record<string, unknown>) => ({ ...c, aud: ['someone-else'] })],
  ] as const)('%s', async (code, tamper) => {
    const broken = await TestProvider.start({ clients, signingAlg: 'ES256', idTokenClaims: tamper });
    try {
      const client = await AffiliationClient.discover({
        issuer: broken.issuer,
        clientId: 'sdk-shop',
        clientSecret: 'sdk-shop-secret',
        redirectUri: REDIRECT_URI,
        // A bare callback URL below: a store that binds to the browser would refuse it.
        transactions: new MemoryTransactionStore({ bindToBrowser: false }),
      });
      const { url } = await client.createAuthorizationRequest({ affiliation: 'student' });
      const error = await client.validateCallback(await broken.authorize(url)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).code).toBe(code);
    } finally {
      await broken.close();
    }
  });
});
