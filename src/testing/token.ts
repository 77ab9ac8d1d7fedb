/**
 * The token endpoint (spec 4.3) and the userinfo endpoint (spec 4.4).
 *
 * Token endpoint errors, in the order they are checked: client authentication (`invalid_client`,
 * 401), a missing `grant_type` (`invalid_grant`, as spec 4.3 says), another grant type
 * (`unsupported_grant_type`), then anything wrong with the code (`invalid_request`, spec 4.3 and
 * 7.1): unknown, already used, expired, issued to another client or redirect URI, PKCE failure.
 * A code is consumed by the first exchange attempt of its client, successful or not, and
 * presenting it again also revokes the access token it produced (RFC 6749 §4.1.2).
 */

import { timingSafeEqual } from 'node:crypto';
import { mediaType } from '../core/body.js';
import { random256 } from '../core/random.js';
import {
  type Client,
  idTokenClaims,
  jsonResponse,
  oauthError,
  type ProviderContext,
  readForm,
  sha256,
} from './context.js';

// RFC 7636 §4.1: 43 to 128 unreserved characters.
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export async function tokenEndpoint(ctx: ProviderContext, request: Request): Promise<Response> {
  if (request.method !== 'POST') {
    return oauthError('invalid_request', 'The token endpoint accepts POST only', 405, { allow: 'POST' });
  }
  const body = await readForm(request);
  if (body === 400) {
    return oauthError('invalid_request', 'Expected an application/x-www-form-urlencoded body', 400);
  }
  if (body === 413) return oauthError('invalid_request', 'The body is too large', 413);

  const client = authenticateClient(ctx, request, body);
  if (client instanceof Response) return client;

  const grantType = body.get('grant_type');
  if (!grantType) return oauthError('invalid_grant', 'grant_type is missing', 400);
  if (grantType !== 'authorization_code') {
    return oauthError('unsupported_grant_type', 'Only authorization_code is supported', 400);
  }

  const code = body.get('code');
  if (code === null || code === '') return oauthError('invalid_request', 'code is missing', 400);
  const record = ctx.codes.get(sha256(code));
  const invalidCode = () => oauthError('invalid_request', 'Invalid authorization code', 400);
  if (record === undefined) return invalidCode();
  if (record.used) {
    for (const token of record.accessTokens) ctx.accessTokens.delete(token);
    return invalidCode();
  }
  if (record.clientId !== client.clientId) return invalidCode();
  record.used = true;
  const now = ctx.options.now();
  if (record.expiresAt <= now) return invalidCode();
  if (body.get('redirect_uri') !== record.redirectUri) return invalidCode();
  const verifier = body.get('code_verifier');
  if (record.codeChallenge !== undefined) {
    if (verifier === null || !VERIFIER.test(verifier)) return invalidCode();
    if (sha256(verifier) !== record.codeChallenge) return invalidCode();
  } else if (verifier !== null) {
    // RFC 9700 §2.1.1: a verifier for a code issued without a challenge is refused.
    return invalidCode();
  }

  const accessToken = random256();
  const tokenHash = sha256(accessToken);
  ctx.accessTokens.set(tokenHash, {
    grant: record.grant,
    expiresAt: now + ctx.options.accessTokenTtlSeconds * 1000,
  });
  record.accessTokens.push(tokenHash);
  const idToken = await ctx.keys.sign(idTokenClaims(ctx, record.grant, accessToken));
  return jsonResponse({
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: ctx.options.accessTokenTtlSeconds,
    id_token: idToken,
  });
}

/** `client_secret_basic` or `client_secret_post`, never both (RFC 6749 §2.3). */
function authenticateClient(
  ctx: ProviderContext,
  request: Request,
  body: URLSearchParams,
): Client | Response {
  const header = request.headers.get('authorization');
  const challenge = { 'www-authenticate': 'Basic realm="token", charset="UTF-8"' };
  let clientId = body.get('client_id');
  let secret = body.get('client_secret');
  if (header !== null) {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    const decoded = match?.[1] === undefined ? '' : Buffer.from(match[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return oauthError('invalid_client', 'Malformed Basic credentials', 401, challenge);
    if (secret !== null) {
      return oauthError('invalid_request', 'Use one client authentication method, not two', 400);
    }
    // RFC 6749 §2.3.1: both parts are form-urlencoded before Base64. A client_id in the body must agree.
    const basicId = formDecode(decoded.slice(0, colon));
    if (clientId !== null && clientId !== basicId) {
      return oauthError('invalid_client', 'Client authentication failed', 401, challenge);
    }
    clientId = basicId;
    secret = formDecode(decoded.slice(colon + 1));
  } else if (clientId === null || secret === null) {
    return oauthError('invalid_client', 'Client authentication is required', 401, challenge);
  }
  const client = clientId === null ? undefined : ctx.clients.get(clientId);
  if (client === undefined || secret === null || !sameSecret(secret, client.clientSecret)) {
    return oauthError(
      'invalid_client',
      'Client authentication failed',
      401,
      header === null ? {} : challenge,
    );
  }
  return client;
}

function formDecode(value: string): string | null {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

/** Compared as digests: timingSafeEqual needs equal lengths, and the secret's length stays hidden. */
function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(Buffer.from(sha256(given)), Buffer.from(sha256(expected)));
}

/** `GET|POST {base_url}/{Service}/userinfo` with a Bearer access token (RFC 6750). */
export async function userinfoEndpoint(ctx: ProviderContext, request: Request): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'POST') {
    return oauthError('invalid_request', 'Use GET or POST', 405, { allow: 'GET, POST' });
  }
  let token: string | undefined;
  const header = request.headers.get('authorization');
  if (header !== null) {
    token = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(header)?.[1];
  } else if (
    request.method === 'POST' &&
    mediaType(request.headers.get('content-type')) === 'application/x-www-form-urlencoded'
  ) {
    token = new URLSearchParams(await request.text()).get('access_token') ?? undefined;
  }
  const stored = token === undefined ? undefined : ctx.accessTokens.get(sha256(token));
  if (stored === undefined || stored.expiresAt <= ctx.options.now()) {
    const description =
      token === undefined ? 'The access token is missing' : 'The access token is invalid or expired';
    return oauthError('invalid_token', description, 401, {
      'www-authenticate': `Bearer realm="userinfo", error="invalid_token", error_description="${description}"`,
    });
  }
  const { grant } = stored;
  const claims: Record<string, unknown> = { sub: grant.sub };
  if (grant.userinfoReuseDetection !== undefined) claims.reuse_detection = [...grant.userinfoReuseDetection];
  return jsonResponse(claims);
}
