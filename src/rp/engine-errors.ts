/**
 * openid-client's errors → the SDK's, by what openid-client and oauth4webapi publish: the classes
 * `ResponseBodyError` and `WWWAuthenticateChallengeError` with their documented members, and
 * `ClientError.code` compared with oauth4webapi's exported code constants. Their `cause` is not
 * public API and is never read. Where a code does not say which claim of the ID token failed, the
 * token itself says it (decoded with jose): the claims the check compared are in the token the
 * engine handed to openid-client. The engine's own `customFetch` errors (the HTTP layer's, and the
 * token and userinfo answers it refuses before openid-client reads them) come back as they were.
 */
import { decodeJwt, decodeProtectedHeader, type ProtectedHeaderParameters } from 'jose';
import {
  JSON_ATTRIBUTE_COMPARISON,
  KEY_SELECTION,
  MISSING_SERVER_METADATA,
  UNSUPPORTED_OPERATION,
} from 'oauth4webapi';
import { ResponseBodyError, WWWAuthenticateChallengeError } from 'openid-client';
import { AffiliationError, TransportError } from '../core/errors.js';
import { redact } from '../core/redact.js';
import { ProviderError, ValidationError } from './errors.js';
import { claimProblem } from './id-token.js';

/** What the failed call was doing: which endpoint answered, or which token was checked. */
export type EngineSource = 'token' | 'userinfo' | 'id_token';

export interface MapContext {
  source: EngineSource;
  clientId: string;
  /** Exact values to redact from anything taken from a response (secret, code, verifier, tokens). */
  secrets: readonly (string | undefined)[];
  /** The ID token openid-client checked, when the engine holds it, and what it was checked against. */
  idToken?: string | undefined;
  issuer: string;
  nonce?: string | undefined;
  algorithms: readonly string[];
  clockToleranceSeconds: number;
  /** How many keys the provider's key set holds (for the message of a failed key selection). */
  keyCount: number;
}

/** An OAuth error as an endpoint states it, in its JSON body or in a challenge's parameters. */
interface StatedError {
  error?: unknown;
  error_description?: unknown;
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value !== '';
const invalid = (message: string, code: ValidationError['code']) => new ValidationError(message, { code });

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

/** The JSON object body of a response openid-client hands over unread, or `undefined`. */
async function bodyOf(response: Response): Promise<StatedError | undefined> {
  if (response.bodyUsed) return undefined;
  try {
    const value: unknown = JSON.parse(await response.text());
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The JWS header for a message: algorithm and key id, shortened, never the token. */
function describeHeader(header: ProtectedHeaderParameters): string {
  const { alg, kid } = header;
  const shown = (v: unknown, max: number) =>
    v === undefined ? 'none' : typeof v === 'string' ? JSON.stringify(v.slice(0, max)) : 'invalid';
  return `alg ${shown(alg, 32)}, kid ${shown(kid, 64)}`;
}

/**
 * An ID token that openid-client refused (its code says which kind of check) → `ValidationError`,
 * the token itself naming what is wrong: its form, its header, then its claims.
 */
function idTokenError(code: unknown, ctx: MapContext): ValidationError {
  let header: ProtectedHeaderParameters;
  let claims: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(ctx.idToken ?? '');
    claims = decodeJwt(ctx.idToken ?? '');
  } catch {
    return ctx.idToken?.split('.').length === 5
      ? invalid('Encrypted ID tokens are not supported', 'unsupported_alg')
      : invalid('The ID token is not a well-formed JWS', 'signature_invalid');
  }
  if (header.crit !== undefined) {
    return invalid('The ID token uses critical header extensions (crit)', 'unsupported_alg');
  }
  if (!ctx.algorithms.includes(String(header.alg))) {
    const advertised = ctx.algorithms.join(', ');
    const message = `The ID token is signed with ${describeHeader(header)}, not one the provider advertises (${advertised})`;
    return invalid(message, 'unsupported_alg');
  }
  if (code === KEY_SELECTION) {
    return invalid(
      header.kid === undefined && ctx.keyCount > 1
        ? `Several keys of the provider match the ID token and it names none (${describeHeader(header)})`
        : `No key of the provider matches the ID token (${describeHeader(header)})`,
      'signature_invalid',
    );
  }
  const problem = claimProblem(claims, { ...ctx, now: Date.now() });
  if (problem !== undefined) return problem;
  return code === UNSUPPORTED_OPERATION
    ? invalid(
        `The ID token is signed with ${describeHeader(header)}, which is not accepted`,
        'unsupported_alg',
      )
    : invalid('The ID token signature does not verify', 'signature_invalid');
}

/**
 * An error of an openid-client call → the SDK's error. `source` says which call: the code grant
 * (`token`: the token endpoint, then its ID token), `id_token` (the `id_token` flow's token) or
 * `userinfo`.
 */
export async function fromEngine(error: unknown, ctx: MapContext): Promise<AffiliationError> {
  // The engine's customFetch threw it, and openid-client wrapped it: given back as it was.
  for (let c = error, depth = 0; depth < 3; c = (c as { cause?: unknown } | null)?.cause, depth++) {
    if (c instanceof AffiliationError) return c;
  }
  const source = ctx.source === 'userinfo' ? 'userinfo' : 'token';
  const code = (error as { code?: unknown } | null)?.code;
  let mapped: AffiliationError;
  if (error instanceof ResponseBodyError) {
    mapped = endpointError(source, error.status, error, undefined, ctx.secrets);
  } else if (error instanceof WWWAuthenticateChallengeError) {
    const stated = error.cause.find((c) => nonEmpty(c.parameters.error))?.parameters;
    mapped = endpointError(source, error.status, await bodyOf(error.response), stated, ctx.secrets);
  } else if (code === MISSING_SERVER_METADATA) {
    const flow = source === 'token' ? 'the code flow' : 'userinfo';
    mapped = new TransportError(`The provider configuration has no ${source}_endpoint; ${flow} needs one`, {
      code: 'invalid_response',
    });
  } else if (ctx.source === 'userinfo') {
    // The engine hands over only JSON objects: what openid-client checks then is the subject.
    mapped =
      code === JSON_ATTRIBUTE_COMPARISON
        ? invalid(
            'The userinfo response is about another subject than the ID token',
            'userinfo_subject_mismatch',
          )
        : invalid('The userinfo response has no subject (sub)', 'subject_missing');
  } else {
    mapped = idTokenError(code, ctx);
  }
  return withCause(mapped, error);
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
