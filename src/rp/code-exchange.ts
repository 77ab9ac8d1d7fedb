/**
 * The code flow's back channel through openid-client: the token request (client_secret_basic or
 * client_secret_post, PKCE verifier) and the userinfo request, with every openid-client /
 * oauth4webapi error mapped to one of ours and redacted.
 *
 * Three pitfalls of openid-client 6 are handled here:
 * - it derives the token request's `redirect_uri` from the URL it is handed, which behind a
 *   TLS-terminating proxy is `http://…`: we hand it the configured redirect URI plus the
 *   callback's parameters instead of the incoming URL;
 * - it does not verify the signature of a token-endpoint ID token unless non-repudiation checks
 *   are on, and it would accept any advertised `alg`: we enable them and give it the advertised
 *   algorithms minus `none`;
 * - its key cache refetches on an unknown `kid` only when 60 s old: we verify the ID token first,
 *   with our own key store (which refetches once), as the token response arrives, and then seed
 *   openid-client's cache with the keys that just verified it. A fresh `Configuration` per
 *   exchange keeps that seed (and the checks, which need the transaction) to this one exchange.
 */
import {
  allowInsecureRequests,
  authorizationCodeGrant,
  ClientSecretBasic,
  ClientSecretPost,
  Configuration,
  clockTolerance,
  customFetch,
  enableNonRepudiationChecks,
  fetchUserInfo,
  ResponseBodyError,
  setJwksCache,
  skipSubjectCheck,
  WWWAuthenticateChallengeError,
} from 'openid-client';
import { AffiliationError, TransportError } from '../core/errors.js';
import { redact } from '../core/redact.js';
import type { HttpClient } from '../http/client.js';
import { sanitizeCause } from '../http/client.js';
import type { ProviderMetadata } from './discovery.js';
import { ProviderError, ValidationError, type ValidationErrorCode } from './errors.js';
import type { IdTokenCheckOptions } from './id-token.js';
import { verifyIdToken } from './id-token.js';
import type { AffiliationResult, Transaction } from './types.js';

export interface ExchangeContext {
  metadata: ProviderMetadata;
  /** The advertised algorithms minus `none`. */
  algorithms: string[];
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post';
  http: HttpClient;
  checks: Omit<IdTokenCheckOptions, 'accessToken' | 'now'>;
  now: () => number;
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
  const server = { ...metadata, id_token_signing_alg_values_supported: ctx.algorithms };
  const auth =
    ctx.tokenEndpointAuthMethod === 'client_secret_post'
      ? ClientSecretPost(ctx.clientSecret)
      : ClientSecretBasic(ctx.clientSecret);
  const config = new Configuration(
    server,
    ctx.clientId,
    { client_secret: ctx.clientSecret, [clockTolerance]: ctx.checks.clockToleranceSeconds },
    auth,
  );
  // Our HttpClient owns time limits and retries.
  config.timeout = 0;
  if (Object.values(metadata).some((v) => typeof v === 'string' && v.startsWith('http:'))) {
    allowInsecureRequests(config);
  }
  enableNonRepudiationChecks(config);

  let verified: AffiliationResult | undefined;
  const tokenEndpoint = metadata.token_endpoint;
  config[customFetch] = async (url, init) => {
    const response = await ctx.http.fetch(url, init as RequestInit);
    if (url !== tokenEndpoint || response.status !== 200) return response;
    let body: { id_token?: unknown; access_token?: unknown } | undefined;
    try {
      body = (await response.clone().json()) as typeof body;
    } catch {
      return response; // openid-client reports the malformed body
    }
    if (typeof body?.id_token !== 'string') {
      throw new ValidationError('missing_parameters', 'The token response carries no ID token');
    }
    if (typeof body.access_token === 'string') secrets.push(body.access_token);
    secrets.push(body.id_token);
    verified = await verifyIdToken(body.id_token, tx, {
      ...ctx.checks,
      now: ctx.now(),
      accessToken: typeof body.access_token === 'string' ? body.access_token : undefined,
    });
    const keys = ctx.checks.keys.snapshot();
    if (keys) setJwksCache(config, { jwks: keys.jwks as never, uat: Math.floor(ctx.now() / 1000) });
    return response;
  };

  // The redirect_uri openid-client sends is this URL without its query: the configured one.
  const currentUrl = new URL(ctx.redirectUri);
  for (const [key, value] of params) currentUrl.searchParams.append(key, value);

  let accessToken: string;
  try {
    const tokens = await authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: tx.codeVerifier,
      expectedNonce: tx.nonce,
      expectedState: tx.state,
      idTokenExpected: true,
    });
    accessToken = tokens.access_token;
  } catch (error) {
    throw await mapOpenIdClientError(error, 'token', secrets);
  }
  if (!verified) {
    throw new ValidationError('missing_parameters', 'The token response carries no ID token');
  }
  const result = verified;

  if (tx.claims?.userinfo !== undefined) {
    if (!metadata.userinfo_endpoint) {
      throw new TransportError('The provider configuration has no userinfo_endpoint', {
        code: 'invalid_response',
      });
    }
    let userinfo: Record<string, unknown>;
    try {
      userinfo = (await fetchUserInfo(config, accessToken, skipSubjectCheck)) as Record<string, unknown>;
    } catch (error) {
      throw await mapOpenIdClientError(error, 'userinfo', secrets);
    }
    if (userinfo.sub !== result.subject) {
      throw new ValidationError(
        'userinfo_subject_mismatch',
        'The userinfo response is about another subject than the ID token',
      );
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

const CLAIM_CODES: Record<string, ValidationErrorCode> = {
  iss: 'issuer_mismatch',
  aud: 'audience_mismatch',
  azp: 'azp_mismatch',
  nonce: 'nonce_mismatch',
  exp: 'token_expired',
  iat: 'iat_invalid',
  nbf: 'iat_invalid',
  auth_time: 'iat_invalid',
};

function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  let current = error;
  for (let i = 0; i < 4 && current !== undefined && current !== null; i++) {
    out.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return out;
}

/** An OAuth error as a token or userinfo endpoint states it, in its body or in a challenge. */
interface StatedError {
  error?: unknown;
  error_description?: unknown;
}

/** The JSON body of an endpoint's error response, when it is an object; never throws. */
async function errorBody(response: Response): Promise<StatedError | undefined> {
  try {
    const body: unknown = await response.clone().json();
    return typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as StatedError)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The first challenge of a `WWW-Authenticate` header that carries an `error` parameter. */
function challengeError(error: WWWAuthenticateChallengeError): StatedError | undefined {
  const challenge = error.cause.find((c) => typeof c.parameters.error === 'string');
  return challenge?.parameters;
}

/**
 * One error answer of the token or userinfo endpoint → our error.
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
function endpointError(
  source: 'token' | 'userinfo',
  status: number,
  body: StatedError | undefined,
  challenge: StatedError | undefined,
  secrets: (string | undefined)[],
  cause: () => Error | undefined,
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
      cause: cause(),
    });
  }
  const description = stated?.error_description;
  return new ProviderError({
    error: redact(code, secrets).slice(0, 100),
    description:
      typeof description === 'string' && description !== ''
        ? redact(description, secrets).slice(0, 500)
        : undefined,
    source,
    status,
    cause: cause(),
  });
}

/**
 * Turn anything openid-client throws into one of our errors. Never pass its error (or a message
 * that may hold a code or token) through: the cause is rebuilt with redaction.
 */
export async function mapOpenIdClientError(
  error: unknown,
  source: 'token' | 'userinfo',
  secrets: (string | undefined)[],
): Promise<AffiliationError> {
  const links = chain(error);
  const ours = links.find((e) => e instanceof AffiliationError);
  if (ours) return ours as AffiliationError;
  const clean = () =>
    sanitizeCause(
      error,
      secrets.filter((s): s is string => typeof s === 'string'),
    );
  for (const link of links) {
    if (link instanceof ResponseBodyError) {
      // oauth4webapi only reads the body when the response carried no challenge.
      return endpointError(source, link.status, link.cause as StatedError, undefined, secrets, clean);
    }
    if (link instanceof WWWAuthenticateChallengeError) {
      return endpointError(
        source,
        link.status,
        await errorBody(link.response),
        challengeError(link),
        secrets,
        clean,
      );
    }
  }
  const top = error as { code?: unknown; message?: unknown; cause?: unknown };
  const inner = links[1] as { cause?: unknown; message?: unknown } | undefined;
  const detail = (inner?.cause ?? {}) as { claim?: unknown; attribute?: unknown };
  const message = [top?.message, inner?.message].filter((m) => typeof m === 'string').join(' ');
  switch (top?.code) {
    case 'OAUTH_JWT_CLAIM_COMPARISON_FAILED':
    case 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED': {
      const code = typeof detail.claim === 'string' ? CLAIM_CODES[detail.claim] : undefined;
      if (code)
        return new ValidationError(code, `The ID token ${detail.claim} claim failed validation`, {
          cause: clean(),
        });
      break;
    }
    case 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED':
      if (detail.attribute === 'sub') {
        return new ValidationError(
          'userinfo_subject_mismatch',
          'The userinfo subject differs from the ID token',
          {
            cause: clean(),
          },
        );
      }
      break;
    case 'OAUTH_KEY_SELECTION_FAILED':
      return new ValidationError('signature_invalid', 'No provider key matches the ID token', {
        cause: clean(),
      });
    case 'OAUTH_RESPONSE_IS_NOT_CONFORM':
      if (top.cause instanceof Response) {
        return endpointError(source, top.cause.status, await errorBody(top.cause), undefined, secrets, clean);
      }
      break;
    case 'OAUTH_INVALID_RESPONSE':
      if (/"alg"/.test(message)) {
        return new ValidationError('unsupported_alg', 'The ID token algorithm is not allowed', {
          cause: clean(),
        });
      }
      if (/signature/i.test(message)) {
        return new ValidationError('signature_invalid', 'The ID token signature does not verify', {
          cause: clean(),
        });
      }
      if (/"sub"/.test(message)) {
        return new ValidationError('subject_missing', `The ${source} response has no subject`, {
          cause: clean(),
        });
      }
      break;
  }
  if (/signature/i.test(message)) {
    return new ValidationError('signature_invalid', 'The ID token signature does not verify', {
      cause: clean(),
    });
  }
  return new TransportError(`The ${source} endpoint answered unexpectedly`, {
    code: 'invalid_response',
    cause: clean(),
  });
}
