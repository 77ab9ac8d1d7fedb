/**
 * openid-client's and oauth4webapi's errors → the SDK's, by their stable `code` and their structured
 * `cause` (the claim a check compared, the response body, the parsed `WWW-Authenticate` challenges,
 * the JWS header): never by message text. openid-client wraps what oauth4webapi throws in a
 * `ClientError` with the same `code` and the original error in `cause`; an error the SDK's own
 * `customFetch` threw (a `TransportError`) is wrapped too, and is given back as it was: the HTTP
 * layer owns the time limit (openid-client's is off), so no `OAUTH_TIMEOUT` / `OAUTH_ABORT` comes.
 */
import { AffiliationError, TransportError } from '../core/errors.js';
import { redact } from '../core/redact.js';
import { ProviderError, ValidationError } from './errors.js';

/** What the failed call was doing: which endpoint answered, or which token was checked. */
export type EngineSource = 'token' | 'userinfo' | 'id_token';

export interface MapContext {
  source: EngineSource;
  clientId: string;
  /** Exact values to redact from anything taken from a response (secret, code, verifier, tokens). */
  secrets: readonly (string | undefined)[];
}

type Detail = Record<string, unknown>;

const isObject = (value: unknown): value is Detail =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** An OAuth error as an endpoint states it, in its JSON body or in a challenge's parameters. */
interface StatedError {
  error?: unknown;
  error_description?: unknown;
}

/**
 * One error answer of the token or userinfo endpoint → our error: the SDK's rule for which
 * statement wins.
 *
 * - Token endpoint (RFC 6749 §5.2): the JSON body wins. Its 401 for a failed
 *   `client_secret_basic` carries a `Basic` challenge without an `error` parameter; a challenge is
 *   only read when it has one. A 401 that states no usable error is still the client
 *   authentication failing: `invalid_client`. `invalid_token` is not a token-endpoint error.
 * - Userinfo endpoint (RFC 6750 §3): the `Bearer` challenge wins when it has an `error`; otherwise
 *   the JSON body's. A 401 stating no error means the access token was refused: `invalid_token`.
 * - Anything else is a `TransportError` with the HTTP status.
 */
export function endpointError(
  source: 'token' | 'userinfo',
  status: number,
  body: StatedError | undefined,
  challenge: StatedError | undefined,
  secrets: readonly (string | undefined)[],
): AffiliationError {
  const usable = (stated: StatedError | undefined): stated is StatedError & { error: string } =>
    nonEmpty(stated?.error) && !(source === 'token' && stated.error === 'invalid_token');
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
    description: nonEmpty(description) ? redact(description, secrets).slice(0, 500) : undefined,
    source,
    status,
  });
}

/** The first challenge (oauth4webapi parses them: `{ scheme, parameters }`) that states an `error`. */
function challengeError(challenges: unknown): StatedError | undefined {
  if (!Array.isArray(challenges)) return undefined;
  for (const challenge of challenges) {
    const parameters = (challenge as { parameters?: Detail } | null)?.parameters;
    if (isObject(parameters) && nonEmpty(parameters.error)) {
      return { error: parameters.error, error_description: parameters.error_description };
    }
  }
  return undefined;
}

/** The JSON object body of a response oauth4webapi hands over unread, or `undefined`. */
async function bodyOf(response: unknown): Promise<StatedError | undefined> {
  if (!(response instanceof Response) || response.bodyUsed) return undefined;
  try {
    const value: unknown = JSON.parse(await response.text());
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The JWS header of a token for a message: algorithm and key id, shortened, never the token. */
function describeHeader(header: unknown): string {
  const h = isObject(header) ? header : {};
  const alg = typeof h.alg === 'string' ? JSON.stringify(h.alg.slice(0, 32)) : 'none';
  const kid =
    h.kid === undefined ? 'none' : typeof h.kid === 'string' ? JSON.stringify(h.kid.slice(0, 64)) : 'invalid';
  return `alg ${alg}, kid ${kid}`;
}

/**
 * A claim check of oauth4webapi that names no claim (a missing or mistyped claim: `cause` holds the
 * claims) → the code of the claim that is wrong, checked in the order OpenID Connect Core lists them.
 */
function claimProblem(claims: Detail): ValidationError {
  const number = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  if (!number(claims.exp))
    return new ValidationError('The ID token has no valid expiry (exp)', { code: 'token_expired' });
  if (!number(claims.iat))
    return new ValidationError('The ID token has no valid issue time (iat)', { code: 'iat_invalid' });
  if (typeof claims.iss !== 'string')
    return new ValidationError('The ID token has no issuer (iss)', { code: 'issuer_mismatch' });
  if (claims.nbf !== undefined && !number(claims.nbf)) {
    return new ValidationError('The ID token nbf is not a number', { code: 'iat_invalid' });
  }
  if (typeof claims.aud !== 'string' && !Array.isArray(claims.aud)) {
    return new ValidationError('The ID token has no valid audience (aud)', { code: 'audience_mismatch' });
  }
  if (!nonEmpty(claims.sub))
    return new ValidationError('The ID token has no subject (sub)', { code: 'subject_missing' });
  if (typeof claims.nonce !== 'string') {
    return new ValidationError('The ID token nonce does not match the one sent', { code: 'nonce_mismatch' });
  }
  if (claims.auth_time !== undefined && !(number(claims.auth_time) && (claims.auth_time as number) >= 0)) {
    return new ValidationError('The ID token auth_time is not a number', { code: 'iat_invalid' });
  }
  return new ValidationError('The ID token is malformed', { code: 'signature_invalid' });
}

/** A claim oauth4webapi compared with what it expected (`cause.claim`) → its code. */
function comparisonProblem(detail: Detail, clientId: string): ValidationError {
  const claims = isObject(detail.claims) ? detail.claims : {};
  switch (detail.claim) {
    case 'iss':
      return new ValidationError(
        `The ID token issuer ${typeof claims.iss === 'string' ? JSON.stringify(claims.iss.slice(0, 200)) : '(missing)'} is not "${String(detail.expected)}"`,
        { code: 'issuer_mismatch' },
      );
    case 'aud':
      // The same claim fails two rules: not our client_id at all, or several audiences without azp.
      if (Array.isArray(claims.aud) && claims.aud.includes(clientId)) {
        return new ValidationError('The ID token has several audiences but no authorized party (azp)', {
          code: 'azp_mismatch',
        });
      }
      return new ValidationError('The ID token audience does not contain this client_id', {
        code: 'audience_mismatch',
      });
    case 'azp':
      return new ValidationError('The ID token authorized party (azp) is not this client_id', {
        code: 'azp_mismatch',
      });
    case 'nonce':
      return new ValidationError('The ID token nonce does not match the one sent', {
        code: 'nonce_mismatch',
      });
    default:
      return new ValidationError('The ID token has an unexpected claim value', { code: 'signature_invalid' });
  }
}

/** A token response that is not usable (`cause.body`): missing ID token, or not an OAuth token response. */
function tokenResponseProblem(body: Detail): AffiliationError {
  if (nonEmpty(body.access_token) && typeof body.token_type === 'string' && !nonEmpty(body.id_token)) {
    return new ValidationError('The token response carries no ID token', { code: 'missing_parameters' });
  }
  return new TransportError(
    'The token endpoint answered with an unusable token response (access_token, token_type)',
    {
      code: 'invalid_response',
      status: 200,
    },
  );
}

/** The ID token checks of openid-client (`OAUTH_*` codes) → `ValidationError`. */
function idTokenError(code: unknown, detail: unknown, ctx: MapContext): AffiliationError {
  const d = isObject(detail) ? detail : undefined;
  switch (code) {
    case 'OAUTH_JWT_CLAIM_COMPARISON_FAILED':
      return comparisonProblem(d ?? {}, ctx.clientId);
    case 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED':
      return d?.claim === 'exp'
        ? new ValidationError('The ID token has expired', { code: 'token_expired' })
        : new ValidationError(`The ID token is not valid yet (${String(d?.claim)})`, { code: 'iat_invalid' });
    case 'OAUTH_KEY_SELECTION_FAILED': {
      const several = Array.isArray(d?.candidates) && d.candidates.length > 1;
      return new ValidationError(
        several
          ? `Several keys of the provider match the ID token and it names none (${describeHeader(d?.header)})`
          : `No key of the provider matches the ID token (${describeHeader(d?.header)})`,
        { code: 'signature_invalid' },
      );
    }
    case 'OAUTH_UNSUPPORTED_OPERATION': {
      if (isObject(d) && isObject(d.body)) {
        // An unsupported token_type (oauth4webapi knows bearer and DPoP).
        return new TransportError('The token response has no token_type "Bearer"', {
          code: 'invalid_response',
          status: 200,
        });
      }
      if (typeof detail === 'string') {
        return new ValidationError('Encrypted ID tokens are not supported', { code: 'unsupported_alg' });
      }
      if (isObject(d) && isObject(d.header)) {
        return new ValidationError('The ID token uses critical header extensions (crit)', {
          code: 'unsupported_alg',
        });
      }
      if (isObject(d) && 'alg' in d) {
        return new ValidationError(
          `The ID token is signed with ${describeHeader(d)}, which is not accepted`,
          { code: 'unsupported_alg' },
        );
      }
      return new ValidationError('The ID token cannot be verified with the provider key', {
        code: 'signature_invalid',
      });
    }
    case 'OAUTH_INVALID_RESPONSE':
      if (d === undefined) {
        return new ValidationError('The ID token is not a well-formed JWS', { code: 'signature_invalid' });
      }
      if ('body' in d) {
        return isObject(d.body)
          ? tokenResponseProblem(d.body)
          : new TransportError('The token endpoint did not answer with a JSON object', {
              code: 'invalid_response',
              status: 200,
            });
      }
      if ('expected' in d && isObject(d.header)) {
        const expected = Array.isArray(d.expected) ? d.expected.join(', ') : String(d.expected);
        return new ValidationError(
          `The ID token is signed with ${describeHeader(d.header)}, not one the provider advertises (${expected})`,
          { code: 'unsupported_alg' },
        );
      }
      if ('signature' in d)
        return new ValidationError('The ID token signature does not verify', { code: 'signature_invalid' });
      if (isObject(d.claims)) return claimProblem(d.claims);
      return new ValidationError('The ID token is malformed', { code: 'signature_invalid' });
    case 'OAUTH_PARSE_ERROR':
      return new ValidationError('The ID token is not a well-formed JWS', { code: 'signature_invalid' });
    default:
      // Fail closed: whatever else kept the token from being verified.
      return new ValidationError('The ID token could not be verified', { code: 'signature_invalid' });
  }
}

/**
 * An error of an openid-client call → the SDK's error. `source` says which call: the code grant
 * (`token`: the token endpoint, then its ID token), `id_token` (the `id_token` flow's token) or
 * `userinfo`.
 */
export async function fromEngine(error: unknown, ctx: MapContext): Promise<AffiliationError> {
  // Our customFetch's error (a TransportError) as it was, wrapped by openid-client, or by oauth4webapi
  // first (OAUTH_PARSE_ERROR around what the token response's json() threw).
  for (let c = error, depth = 0; depth < 3; c = (c as { cause?: unknown } | null)?.cause, depth++) {
    if (c instanceof AffiliationError) return c;
  }
  const e = error as { code?: unknown; cause?: unknown; status?: unknown; response?: unknown } | null;
  const code = e?.code;
  const source = ctx.source === 'userinfo' ? 'userinfo' : 'token';
  let mapped: AffiliationError;
  switch (code) {
    case 'OAUTH_RESPONSE_BODY_ERROR': // ResponseBodyError: cause is the JSON body stating the error
      mapped = endpointError(source, Number(e?.status), e?.cause as StatedError, undefined, ctx.secrets);
      break;
    case 'OAUTH_WWW_AUTHENTICATE_CHALLENGE': // cause: the parsed challenges; the body is unread
      mapped = endpointError(
        source,
        Number(e?.status),
        await bodyOf(e?.response),
        challengeError(e?.cause),
        ctx.secrets,
      );
      break;
    case 'OAUTH_RESPONSE_IS_NOT_CONFORM': // an unexpected status; cause is the Response
    case 'OAUTH_RESPONSE_IS_NOT_JSON': {
      const status = e?.cause instanceof Response ? e.cause.status : undefined;
      if (status === undefined || status === 200) {
        mapped = new TransportError(`The ${source} endpoint did not answer with a JSON object`, {
          code: 'invalid_response',
          status,
        });
      } else {
        mapped = endpointError(source, status, await bodyOf(e?.cause), undefined, ctx.secrets);
      }
      break;
    }
    case 'OAUTH_MISSING_SERVER_METADATA': // cause: { attribute } of the provider configuration
    case 'OAUTH_INVALID_SERVER_METADATA': {
      const attribute = (e?.cause as { cause?: { attribute?: unknown } } | undefined)?.cause?.attribute;
      mapped = new TransportError(
        `The provider configuration has no usable ${typeof attribute === 'string' ? attribute : 'endpoint'}; the ${source === 'token' ? 'code flow' : source} needs one`,
        { code: 'invalid_response' },
      );
      break;
    }
    default:
      mapped =
        ctx.source === 'userinfo'
          ? userinfoError(code, (e?.cause as { cause?: unknown } | undefined)?.cause)
          : idTokenError(code, (e?.cause as { cause?: unknown } | undefined)?.cause, ctx);
  }
  return withCause(mapped, error);
}

/** The userinfo response's own checks (`sub` present and equal to the ID token's). */
function userinfoError(code: unknown, detail: unknown): AffiliationError {
  const d = isObject(detail) ? detail : undefined;
  if (code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED' && d?.attribute === 'sub') {
    return new ValidationError('The userinfo response is about another subject than the ID token', {
      code: 'userinfo_subject_mismatch',
    });
  }
  if (code === 'OAUTH_INVALID_RESPONSE' && isObject(d?.body) && !nonEmpty(d.body.sub)) {
    return new ValidationError('The userinfo response has no subject (sub)', { code: 'subject_missing' });
  }
  return new TransportError('The userinfo endpoint did not answer with a JSON object', {
    code: 'invalid_response',
  });
}

/**
 * `cause`: which lower-library error this was, by name and code only. The original is not kept: its
 * `cause` holds the ID token's claims (the subject, `reuse_detection`), the token response (the
 * access token) or the token itself, which a logged error would print.
 */
function withCause(mapped: AffiliationError, error: unknown): AffiliationError {
  if (mapped.cause !== undefined) return mapped;
  const e = error as { name?: unknown; code?: unknown } | null;
  const cause = {
    name: typeof e?.name === 'string' ? e.name : 'Error',
    code: typeof e?.code === 'string' ? e.code : undefined,
  };
  Object.defineProperty(mapped, 'cause', { value: cause, configurable: true, writable: true });
  return mapped;
}
