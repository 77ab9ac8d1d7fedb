import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestProvider } from '../../src/testing.js';
import { createTestProviderHandlers } from '../../src/testing-msw.js';
import { authUrl, exchange, pkce, resultOf, testClients, verifyIdToken } from './helpers.js';

let op: TestProvider;
const server = setupServer();

beforeAll(async () => {
  op = await TestProvider.start({
    listen: false,
    baseUrl: 'https://op.affiliation.test/',
    clients: testClients,
    signingAlg: 'ES256',
  });
  server.use(...(await createTestProviderHandlers(op)));
  server.listen({ onUnhandledRequest: 'error' });
});
afterAll(() => server.close());

describe('createTestProviderHandlers (msw)', () => {
  it('serves discovery and JWKS through the global fetch, with no socket', async () => {
    expect(op.baseUrl).toBe('https://op.affiliation.test');
    const doc = (await (
      await fetch('https://op.affiliation.test/.well-known/openid-configuration')
    ).json()) as Record<string, unknown>;
    expect(doc.issuer).toBe('https://op.affiliation.test');
    expect(doc.authorization_endpoint).toBe('https://op.affiliation.test/Service/authorization');
    const jwks = (await (await fetch(doc.jwks_uri as string)).json()) as { keys: unknown[] };
    expect(jwks.keys).toHaveLength(1);
  });

  it('runs a whole code flow, the scripted browser and the token endpoint going through msw', async () => {
    const { verifier, challenge } = pkce();
    const seen: number[] = [];
    const location = await op.authorize(
      authUrl(op, { code_challenge: challenge, code_challenge_method: 'S256' }),
      {
        fetch: globalThis.fetch,
        onStep: (s) => seen.push(s.status),
      },
    );
    expect(seen).toEqual([302, 200, 303, 200, 303, 200, 303]);
    const code = resultOf(location).params.get('code') as string;
    const tokens = (await (await exchange(op, { code, verifier })).json()) as { id_token: string };
    const claims = await verifyIdToken(op, tokens.id_token);
    expect(claims.iss).toBe('https://op.affiliation.test');
  });

  it('leaves other origins to onUnhandledRequest', async () => {
    await expect(fetch('https://elsewhere.example/')).rejects.toThrow();
  });

  it('answers a provider without a server in-process through handle()', async () => {
    const response = await op.handle(new Request('https://op.affiliation.test/Service/userinfo'));
    expect(response.status).toBe(401);
    expect((await op.handle(new Request('https://other.test/.well-known/openid-configuration'))).status).toBe(
      404,
    );
  });

  it('supports a base URL with a path', async () => {
    const nested = await TestProvider.start({
      listen: false,
      baseUrl: 'https://sso.affiliation.test/oidc',
      signingAlg: 'ES256',
    });
    const doc = (await (await nested.handle(new Request(nested.endpoints.discovery))).json()) as Record<
      string,
      unknown
    >;
    expect(nested.endpoints.discovery).toBe(
      'https://sso.affiliation.test/oidc/.well-known/openid-configuration',
    );
    expect(doc.authorization_endpoint).toBe('https://sso.affiliation.test/oidc/Service/authorization');
    // The scripted browser works in-process without msw.
    const location = await nested.authorize(
      `${nested.endpoints.authorization}?client_id=test-client&redirect_uri=${encodeURIComponent('http://127.0.0.1:3000/callback')}&response_type=code&scope=openid%20student&nonce=n`,
    );
    expect(resultOf(location).params.get('code')).toBeTruthy();
  });
});
