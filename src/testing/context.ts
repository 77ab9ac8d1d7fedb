/**
 * State shared by the provider's endpoints, and the helpers they have in common: responses,
 * redirects to the relying party, and the ID token of spec 2.4.
 */
import { createHash, createHmac } from 'node:crypto';
import { mediaType } from '../core/body.js';
import { OptionsError } from '../core/errors.js';
import { random256 } from '../core/random.js';
import type { Grant } from './authorization.js';
import { KeyRing } from './keys.js';
import {
  type ErrorLocation,
  type normalizeClient,
  type normalizeInstitution,
  type normalizeOutcome,
  resolveOptions,
  type TestProviderOptions,
} from './options.js';
import type { RequestScope } from './request-scope.js';

export type Client = ReturnType<typeof normalizeClient>;
export type Institution = ReturnType<typeof normalizeInstitution>;
export type Outcome = ReturnType<typeof normalizeOutcome>;

/** The provider's paths, relative to the base URL's path. */
export function providerPaths(serviceName: string) {
  const service = `/${serviceName}`;
  return {
    discovery: '/.well-known/openid-configuration',
    authorization: `${service}/authorization`,
    /** The form without the service segment that spec 4.2 also mentions. */
    authorizationShort: '/authorization',
    token: `${service}/token`,
    userinfo: `${service}/userinfo`,
    jwks: `${service}/jwks`,
    select: `${service}/select`,
    login: '/institution/login',
    consent: '/institution/consent',
    errorClientId: '/errors/error-client-id/',
    errorRedirectUri: '/errors/error-redirect-uri/',
  };
}

/** A transaction between a valid authentication request and its result (spec 1, 3). */
export interface PendingTransaction {
  id: string;
  /** The browser session (cookie) the transaction is bound to. */
  sessionId: string;
  client: Client;
  redirectUri: string;
  responseType: 'code' | 'id_token';
  state: string | undefined;
  nonce: string;
  scope: RequestScope;
  /** The claims parameter as sent, parsed. */
  claims: Record<string, unknown> | undefined;
  codeChallenge: string | undefined;
  /** Set by a valid aarc_idp_hint or the selection page. */
  institution: Institution | undefined;
  outcome: Outcome | undefined;
  /** Time of the login at the institution, ms since epoch. */
  authTimeMs: number | undefined;
  expiresAt: number;
}

export interface IssuedCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string | undefined;
  expiresAt: number;
  used: boolean;
  grant: Grant;
  /** Hashes of the access tokens issued for this code, revoked if the code is replayed. */
  accessTokens: string[];
}

export interface AccessGrant {
  grant: Grant;
  expiresAt: number;
}

/** The provider's state, shared by its endpoints. */
export type ProviderContext = Awaited<ReturnType<typeof createContext>>;

/** Check the options and build the state of a provider answering under `baseUrl`. */
export async function createContext(options: TestProviderOptions, baseUrl: string) {
  const resolved = resolveOptions(options);
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    throw new OptionsError('Invalid option "baseUrl": expected an absolute http: or https: URL');
  }
  const base = baseUrl.replace(/\/+$/, '');
  const clients = new Map<string, Client>();
  for (const client of resolved.clients) {
    if (clients.has(client.clientId)) {
      throw new OptionsError(`Invalid option "clients": client_id "${client.clientId}" is registered twice`);
    }
    clients.set(client.clientId, client);
  }
  return {
    options: resolved,
    /** `{base_url}` without a trailing slash. */
    baseUrl: base,
    issuer: resolved.issuerTrailingSlash ? `${base}/` : base,
    errorSite: resolved.errorSite ?? `${base}/errors`,
    paths: providerPaths(resolved.serviceName),
    clients,
    institutions: new Map(resolved.institutions.map((i) => [i.entityId, i])),
    keys: await KeyRing.create(resolved.signingAlg, resolved.now, resolved.retiredKeyTtlMs),
    subjectSecret: resolved.subjectSecret ?? random256(),
    pending: new Map<string, PendingTransaction>(),
    /** Issued codes by SHA-256 of the code. */
    codes: new Map<string, IssuedCode>(),
    /** Access tokens by SHA-256 of the token. */
    accessTokens: new Map<string, AccessGrant>(),
    loginQueue: [] as Outcome[],
  };
}

export const SESSION_COOKIE = 'av_test_session';

/** Largest form body the endpoints read, in bytes. */
const MAX_FORM_BYTES = 64 * 1024;

/** The urlencoded form body, or the status that refuses it: 400 (another media type), 413 (too large). */
export async function readForm(request: Request): Promise<URLSearchParams | 400 | 413> {
  if (mediaType(request.headers.get('content-type')) !== 'application/x-www-form-urlencoded') return 400;
  const text = await request.text();
  return Buffer.byteLength(text) > MAX_FORM_BYTES ? 413 : new URLSearchParams(text);
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

export function hmac(secret: string, ...parts: string[]): string {
  return createHmac('sha256', secret).update(parts.join('\0')).digest('base64url');
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      pragma: 'no-cache',
      ...headers,
    },
  });
}

export function oauthError(
  error: string,
  description: string,
  status: number,
  headers: Record<string, string> = {},
): Response {
  return jsonResponse({ error, error_description: description }, status, headers);
}

export function redirect(location: string, status = 302, headers: Record<string, string> = {}): Response {
  return new Response(null, { status, headers: { location, 'cache-control': 'no-store', ...headers } });
}

/**
 * The redirect URI with the parameters added to its query or put in its fragment, with `%20` for
 * spaces (not `+`), so that both form decoders and plain `decodeURIComponent` read them back unchanged.
 */
export function redirectUriWith(
  redirectUri: string,
  location: ErrorLocation,
  params: Record<string, string | undefined>,
): string {
  const encoded = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  if (location === 'fragment') return `${redirectUri}#${encoded}`;
  const url = new URL(redirectUri);
  url.search = url.search === '' ? `?${encoded}` : `${url.search}&${encoded}`;
  return url.href;
}

/** The claims of the ID token, spec 2.4. */
export function idTokenClaims(
  ctx: ProviderContext,
  grant: Grant,
  accessToken: string | undefined,
): Record<string, unknown> {
  const iat = Math.floor(ctx.options.now() / 1000);
  const authTime = Math.floor(grant.authTimeMs / 1000);
  const claims: Record<string, unknown> = {
    iss: ctx.issuer,
    aud: [grant.clientId],
    sub: grant.sub,
    nonce: grant.nonce,
    auth_time: authTime,
    iat,
    exp: authTime + ctx.options.idTokenTtlSeconds,
    requested_scopes: { values: [...grant.requestedScopes] },
    returned_scopes: { values: [...grant.returnedScopes] },
    transaction_id: grant.transactionId,
  };
  if (accessToken !== undefined) claims.at_hash = ctx.keys.halfHash(accessToken);
  if (grant.requestedClaims !== undefined) claims.requested_claims = structuredClone(grant.requestedClaims);
  if (grant.idTokenReuseDetection !== undefined) claims.reuse_detection = [...grant.idTokenReuseDetection];
  const tamper = ctx.options.idTokenClaims;
  return tamper === undefined ? claims : (tamper(claims) ?? claims);
}
