/**
 * Interop: a full code flow with PKCE against panva's oidc-provider (an independent, certified OP)
 * on 127.0.0.1, configured to add the service's claims to its ID tokens. The browser is played
 * with plain fetch, manual redirects and a small cookie jar, through oidc-provider's own
 * development interactions (login, then consent).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AffiliationClient } from '../../src/rp/client.js';
import { ProviderError, ValidationError } from '../../src/rp/errors.js';
import { MemoryTransactionStore } from '../../src/rp/transactions/index.js';

const CLIENT_ID = 'shop-interop';
const CLIENT_SECRET = 'interop-secret-5kq2v8s1n0w7r3m6';
const REDIRECT_URI = 'http://127.0.0.1:3000/callback';
const AFFILIATIONS = ['student', 'faculty+staff', 'employee', 'member'];
const IDENTIFIERS = ['persistent', 'transient'];
const SERVICE_CLAIMS = ['requested_scopes', 'returned_scopes', 'requested_claims', 'transaction_id'];

let server: Server;
let issuer: string;
/** Set by a test to tamper with the next ID token's service claims. */
let tamper: ((claims: Record<string, unknown>) => void) | undefined;

function serviceClaims(scope: string, requested: unknown, use: string): Record<string, unknown> {
  const values = scope.split(' ').filter(Boolean);
  const affiliation = values.find((v) => AFFILIATIONS.includes(v));
  const identifier = values.find((v) => IDENTIFIERS.includes(v)) ?? 'transient';
  const out: Record<string, unknown> = {
    requested_scopes: { values },
    returned_scopes: { values: ['openid', affiliation, identifier] },
    transaction_id: randomUUID(),
  };
  if (requested && typeof requested === 'object' && Object.keys(requested).length > 0) {
    out.requested_claims = requested;
  }
  out.reuse_detection = [`rd-${use}`];
  if (use === 'id_token') tamper?.(out);
  return out;
}

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'interop-1', alg: 'RS256', use: 'sig' };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [REDIRECT_URI],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: `${CLIENT_ID}-post`,
        client_secret: CLIENT_SECRET,
        redirect_uris: [REDIRECT_URI],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['interop-cookie-key-1'] },
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 3600,
      AuthorizationCode: 60,
    },
    pkce: { required: () => true },
    scopes: ['openid', ...AFFILIATIONS, ...IDENTIFIERS],
    claims: {
      openid: ['sub'],
      ...Object.fromEntries([...AFFILIATIONS, ...IDENTIFIERS].map((s) => [s, SERVICE_CLAIMS])),
      reuse_detection: null,
    },
    // The service puts its claims into the ID token also on the code flow.
    conformIdTokenClaims: false,
    features: { claimsParameter: { enabled: true }, devInteractions: { enabled: true } },
    async findAccount(ctx, sub, token) {
      return {
        accountId: sub,
        async claims(use: string, scope: string) {
          const code = token as { claims?: unknown } | undefined;
          const params = (ctx.oidc as { params?: { claims?: string } } | undefined)?.params;
          const requested = code?.claims ?? (params?.claims ? JSON.parse(params.claims) : undefined);
          return { sub, ...serviceClaims(scope, requested, use) };
        },
      };
    },
  });
  server.on('request', provider.callback());
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Play the browser: follow the OP's redirects, log in and consent, stop at the redirect URI. */
async function browse(authorizationUrl: string, account = 'shopper-7'): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop++) {
    if (url.startsWith(REDIRECT_URI)) return url;
    const headers: Record<string, string> = {
      cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    };
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, { method, headers, body, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = (pair ?? '').indexOf('=');
      if (eq > 0) jar.set((pair ?? '').slice(0, eq), (pair ?? '').slice(eq + 1));
    }
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url).href;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await response.text();
    const interaction = /\/interaction\/[^/?#]+$/.exec(new URL(url).pathname);
    if (response.status === 200 && interaction) {
      const prompt =
        /name="prompt" value="(\w+)"/.exec(html)?.[1] ?? (/login/i.test(html) ? 'login' : 'consent');
      method = 'POST';
      body = new URLSearchParams(
        prompt === 'login' ? { prompt, login: account, password: 'x' } : { prompt },
      ).toString();
      continue;
    }
    throw new Error(`unexpected answer ${response.status} at ${url}: ${html.slice(0, 300)}`);
  }
  throw new Error('too many redirects');
}

async function client() {
  return AffiliationClient.discover({
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: REDIRECT_URI,
    // A bare callback URL below: a store that binds to the browser would refuse it.
    transactions: new MemoryTransactionStore({ bindToBrowser: false }),
  });
}

describe('interop with oidc-provider', () => {
  it('completes a code flow with PKCE and validates the ID token and its service claims', async () => {
    const rp = await client();
    const { url } = await rp.createAuthorizationRequest({
      affiliation: 'faculty+staff',
      identifier: 'persistent',
    });
    const callback = await browse(url);
    expect(new URL(callback).searchParams.get('iss')).toBe(issuer);
    const result = await rp.validateCallback(callback);
    expect(result.affiliation).toBe('faculty+staff');
    expect(result.identifier).toBe('persistent');
    expect(result.subject).toBe('shopper-7');
    expect(result.transactionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.claims.iss).toBe(issuer);
    expect(result.claims.aud).toContain(CLIENT_ID);
  });

  it('requests claims and userinfo, with requested_claims echoed and the userinfo subject checked', async () => {
    const rp = await client();
    const claims = { id_token: { reuse_detection: null }, userinfo: { reuse_detection: null } };
    const { url } = await rp.createAuthorizationRequest({ affiliation: 'student', claims });
    const result = await rp.validateCallback(await browse(url, 'shopper-8'));
    expect(result.identifier).toBe('transient');
    expect(result.reuseDetection).toEqual(['rd-id_token']);
    expect(result.userinfo?.sub).toBe('shopper-8');
    expect(result.claims.requested_claims).toEqual(claims);
  });

  it('authenticates with client_secret_post when configured', async () => {
    const rp = await AffiliationClient.discover({
      issuer,
      clientId: `${CLIENT_ID}-post`,
      clientSecret: CLIENT_SECRET,
      redirectUri: REDIRECT_URI,
      // A bare callback URL below: a store that binds to the browser would refuse it.
      transactions: new MemoryTransactionStore({ bindToBrowser: false }),
      tokenEndpointAuthMethod: 'client_secret_post',
    });
    const { url } = await rp.createAuthorizationRequest({
      affiliation: 'employee',
      idpHint: 'https://idp.example.edu',
    });
    const result = await rp.validateCallback(await browse(url));
    expect(result.affiliation).toBe('employee');
    expect(result.institution).toEqual({ entityId: 'https://idp.example.edu' });
  });

  it('refuses a wrong client secret with invalid_client from the token endpoint', async () => {
    const rp = await AffiliationClient.discover({
      issuer,
      clientId: CLIENT_ID,
      clientSecret: 'not-the-registered-secret',
      redirectUri: REDIRECT_URI,
      // A bare callback URL below: a store that binds to the browser would refuse it.
      transactions: new MemoryTransactionStore({ bindToBrowser: false }),
    });
    const { url } = await rp.createAuthorizationRequest({ affiliation: 'student' });
    const error = await rp.validateCallback(await browse(url)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).error).toBe('invalid_client');
    expect(String(error)).not.toContain('not-the-registered-secret');
  });

  it('rejects a service claim the OP gets wrong', async () => {
    const rp = await client();
    tamper = (c) => (c.returned_scopes = { values: ['openid', 'employee', 'transient'] });
    try {
      const { url } = await rp.createAuthorizationRequest({ affiliation: 'student' });
      const error = await rp.validateCallback(await browse(url)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).code).toBe('returned_scopes_mismatch');
    } finally {
      tamper = undefined;
    }
  });

  it('maps a replayed code to replayed_transaction, the ProviderError from the token endpoint as its cause', async () => {
    const rp = await client();
    const { url, state } = await rp.createAuthorizationRequest({ affiliation: 'member' });
    const callback = new URL(await browse(url));
    await rp.validateCallback(callback);
    // A second transaction with the same (used) code: the OP refuses the code.
    const second = await rp.createAuthorizationRequest({ affiliation: 'member' });
    callback.searchParams.set('state', second.state);
    expect(second.state).not.toBe(state);
    const thrown = await rp.validateCallback(callback).catch((e: unknown) => e);
    expect((thrown as ValidationError).code).toBe('replayed_transaction');
    const error = (thrown as Error).cause;
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).source).toBe('token');
    expect((error as ProviderError).error).toBe('invalid_grant');
  });
});
