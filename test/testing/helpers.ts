import { createHash, randomBytes } from 'node:crypto';
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import type { TestProvider } from '../../src/testing.js';

export const CLIENT_ID = 'shop';
export const CLIENT_SECRET = 'shop-secret-value';
export const REDIRECT_URI = 'http://127.0.0.1:3999/callback';
export const OTHER_CLIENT_ID = 'other-shop';

export const UNIVERSITY = 'https://idp.university.example/idp/shibboleth';
export const POLYTECHNIC = 'https://sso.polytechnic.example/idp';
export const NON_EDUGAIN = 'https://idp.institute.example/metadata';

export const testClients = [
  {
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUris: [REDIRECT_URI],
    allowedClaims: ['reuse_detection' as const],
  },
  {
    clientId: OTHER_CLIENT_ID,
    clientSecret: 'other-secret-value',
    redirectUris: [REDIRECT_URI],
    allowedScopes: ['student', 'transient'],
    responseTypes: ['code' as const],
  },
];

export interface RequestParams {
  client_id?: string | undefined;
  redirect_uri?: string | undefined;
  response_type?: string | undefined;
  /** Sent percent-encoded with %20 / %2B unless `rawScope` is used. */
  scope?: string | undefined;
  nonce?: string | undefined;
  state?: string | undefined;
  claims?: unknown;
  aarc_idp_hint?: string | undefined;
  code_challenge?: string | undefined;
  code_challenge_method?: string | undefined;
}

/**
 * An authentication request URL as spec 4.2 writes it. Values are percent-encoded with
 * encodeURIComponent (space → %20, + → %2B); `rawScope` puts the scope on the wire unchanged.
 */
export function authUrl(
  op: TestProvider,
  params: RequestParams = {},
  rawScope?: string,
  endpoint?: string,
): string {
  const all: Record<string, string | undefined> = {
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid student',
    nonce: 'nonce-1',
    state: 'state-1',
    ...params,
    claims: params.claims === undefined ? undefined : JSON.stringify(params.claims),
  };
  const parts = Object.entries(all)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) =>
      k === 'scope' && rawScope !== undefined ? `scope=${rawScope}` : `${k}=${encodeURIComponent(v)}`,
    );
  if (rawScope !== undefined && !('scope' in all && all.scope !== undefined)) parts.push(`scope=${rawScope}`);
  return `${endpoint ?? op.endpoints.authorization}?${parts.join('&')}`;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The first response of the authorization endpoint, not followed. */
export async function firstHop(url: string): Promise<Response> {
  return fetch(url, { redirect: 'manual' });
}

/** Parameters of a redirect to the RP: where they were (query or fragment) and their values. */
export function resultOf(location: string): {
  where: 'query' | 'fragment' | 'none';
  params: URLSearchParams;
  base: string;
} {
  const url = new URL(location);
  const base = `${url.origin}${url.pathname}`;
  if (url.hash.length > 1) return { where: 'fragment', params: new URLSearchParams(url.hash.slice(1)), base };
  if (url.search.length > 1) return { where: 'query', params: new URLSearchParams(url.search), base };
  return { where: 'none', params: new URLSearchParams(), base };
}

export interface ExchangeOptions {
  code: string;
  verifier?: string | undefined;
  redirectUri?: string | undefined;
  auth?: 'basic' | 'post' | 'none';
  clientId?: string;
  clientSecret?: string;
  grantType?: string | null;
}

export async function exchange(op: TestProvider, options: ExchangeOptions): Promise<Response> {
  const body = new URLSearchParams();
  if (options.grantType !== null) body.set('grant_type', options.grantType ?? 'authorization_code');
  body.set('code', options.code);
  body.set('redirect_uri', options.redirectUri ?? REDIRECT_URI);
  if (options.verifier !== undefined) body.set('code_verifier', options.verifier);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const id = options.clientId ?? CLIENT_ID;
  const secret = options.clientSecret ?? CLIENT_SECRET;
  const auth = options.auth ?? 'basic';
  if (auth === 'basic') {
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  } else if (auth === 'post') {
    body.set('client_id', id);
    body.set('client_secret', secret);
  }
  return fetch(op.endpoints.token, { method: 'POST', headers, body });
}

/** Verify an ID token as an RP would: signature with the JWKS, issuer, audience. */
export async function verifyIdToken(
  op: TestProvider,
  idToken: string,
  audience = CLIENT_ID,
): Promise<JWTPayload> {
  const jwks = createRemoteJWKSet(new URL(op.endpoints.jwks));
  const { payload } = await jwtVerify(idToken, jwks, { issuer: op.issuer, audience });
  return payload;
}

export function decodePayload(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/** Run a full code flow (authorization walk + token exchange) and return the token response. */
export async function codeFlow(
  op: TestProvider,
  params: RequestParams = {},
  options: { institution?: string; fields?: Record<string, string> } = {},
): Promise<{
  tokens: { access_token: string; id_token: string; token_type: string; expires_in: number };
  claims: JWTPayload;
}> {
  const { verifier, challenge } = pkce();
  const location = await op.authorize(
    authUrl(op, { code_challenge: challenge, code_challenge_method: 'S256', ...params }),
    options,
  );
  const { params: result } = resultOf(location);
  const code = result.get('code');
  if (code === null) throw new Error(`No code in ${location}`);
  const response = await exchange(op, { code, verifier });
  if (response.status !== 200)
    throw new Error(`token endpoint answered ${response.status}: ${await response.text()}`);
  const tokens = (await response.json()) as {
    access_token: string;
    id_token: string;
    token_type: string;
    expires_in: number;
  };
  return { tokens, claims: await verifyIdToken(op, tokens.id_token) };
}
