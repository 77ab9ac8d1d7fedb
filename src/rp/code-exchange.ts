/**
 * The code flow's back channel, through our own HTTP layer: the token request (RFC 6749 §4.1.3,
 * `client_secret_basic` or `client_secret_post`, PKCE verifier) and the userinfo request (OIDC Core
 * §5.3). The ID token of the token response is verified exactly once, by `verifyIdToken` with the
 * client's one key cache. Endpoint error answers become our errors from the status, the JSON body
 * and the `WWW-Authenticate` challenge; nothing is read from a lower library's message text.
 */
import type { AffiliationError } from '../core/errors.js';
import { TransportError } from '../core/errors.js';
import { redact } from '../core/redact.js';
import type { BufferedResponse, HttpClient } from '../http/client.js';
import type { ProviderMetadata } from './discovery.js';
import { ProviderError, ValidationError } from './errors.js';
import type { IdTokenCheckOptions } from './id-token.js';
import { verifyIdToken } from './id-token.js';
import type { AffiliationResult, Transaction } from './types.js';

export interface ExchangeContext {
  metadata: ProviderMetadata;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post';
  http: HttpClient;
  checks: Omit<IdTokenCheckOptions, 'accessToken' | 'now'>;
  now: () => number;
}

/** `application/x-www-form-urlencoded` encoding of one value (RFC 6749 §2.3.1, Appendix B). */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/**
 * Exchange the code, verify the ID token, fetch userinfo when userinfo claims were requested.
 *
 * @param params The callback's parameters (code, state, iss, …).
 */
export async function exchangeCode(
  params: Map<string, string>,
  tx: Transaction,
  ctx: ExchangeContext,
): Promise<AffiliationResult> {
  const code = params.get('code') ?? '';
  const secrets = [ctx.clientSecret, code, tx.codeVerifier, tx.nonce];
  const { metadata } = ctx;
  if (!metadata.token_endpoint) {
    throw new TransportError('The provider configuration has no token_endpoint; the code flow needs one', {
      code: 'invalid_response',
    });
  }

  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    // Always the configured redirect URI, never the incoming URL (which is http: behind a
    // TLS-terminating proxy): it must equal the authorization request's.
    redirect_uri: ctx.redirectUri,
  });
  if (tx.codeVerifier !== undefined) body.set('code_verifier', tx.codeVerifier);
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
  };
  if (ctx.tokenEndpointAuthMethod === 'client_secret_post') {
    body.set('client_id', ctx.clientId);
    body.set('client_secret', ctx.clientSecret);
  } else {
    const credentials = `${formEncode(ctx.clientId)}:${formEncode(ctx.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  const response = await ctx.http.request(metadata.token_endpoint, {
    method: 'POST',
    headers,
    body: body.toString(),
    redirect: 'manual',
  });
  if (response.status !== 200) {
    throw endpointErrorFromResponse('token', response, secrets);
  }
  const tokens = jsonObject(response, 'token');
  const accessToken = tokens.access_token;
  if (typeof accessToken !== 'string' || accessToken === '') {
    throw new TransportError('The token response carries no access_token', { code: 'invalid_response' });
  }
  if (typeof tokens.token_type !== 'string' || tokens.token_type.toLowerCase() !== 'bearer') {
    throw new TransportError('The token response has no token_type "Bearer"', { code: 'invalid_response' });
  }
  const idToken = tokens.id_token;
  if (typeof idToken !== 'string' || idToken === '') {
    throw new ValidationError('The token response carries no ID token', { code: 'missing_parameters' });
  }
  const result = await verifyIdToken(idToken, tx, { ...ctx.checks, now: ctx.now(), accessToken });

  if (tx.claims?.userinfo !== undefined) {
    secrets.push(accessToken);
    const userinfo = await fetchUserinfo(metadata, accessToken, ctx.http, secrets);
    if (typeof userinfo.sub !== 'string' || userinfo.sub === '') {
      throw new ValidationError('The userinfo response has no subject (sub)', { code: 'subject_missing' });
    }
    if (userinfo.sub !== result.subject) {
      throw new ValidationError('The userinfo response is about another subject than the ID token', {
        code: 'userinfo_subject_mismatch',
      });
    }
    result.userinfo = userinfo;
    const reuse = userinfo.reuse_detection;
    if (
      result.reuseDetection === undefined &&
      Array.isArray(reuse) &&
      reuse.every((v) => typeof v === 'string')
    ) {
      result.reuseDetection = [...reuse];
    }
  }
  return result;
}

async function fetchUserinfo(
  metadata: ProviderMetadata,
  accessToken: string,
  http: HttpClient,
  secrets: (string | undefined)[],
): Promise<Record<string, unknown>> {
  if (!metadata.userinfo_endpoint) {
    throw new TransportError('The provider configuration has no userinfo_endpoint', {
      code: 'invalid_response',
    });
  }
  const response = await http.request(metadata.userinfo_endpoint, {
    headers: { accept: 'application/json', authorization: `Bearer ${accessToken}` },
    redirect: 'manual',
  });
  if (response.status !== 200) throw endpointErrorFromResponse('userinfo', response, secrets);
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/jwt') {
    throw new TransportError('The userinfo endpoint answered a signed JWT; only JSON userinfo is supported', {
      code: 'invalid_response',
    });
  }
  return jsonObject(response, 'userinfo');
}

const decoder = new TextDecoder();

/** The body parsed as JSON (UTF-8, a BOM ignored, as `Response.json()` does); throws when it is not JSON. */
function parseJson(response: BufferedResponse): unknown {
  return JSON.parse(decoder.decode(response.body ?? new Uint8Array()));
}

/** The JSON object body of a 200 answer; a `TransportError` when it is not one. */
function jsonObject(response: BufferedResponse, source: 'token' | 'userinfo'): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseJson(response);
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TransportError(`The ${source} endpoint did not answer with a JSON object`, {
      code: 'invalid_response',
      status: response.status,
    });
  }
  return value as Record<string, unknown>;
}

/** An OAuth error as a token or userinfo endpoint states it, in its body or in a challenge. */
interface StatedError {
  error?: unknown;
  error_description?: unknown;
}

/** The JSON body of an endpoint's error response, when it is an object; never throws. */
function errorBody(response: BufferedResponse): StatedError | undefined {
  try {
    const body: unknown = parseJson(response);
    return typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as StatedError)
      : undefined;
  } catch {
    return undefined;
  }
}

/** `name=token` or `name="quoted string"` (RFC 9110 §11.2) in a `WWW-Authenticate` value. */
function challengeParam(header: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|[\\s,])${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^\\s,"]+))`, 'i').exec(
    header,
  );
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2];
}

/** The `error` and `error_description` parameters of a `WWW-Authenticate` header, if it has them. */
function challengeError(header: string | null): StatedError | undefined {
  if (!header) return undefined;
  const error = challengeParam(header, 'error');
  if (error === undefined) return undefined;
  return { error, error_description: challengeParam(header, 'error_description') };
}

/** {@link endpointError} for a non-200 answer of the token or userinfo endpoint. */
function endpointErrorFromResponse(
  source: 'token' | 'userinfo',
  response: BufferedResponse,
  secrets: (string | undefined)[],
): AffiliationError {
  return endpointError(
    source,
    response.status,
    errorBody(response),
    challengeError(response.headers.get('www-authenticate')),
    secrets,
  );
}

/**
 * One error answer of the token or userinfo endpoint → our error. The one place where token and
 * userinfo endpoint errors are classified.
 *
 * - Token endpoint (RFC 6749 §5.2): the error is in the JSON body, which wins. Its 401 for a
 *   failed `client_secret_basic` carries a `Basic` challenge without an `error` parameter; a
 *   challenge is only read when it has one. A 401 that states no usable error is still the client
 *   authentication failing: `invalid_client`. `invalid_token` is not a token-endpoint error and is
 *   never reported for it.
 * - Userinfo endpoint (RFC 6750 §3): the error is in the `Bearer` challenge, which wins when it has
 *   an `error` parameter; otherwise the JSON body's. A 401 stating no error means the access token
 *   we sent was refused: `invalid_token`.
 * - Anything else is a `TransportError` with the HTTP status.
 */
export function endpointError(
  source: 'token' | 'userinfo',
  status: number,
  body: StatedError | undefined,
  challenge: StatedError | undefined,
  secrets: (string | undefined)[],
): AffiliationError {
  const usable = (stated: StatedError | undefined): stated is StatedError & { error: string } =>
    typeof stated?.error === 'string' &&
    stated.error !== '' &&
    !(source === 'token' && stated.error === 'invalid_token');
  const [first, second] = source === 'token' ? [body, challenge] : [challenge, body];
  const stated = usable(first) ? first : usable(second) ? second : undefined;
  let code = stated?.error;
  if (code === undefined && status === 401) code = source === 'token' ? 'invalid_client' : 'invalid_token';
  if (code === undefined) {
    return new TransportError(`The ${source} endpoint answered HTTP ${status}`, {
      code: 'http_status',
      status,
    });
  }
  const description = stated?.error_description;
  return ProviderError.from({
    error: redact(code, secrets).slice(0, 100),
    description:
      typeof description === 'string' && description !== ''
        ? redact(description, secrets).slice(0, 500)
        : undefined,
    source,
    status,
  });
}
