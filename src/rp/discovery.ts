/**
 * Provider discovery: `{issuer}/.well-known/openid-configuration`, checked with zod, with the
 * service's trailing-slash ambiguity (spec 2.4 lists the issuer as `{base_url}` and as
 * `{base_url}/`) tolerated exactly once, and `http:` refused except on loopback hosts.
 */
import { z } from 'zod';
import { OptionsError, TransportError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { isLoopbackHost } from '../core/url-policy.js';
import type { HttpClient } from '../http/client.js';
import { ValidationError } from './errors.js';

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

const url = z.string().min(1);
const strings = z.array(z.string());

const metadataSchema = z.looseObject({
  issuer: url,
  authorization_endpoint: url,
  token_endpoint: url.optional(),
  userinfo_endpoint: url.optional(),
  jwks_uri: url,
  id_token_signing_alg_values_supported: strings.min(1),
  response_types_supported: strings.optional(),
  code_challenge_methods_supported: strings.optional(),
  token_endpoint_auth_methods_supported: strings.optional(),
  authorization_response_iss_parameter_supported: z.boolean().optional(),
});

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
 * Fetch and check the provider configuration. The returned document's `issuer` is the exact
 * value ID tokens must carry in `iss`.
 */
export async function discoverProvider(
  issuer: string,
  http: HttpClient,
  logger: Logger,
): Promise<ProviderMetadata> {
  const location = discoveryUrl(issuer);
  const response = await http.fetch(location, { headers: { accept: 'application/json' } });
  if (response.status !== 200) {
    throw new TransportError(`Discovery at ${location} answered HTTP ${response.status}`, {
      code: 'http_status',
      status: response.status,
      method: 'GET',
      url: location,
    });
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new TransportError(`Discovery at ${location} did not answer with JSON`, {
      code: 'invalid_response',
      status: response.status,
      method: 'GET',
      url: location,
    });
  }
  const parsed = metadataSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'document';
    throw new TransportError(
      `Discovery at ${location} returned an invalid provider configuration: ${field}: ${issue?.message ?? 'invalid'}`,
      { code: 'invalid_response', status: response.status, method: 'GET', url: location },
    );
  }
  const metadata = parsed.data as ProviderMetadata;
  if (!issuersMatch(issuer, metadata.issuer)) {
    throw new ValidationError(
      'issuer_mismatch',
      `Discovery document issuer "${metadata.issuer}" does not match the configured issuer "${issuer}"`,
    );
  }
  const invalid = (m: string) =>
    new TransportError(`Discovery at ${location}: ${m}`, {
      code: 'invalid_response',
      method: 'GET',
      url: location,
    });
  for (const key of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri'] as const) {
    const value = metadata[key];
    if (value !== undefined) checkSecureUrl(value, key, invalid);
  }
  if (usableAlgorithms(metadata).length === 0) {
    throw invalid('id_token_signing_alg_values_supported lists no usable signing algorithm');
  }
  if (
    metadata.code_challenge_methods_supported &&
    !metadata.code_challenge_methods_supported.includes('S256')
  ) {
    logger.warn?.('the provider does not advertise PKCE S256; sending it anyway', {
      issuer: metadata.issuer,
    });
  }
  logger.debug?.('provider discovered', { issuer: metadata.issuer });
  return metadata;
}

/** Asymmetric JWS algorithms the SDK verifies. `none` and HMAC (no shared key) are never used. */
const SUPPORTED_ALGS = new Set([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
]);

/** The provider's advertised ID token algorithms that the SDK will accept: never `none`. */
export function usableAlgorithms(metadata: Pick<ProviderMetadata, 'id_token_signing_alg_values_supported'>) {
  return metadata.id_token_signing_alg_values_supported.filter((alg) => SUPPORTED_ALGS.has(alg));
}
