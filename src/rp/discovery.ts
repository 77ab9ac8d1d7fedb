/**
 * The SDK's rules for the provider configuration (openid-client's `discovery()` fetches it, see
 * `engine.ts`): the members the SDK needs, checked member by member; the service's trailing-slash
 * ambiguity (spec 2.4 lists the issuer as `{base_url}` and as `{base_url}/`) tolerated exactly once;
 * `http:` refused except on loopback hosts; `none` and HMAC never used for ID tokens.
 */
import { OptionsError } from '../core/errors.js';
import { JWS_ALGS } from '../core/jws.js';
import { isLoopbackHost } from '../core/url-policy.js';

/** The fields of the provider configuration the SDK uses; other members are kept as they are. */
export interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint?: string | undefined;
  userinfo_endpoint?: string | undefined;
  jwks_uri: string;
  /** As advertised, `none` included if the provider lists it. */
  id_token_signing_alg_values_supported: string[];
  response_types_supported?: string[] | undefined;
  code_challenge_methods_supported?: string[] | undefined;
  token_endpoint_auth_methods_supported?: string[] | undefined;
  authorization_response_iss_parameter_supported?: boolean | undefined;
  [key: string]: unknown;
}

/**
 * Everything wrong with a discovery document that the SDK can tell before using it, as `member: what
 * is wrong`: a missing or mistyped member the SDK uses (other members are kept as they are), an
 * endpoint that is not `https:` (or loopback `http:`), no usable ID token algorithm. `undefined` when
 * the document is usable. Hand-written rather than a schema library, so importing the core stays
 * cheap (a serverless cold start pays for every import).
 */
export function documentProblem(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'document: not a JSON object';
  const doc = body as Record<string, unknown>;
  const isString = (v: unknown) => typeof v === 'string' && v.length > 0;
  const isStrings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
  for (const key of ['issuer', 'authorization_endpoint', 'jwks_uri']) {
    if (!isString(doc[key]))
      return `${key}: ${doc[key] === undefined ? 'missing' : 'not a non-empty string'}`;
  }
  for (const key of ['token_endpoint', 'userinfo_endpoint']) {
    if (doc[key] !== undefined && !isString(doc[key])) return `${key}: not a non-empty string`;
  }
  const algs = doc.id_token_signing_alg_values_supported;
  if (!isStrings(algs) || (algs as string[]).length === 0) {
    return `id_token_signing_alg_values_supported: ${algs === undefined ? 'missing' : 'not a non-empty list of strings'}`;
  }
  for (const key of [
    'response_types_supported',
    'code_challenge_methods_supported',
    'token_endpoint_auth_methods_supported',
  ]) {
    if (doc[key] !== undefined && !isStrings(doc[key])) return `${key}: not a list of strings`;
  }
  const iss = doc.authorization_response_iss_parameter_supported;
  if (iss !== undefined && typeof iss !== 'boolean') {
    return 'authorization_response_iss_parameter_supported: not a boolean';
  }
  for (const key of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri']) {
    const value = doc[key];
    if (value === undefined) continue;
    try {
      checkSecureUrl(value as string, key, (m) => new Error(m));
    } catch (error) {
      return (error as Error).message;
    }
  }
  if (usableAlgorithms(body as ProviderMetadata).length === 0) {
    return 'id_token_signing_alg_values_supported lists no usable signing algorithm';
  }
  return undefined;
}

/**
 * Parse and check a URL that the SDK will talk to or send the browser to: `https:`, or `http:`
 * on a loopback host. `what` names it in the error.
 */
export function checkSecureUrl(value: string, what: string, onError: (message: string) => Error): URL {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw onError(`${what} is not a valid absolute URL`);
  }
  if (parsed.protocol === 'https:') return parsed;
  if (parsed.protocol === 'http:') {
    if (isLoopbackHost(parsed.hostname)) return parsed;
    throw onError(`${what} uses http: on a non-loopback host (${parsed.hostname}); use https:`);
  }
  throw onError(`${what} must use https: (http: only on loopback hosts)`);
}

/** Check the configured issuer up front (OptionsError naming `issuer`). */
export function checkIssuerOption(issuer: unknown): URL {
  if (typeof issuer !== 'string' || issuer.length === 0) {
    throw new OptionsError('issuer must be a non-empty URL string');
  }
  const parsed = checkSecureUrl(issuer, 'issuer', (m) => new OptionsError(m));
  if (parsed.search || parsed.hash || issuer.includes('?') || issuer.includes('#')) {
    throw new OptionsError('issuer must not contain a query or a fragment');
  }
  if (parsed.username || parsed.password) throw new OptionsError('issuer must not contain credentials');
  // A common first mistake: the discovery URL itself. Refused rather than stripped: the issuer is
  // also the exact `iss` every ID token must carry, so the configuration should say it as it is.
  if (/\/\.well-known\/openid-configuration\/?$/.test(parsed.pathname)) {
    const base = `${parsed.origin}${parsed.pathname.replace(/\/\.well-known\/openid-configuration\/?$/, '')}`;
    throw new OptionsError(
      `issuer is the service's base URL, not its discovery document: use ${JSON.stringify(base)} (the SDK adds /.well-known/openid-configuration itself)`,
    );
  }
  return parsed;
}

/** Whether two issuer strings differ at most by one trailing slash. */
export function issuersMatch(configured: string, discovered: string): boolean {
  return configured === discovered || `${configured}/` === discovered || configured === `${discovered}/`;
}

/** Where the discovery document of an issuer lives (OpenID Connect Discovery 1.0 §4). */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
}

/**
 * Asymmetric JWS algorithms the SDK verifies: those the test provider signs with, and the Edwards
 * curve ones. `none` and HMAC (no shared key) are never used.
 */
const SUPPORTED_ALGS = new Set<string>([...JWS_ALGS, 'EdDSA', 'Ed25519']);

/** The provider's advertised ID token algorithms that the SDK will accept: never `none`. */
export function usableAlgorithms(metadata: Pick<ProviderMetadata, 'id_token_signing_alg_values_supported'>) {
  return metadata.id_token_signing_alg_values_supported.filter((alg) => SUPPORTED_ALGS.has(alg));
}
