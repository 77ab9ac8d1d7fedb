import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningTestProvider, TestProvider } from '../../src/testing.js';
import { authUrl, codeFlow, firstHop, testClients } from './helpers.js';

let op: RunningTestProvider;
let clock = Date.UTC(2030, 0, 1);

beforeAll(async () => {
  op = await TestProvider.start({ clients: testClients, now: () => clock, retiredKeyTtlMs: 60_000 });
});
afterAll(() => op.close());

describe('provider configuration (spec 4.1)', () => {
  it('is served at {base_url}/.well-known/openid-configuration with the fixed addresses of spec 1', async () => {
    expect(op.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${op.baseUrl}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = (await response.json()) as Record<string, unknown>;
    expect(doc.issuer).toBe(op.baseUrl);
    expect(doc.authorization_endpoint).toBe(`${op.baseUrl}/Service/authorization`);
    expect(doc.token_endpoint).toBe(`${op.baseUrl}/Service/token`);
    expect(doc.userinfo_endpoint).toBe(`${op.baseUrl}/Service/userinfo`);
    expect(doc.jwks_uri).toBe(`${op.baseUrl}/Service/jwks`);
    expect(doc.response_types_supported).toEqual(['code', 'id_token']);
    expect(doc.scopes_supported).toEqual(
      expect.arrayContaining([
        'openid',
        'student',
        'faculty+staff',
        'employee',
        'member',
        'persistent',
        'transient',
      ]),
    );
    expect(doc.claims_supported).toEqual(
      expect.arrayContaining([
        'requested_scopes',
        'returned_scopes',
        'requested_claims',
        'transaction_id',
        'reuse_detection',
      ]),
    );
    expect(doc.id_token_signing_alg_values_supported).toEqual(['RS256']);
    expect(doc.code_challenge_methods_supported).toEqual(['S256']);
    expect(doc.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post']);
    expect(doc.subject_types_supported).toBeDefined();
  });

  it('matches op.endpoints', async () => {
    const doc = (await (await fetch(op.endpoints.discovery)).json()) as Record<string, unknown>;
    expect(doc.authorization_endpoint).toBe(op.endpoints.authorization);
    expect(doc.jwks_uri).toBe(op.endpoints.jwks);
    expect(op.discoveryDocument()).toEqual(doc);
  });

  it('uses the serviceName option as the path segment of the authorization endpoint', async () => {
    const other = await TestProvider.start({ serviceName: 'AffiliationValidation', signingAlg: 'ES256' });
    try {
      const doc = (await (await fetch(other.endpoints.discovery)).json()) as Record<string, unknown>;
      expect(doc.authorization_endpoint).toBe(`${other.baseUrl}/AffiliationValidation/authorization`);
    } finally {
      await other.close();
    }
  });

  it('publishes the issuer with a trailing slash, in discovery and iss, when issuerTrailingSlash is set (spec 2.4)', async () => {
    const slash = await TestProvider.start({
      clients: testClients,
      issuerTrailingSlash: true,
      signingAlg: 'ES256',
    });
    try {
      expect(slash.issuer).toBe(`${slash.baseUrl}/`);
      const doc = (await (await fetch(slash.endpoints.discovery)).json()) as Record<string, unknown>;
      expect(doc.issuer).toBe(`${slash.baseUrl}/`);
      // The endpoints keep {base_url} without the slash.
      expect(doc.authorization_endpoint).toBe(`${slash.baseUrl}/Service/authorization`);
      const { claims } = await codeFlow(slash);
      expect(claims.iss).toBe(`${slash.baseUrl}/`);
    } finally {
      await slash.close();
    }
  });

  it('answers the authentication request also at {base_url}/authorization (spec 4.2)', async () => {
    const response = await firstHop(authUrl(op, {}, undefined, `${op.baseUrl}/authorization`));
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toContain(`${op.baseUrl}/Service/select?tx=`);
  });

  it('merges discoveryOverrides over the document, for negative tests (undefined removes a member)', async () => {
    const odd = await TestProvider.start({
      signingAlg: 'ES256',
      discoveryOverrides: { issuer: 'https://elsewhere.example', userinfo_endpoint: undefined },
    });
    try {
      const doc = (await (await fetch(odd.endpoints.discovery)).json()) as Record<string, unknown>;
      expect(doc.issuer).toBe('https://elsewhere.example');
      expect(doc).not.toHaveProperty('userinfo_endpoint');
      expect(doc.token_endpoint).toBe(odd.endpoints.token);
    } finally {
      await odd.close();
    }
  });

  it('answers 404 for unknown paths and 405 for a POST to discovery', async () => {
    expect((await fetch(`${op.baseUrl}/nope`)).status).toBe(404);
    expect((await fetch(op.endpoints.discovery, { method: 'POST' })).status).toBe(405);
  });
});

describe('jwks_uri and key rotation', () => {
  it('publishes the signing key with kid, alg and use', async () => {
    const jwks = (await (await fetch(op.endpoints.jwks)).json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: op.signingKeyId });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('signs with a new kid after rotateKeys() and keeps the old key for the grace period only', async () => {
    const before = await codeFlow(op);
    const oldKid = op.signingKeyId;
    const newKid = await op.rotateKeys();
    expect(newKid).not.toBe(oldKid);
    expect(op.signingKeyId).toBe(newKid);

    const after = await codeFlow(op);
    const header = JSON.parse(Buffer.from(after.tokens.id_token.split('.')[0] ?? '', 'base64url').toString());
    expect(header.kid).toBe(newKid);

    let jwks = await (await fetch(op.endpoints.jwks)).json();
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual([newKid, oldKid]);
    // A token signed before the rotation still verifies against the published set.
    await expect(
      jwtVerify(before.tokens.id_token, createLocalJWKSet(jwks), { currentDate: new Date(clock) }),
    ).resolves.toBeDefined();

    clock += 60_000; // retiredKeyTtlMs
    jwks = await (await fetch(op.endpoints.jwks)).json();
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual([newKid]);
    await expect(
      jwtVerify(before.tokens.id_token, createLocalJWKSet(jwks), { currentDate: new Date(clock) }),
    ).rejects.toThrow();
  });

  it('drops the previous key at once with rotateKeys({ keepPrevious: false })', async () => {
    const oldKid = op.signingKeyId;
    const newKid = await op.rotateKeys({ keepPrevious: false });
    const jwks = await (await fetch(op.endpoints.jwks)).json();
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual([newKid]);
    expect(newKid).not.toBe(oldKid);
  });

  it('signs with the configured algorithm', async () => {
    const ec = await TestProvider.start({ clients: testClients, signingAlg: 'ES256' });
    try {
      const doc = (await (await fetch(ec.endpoints.discovery)).json()) as Record<string, unknown>;
      expect(doc.id_token_signing_alg_values_supported).toEqual(['ES256']);
      const { tokens } = await codeFlow(ec);
      expect(JSON.parse(Buffer.from(tokens.id_token.split('.')[0] ?? '', 'base64url').toString()).alg).toBe(
        'ES256',
      );
    } finally {
      await ec.close();
    }
  });
});
