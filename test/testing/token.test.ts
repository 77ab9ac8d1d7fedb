import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningTestProvider, TestProvider } from '../../src/testing.js';
import {
  authUrl,
  CLIENT_SECRET,
  codeFlow,
  exchange,
  OTHER_CLIENT_ID,
  POLYTECHNIC,
  pkce,
  REDIRECT_URI,
  resultOf,
  testClients,
  verifyIdToken,
} from './helpers.js';

let op: RunningTestProvider;
let clock = Date.UTC(2030, 5, 1, 12);

beforeAll(async () => {
  op = await TestProvider.start({
    clients: testClients,
    now: () => clock,
    codeTtlMs: 30_000,
    signingAlg: 'ES256',
  });
});
afterAll(() => op.close());

/** A fresh code (with PKCE unless disabled). */
async function newCode(
  withPkce = true,
  params: Parameters<typeof authUrl>[1] = {},
): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkce();
  const extra = withPkce ? { code_challenge: challenge, code_challenge_method: 'S256' } : {};
  const location = await op.authorize(authUrl(op, { ...extra, ...params }));
  const code = resultOf(location).params.get('code');
  if (code === null) throw new Error(location);
  return { code, verifier };
}

async function expectError(
  response: Response,
  status: number,
  error: string,
): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = (await response.json()) as Record<string, unknown>;
  expect(body.error).toBe(error);
  return body;
}

describe('token endpoint: success', () => {
  it('exchanges a code with PKCE and client_secret_basic for a Bearer access token and an ID token', async () => {
    const { code, verifier } = await newCode();
    const response = await exchange(op, { code, verifier, auth: 'basic' });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(body.access_token).toEqual(expect.any(String));
    const claims = await verifyIdToken(op, body.id_token as string);
    expect(claims.nonce).toBe('nonce-1');
  });

  it('accepts client_secret_post', async () => {
    const { code, verifier } = await newCode();
    expect((await exchange(op, { code, verifier, auth: 'post' })).status).toBe(200);
  });

  it('accepts a code issued without PKCE when no verifier is sent', async () => {
    const { code } = await newCode(false);
    expect((await exchange(op, { code })).status).toBe(200);
  });

  it('decodes form-encoded Basic credentials (RFC 6749 2.3.1)', async () => {
    const odd = { clientId: 'shop:eu', clientSecret: 'p@ss word+/=', redirectUris: [REDIRECT_URI] };
    op.registerClient(odd);
    const { verifier, challenge } = pkce();
    const location = await op.authorize(
      authUrl(op, { client_id: odd.clientId, code_challenge: challenge, code_challenge_method: 'S256' }),
    );
    const code = resultOf(location).params.get('code') as string;
    const response = await exchange(op, {
      code,
      verifier,
      clientId: odd.clientId,
      clientSecret: odd.clientSecret,
    });
    expect(response.status).toBe(200);
  });
});

describe('token endpoint: errors of spec 4.3 / 7.1', () => {
  it('missing grant_type gives invalid_grant', async () => {
    const { code, verifier } = await newCode();
    await expectError(await exchange(op, { code, verifier, grantType: null }), 400, 'invalid_grant');
  });

  it('another grant_type gives unsupported_grant_type', async () => {
    const { code, verifier } = await newCode();
    await expectError(
      await exchange(op, { code, verifier, grantType: 'refresh_token' }),
      400,
      'unsupported_grant_type',
    );
  });

  it('bad Basic credentials give invalid_client with 401 and WWW-Authenticate', async () => {
    const { code, verifier } = await newCode();
    const response = await exchange(op, { code, verifier, clientSecret: 'wrong' });
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
    const body = await expectError(response, 401, 'invalid_client');
    expect(JSON.stringify(body)).not.toContain('wrong');
  });

  it('bad client_secret_post credentials, unknown clients and no credentials give invalid_client', async () => {
    const { code, verifier } = await newCode();
    await expectError(
      await exchange(op, { code, verifier, auth: 'post', clientSecret: 'wrong' }),
      401,
      'invalid_client',
    );
    await expectError(await exchange(op, { code, verifier, clientId: 'ghost' }), 401, 'invalid_client');
    await expectError(await exchange(op, { code, verifier, auth: 'none' }), 401, 'invalid_client');
    const malformed = await fetch(op.endpoints.token, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic !!!' },
      body: `grant_type=authorization_code&code=${code}`,
    });
    await expectError(malformed, 401, 'invalid_client');
    // Client authentication failures did not consume the code.
    expect((await exchange(op, { code, verifier })).status).toBe(200);
  });

  it('two client authentication methods at once give invalid_request', async () => {
    const { code, verifier } = await newCode();
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT_URI,
      client_secret: CLIENT_SECRET,
    });
    const response = await fetch(op.endpoints.token, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`shop:${CLIENT_SECRET}`).toString('base64')}`,
      },
      body,
    });
    await expectError(response, 400, 'invalid_request');
  });

  it('an unknown code gives invalid_request', async () => {
    await expectError(await exchange(op, { code: 'made-up-code' }), 400, 'invalid_request');
  });

  it('a reused code gives invalid_request and revokes the access token it produced', async () => {
    const { code, verifier } = await newCode();
    const first = (await (await exchange(op, { code, verifier })).json()) as { access_token: string };
    const userinfo = () =>
      fetch(op.endpoints.userinfo, { headers: { authorization: `Bearer ${first.access_token}` } });
    expect((await userinfo()).status).toBe(200);
    await expectError(await exchange(op, { code, verifier }), 400, 'invalid_request');
    expect((await userinfo()).status).toBe(401);
  });

  it('an expired code gives invalid_request (codeTtlMs)', async () => {
    const { code, verifier } = await newCode();
    clock += 30_000;
    await expectError(await exchange(op, { code, verifier }), 400, 'invalid_request');
  });

  it('a code presented by another client gives invalid_request', async () => {
    const { code, verifier } = await newCode();
    const response = await exchange(op, {
      code,
      verifier,
      clientId: OTHER_CLIENT_ID,
      clientSecret: 'other-secret-value',
    });
    await expectError(response, 400, 'invalid_request');
  });

  it('a wrong or missing redirect_uri gives invalid_request', async () => {
    const { code, verifier } = await newCode();
    await expectError(
      await exchange(op, { code, verifier, redirectUri: `${REDIRECT_URI}/other` }),
      400,
      'invalid_request',
    );
  });

  it.each([
    ['a wrong verifier', () => pkce().verifier],
    ['no verifier', () => undefined],
    ['a verifier that is too short', () => 'abc'],
  ])('PKCE: %s gives invalid_request, and the code is then spent', async (_, makeVerifier) => {
    const { code, verifier } = await newCode();
    await expectError(await exchange(op, { code, verifier: makeVerifier() }), 400, 'invalid_request');
    await expectError(await exchange(op, { code, verifier }), 400, 'invalid_request');
  });

  it('a verifier for a code issued without PKCE gives invalid_request', async () => {
    const { code } = await newCode(false);
    await expectError(await exchange(op, { code, verifier: pkce().verifier }), 400, 'invalid_request');
  });

  it('refuses GET and non-form bodies', async () => {
    expect((await fetch(op.endpoints.token)).status).toBe(405);
    const json = await fetch(op.endpoints.token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"grant_type":"authorization_code"}',
    });
    await expectError(json, 400, 'invalid_request');
  });
});

describe('transactions at the institution pages expire (transactionTtlMs)', () => {
  it('refuses to continue a transaction older than 10 minutes', async () => {
    let steps = 0;
    const walk = op.authorize(authUrl(op), {
      onStep: () => {
        steps += 1;
        if (steps === 1) clock += 600_000;
      },
    });
    await expect(walk).rejects.toMatchObject({ code: 'authorize_walk_failed', status: 400 });
  });
});

describe('userinfo endpoint (spec 4.4)', () => {
  it('returns sub and the claims requested under userinfo, for a Bearer access token', async () => {
    const { tokens, claims } = await codeFlow(op, { claims: { userinfo: { reuse_detection: null } } });
    const response = await fetch(op.endpoints.userinfo, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.sub).toBe(claims.sub);
    expect(body.reuse_detection).toEqual([expect.stringMatching(/^rd-/)]);
    // Requested under userinfo only: not in the ID token.
    expect(claims).not.toHaveProperty('reuse_detection');
  });

  it('returns only sub when userinfo claims were not requested', async () => {
    const { tokens } = await codeFlow(op, { claims: { id_token: { reuse_detection: null } } });
    const body = await (
      await fetch(op.endpoints.userinfo, { headers: { authorization: `Bearer ${tokens.access_token}` } })
    ).json();
    expect(Object.keys(body)).toEqual(['sub']);
  });

  it('leaves reuse_detection out of userinfo when the institution does not release it or the client may not have it', async () => {
    const request = { userinfo: { reuse_detection: null } };
    const viaPolytechnic = await codeFlow(op, { claims: request }, { institution: POLYTECHNIC });
    const get = async (token: string) =>
      (await fetch(op.endpoints.userinfo, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(Object.keys(await get(viaPolytechnic.tokens.access_token))).toEqual(['sub']);

    op.registerClient({ clientId: 'plain-shop', clientSecret: 'plain-secret', redirectUris: [REDIRECT_URI] });
    const { verifier, challenge } = pkce();
    const location = await op.authorize(
      authUrl(op, {
        client_id: 'plain-shop',
        claims: request,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    const code = resultOf(location).params.get('code') as string;
    const tokens = (await (
      await exchange(op, { code, verifier, clientId: 'plain-shop', clientSecret: 'plain-secret' })
    ).json()) as { access_token: string };
    expect(Object.keys(await get(tokens.access_token))).toEqual(['sub']);
  });

  it('accepts the access token in a POSTed form (RFC 6750 2.2)', async () => {
    const { tokens } = await codeFlow(op);
    const response = await fetch(op.endpoints.userinfo, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ access_token: tokens.access_token }),
    });
    expect(response.status).toBe(200);
  });

  it.each([
    ['an unknown token', { authorization: 'Bearer not-a-token' }],
    ['a malformed header', { authorization: 'Bearer' }],
    ['a Basic header', { authorization: 'Basic c2hvcDpzZWNyZXQ=' }],
    ['no token', {}],
  ])('answers %s with invalid_token, 401 and WWW-Authenticate', async (_, headers) => {
    const response = await fetch(op.endpoints.userinfo, { headers });
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
    await expectError(response, 401, 'invalid_token');
  });

  it('answers an expired access token with invalid_token', async () => {
    const { tokens } = await codeFlow(op);
    clock += 3600 * 1000;
    const response = await fetch(op.endpoints.userinfo, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    await expectError(response, 401, 'invalid_token');
  });
});
