/**
 * What the SDK checks in an ID token on top of openid-client (which verifies the signature once, with
 * the algorithm pinned, and `iss`, `aud`, `exp`, `nbf`, `nonce`, `azp` with several audiences and the
 * presence of `iat` and `sub`): OpenID Connect Core's rules it leaves to the relying party (`azp`
 * whenever present, `at_hash` in the code flow, the `iat` window) and the service's own claims
 * (spec 2.4). One function for both flows, so every defect has the same `ValidationError` code
 * whichever way the token arrived.
 */
import { decodeProtectedHeader } from 'jose/decode/protected_header';
import { base64url, digest } from '../core/crypto.js';
import { ValidationError } from './errors.js';
import { AFFILIATION_SET, IDENTIFIER_SET } from './scope.js';
import type { Affiliation, AffiliationResult, Identifier, Transaction } from './types.js';

/** The longest an ID token may have existed (spec 2.4/8: about 60 minutes), in seconds. */
export const MAX_ID_TOKEN_AGE_SECONDS = 60 * 60;

export interface ServiceClaimsOptions extends ClaimExpectations {
  /** The code flow's token response: the access token and the ID token (for `at_hash`). */
  tokens?: { accessToken: string; idToken: string } | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The `alg` of a JWS whose signature openid-client has verified. */
function algOf(idToken: string): string {
  try {
    return String(decodeProtectedHeader(idToken).alg);
  } catch {
    return '';
  }
}

/** The `values` list of a `{ values: string[] }` claim, or `undefined` when malformed. */
function valuesOf(claim: unknown): string[] | undefined {
  if (typeof claim !== 'object' || claim === null) return undefined;
  const list = (claim as { values?: unknown }).values;
  if (!Array.isArray(list)) return undefined;
  for (const v of list) if (typeof v !== 'string') return undefined;
  return list as string[];
}

/** Deep equality of JSON values, key order ignored. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

function isEmptyClaims(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0)
  );
}

/** `at_hash` (OIDC Core §3.1.3.8): left half of the hash of the access token, base64url. */
export async function accessTokenHash(accessToken: string, alg: string): Promise<string | undefined> {
  let hash: 'SHA-256' | 'SHA-384' | 'SHA-512';
  if (alg.endsWith('256')) hash = 'SHA-256';
  else if (alg.endsWith('384')) hash = 'SHA-384';
  else if (alg.endsWith('512') || alg === 'EdDSA' || alg === 'Ed25519') hash = 'SHA-512';
  else return undefined;
  const bytes = await digest(accessToken, hash);
  return base64url(bytes.subarray(0, bytes.length / 2));
}

/** What the standard claims of an ID token are checked against. */
export interface ClaimExpectations {
  clientId: string;
  clockToleranceSeconds: number;
  /** Current time in ms since epoch. */
  now: number;
  /** The provider's issuer and the nonce sent: checked when given (openid-client checks them first). */
  issuer?: string | undefined;
  nonce?: string | undefined;
}

/**
 * The first standard claim of an ID token that is missing, mistyped or not what was expected, in the
 * order of OpenID Connect Core §3.1.3.7, or `undefined`. openid-client checks most of them; the SDK
 * adds `azp` whenever present and the `iat` window (issued after the validation started, at most
 * {@link MAX_ID_TOKEN_AGE_SECONDS} ago), and names the claim when openid-client refused a token
 * without naming it (`engine-errors.ts`).
 */
export function claimProblem(
  claims: Record<string, unknown>,
  expected: ClaimExpectations,
  startedAt?: number,
): ValidationError | undefined {
  const invalid = (message: string, code: ValidationError['code']) => new ValidationError(message, { code });
  const number = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  const now = expected.now / 1000;
  const tolerance = expected.clockToleranceSeconds;
  const { iss, aud, azp, exp, iat, nbf, sub } = claims;
  if (typeof iss !== 'string') return invalid('The ID token has no issuer (iss)', 'issuer_mismatch');
  if (expected.issuer !== undefined && iss !== expected.issuer) {
    return invalid(
      `The ID token issuer ${JSON.stringify(iss.slice(0, 200))} is not "${expected.issuer}"`,
      'issuer_mismatch',
    );
  }
  const audiences = typeof aud === 'string' ? [aud] : aud;
  if (!Array.isArray(audiences) || !audiences.includes(expected.clientId)) {
    return invalid('The ID token audience does not contain this client_id', 'audience_mismatch');
  }
  // OIDC Core §3.1.3.7 items 4 and 5: azp with several audiences, and azp whenever present.
  if (azp !== undefined ? azp !== expected.clientId : audiences.length > 1) {
    return invalid(
      azp === undefined
        ? 'The ID token has several audiences but no authorized party (azp)'
        : 'The ID token authorized party (azp) is not this client_id',
      'azp_mismatch',
    );
  }
  if (!number(exp)) return invalid('The ID token has no valid expiry (exp)', 'token_expired');
  if (exp <= now - tolerance) return invalid('The ID token has expired', 'token_expired');
  if (!number(iat)) return invalid('The ID token has no valid issue time (iat)', 'iat_invalid');
  if (iat > now + tolerance) return invalid('The ID token was issued in the future (iat)', 'iat_invalid');
  if (
    iat < now - tolerance - MAX_ID_TOKEN_AGE_SECONDS ||
    (startedAt !== undefined && iat < startedAt / 1000 - tolerance)
  ) {
    return invalid(
      'The ID token was issued before this validation started or longer ago than its lifetime (iat)',
      'iat_invalid',
    );
  }
  for (const name of ['nbf', 'auth_time'] as const) {
    if (claims[name] !== undefined && !(number(claims[name]) && (claims[name] as number) >= 0)) {
      return invalid(`The ID token ${name} is not a number`, 'iat_invalid');
    }
  }
  if (number(nbf) && nbf > now + tolerance)
    return invalid('The ID token is not valid yet (nbf)', 'iat_invalid');
  if (typeof sub !== 'string' || sub === '')
    return invalid('The ID token has no subject (sub)', 'subject_missing');
  if (expected.nonce !== undefined && claims.nonce !== expected.nonce) {
    return invalid('The ID token nonce does not match the one sent', 'nonce_mismatch');
  }
  return undefined;
}

/**
 * Check a verified ID token's claims against the transaction and give the result for the shopper.
 *
 * @throws {ValidationError} with the code of the first failed check.
 */
export async function checkServiceClaims(
  claims: Record<string, unknown>,
  tx: Transaction,
  options: ServiceClaimsOptions,
): Promise<AffiliationResult> {
  const problem = claimProblem(claims, options, tx.createdAt);
  if (problem !== undefined) throw problem;
  const exp = claims.exp as number;
  const iat = claims.iat as number;
  const sub = claims.sub as string;
  if (claims.at_hash !== undefined && options.tokens !== undefined) {
    const expected = await accessTokenHash(options.tokens.accessToken, algOf(options.tokens.idToken));
    if (typeof claims.at_hash !== 'string' || expected === undefined || claims.at_hash !== expected) {
      throw new ValidationError('The ID token at_hash does not match the access token', {
        code: 'at_hash_mismatch',
      });
    }
  }

  const requested = valuesOf(claims.requested_scopes);
  // The same set (duplicates do not count twice).
  if (!requested?.every((v) => tx.scopes.includes(v)) || !tx.scopes.every((v) => requested.includes(v))) {
    throw new ValidationError('The ID token requested_scopes is not exactly the set of scopes sent', {
      code: 'requested_scopes_mismatch',
    });
  }

  const returned = valuesOf(claims.returned_scopes);
  const { affiliation, identifier } = confirmedScopes(returned, tx);

  if (tx.claims !== undefined && !isEmptyClaims(tx.claims)) {
    if (!jsonEqual(claims.requested_claims, tx.claims)) {
      throw new ValidationError('The ID token requested_claims does not equal the claims request sent', {
        code: 'requested_claims_mismatch',
      });
    }
  } else if (!isEmptyClaims(claims.requested_claims)) {
    throw new ValidationError('The ID token reports requested_claims although none were sent', {
      code: 'requested_claims_mismatch',
    });
  }

  const transactionId = claims.transaction_id;
  if (typeof transactionId !== 'string' || !UUID.test(transactionId)) {
    throw new ValidationError('The ID token transaction_id is missing or not a UUID', {
      code: 'transaction_id_invalid',
    });
  }

  const reuse = claims.reuse_detection;
  if (reuse !== undefined && (!Array.isArray(reuse) || !reuse.every((v) => typeof v === 'string'))) {
    throw new ValidationError('The ID token reuse_detection is not a list of strings', {
      code: 'requested_claims_mismatch',
    });
  }

  const authTime = claims.auth_time;
  const result: AffiliationResult = {
    affiliation,
    identifier,
    subject: sub,
    transactionId,
    authTime: new Date(((authTime as number | undefined) ?? iat) * 1000),
    expiresAt: new Date(exp * 1000),
    claims,
  };
  if (tx.idpHint !== undefined) result.institution = { entityId: tx.idpHint };
  if (reuse !== undefined) result.reuseDetection = [...(reuse as string[])];
  return result;
}

/** `returned_scopes` must confirm the affiliation and the identifier asked for (implicit transient). */
function confirmedScopes(
  returned: readonly string[] | undefined,
  tx: Transaction,
): { affiliation: Affiliation; identifier: Identifier } {
  if (!returned) {
    throw new ValidationError('The ID token has no returned_scopes list', {
      code: 'returned_scopes_mismatch',
    });
  }
  const expected: Identifier = tx.identifier ?? 'transient';
  const affiliations = returned.filter((value) => AFFILIATION_SET.has(value));
  const identifiers = returned.filter((value) => IDENTIFIER_SET.has(value));
  if (affiliations.length !== 1 || affiliations[0] !== tx.affiliation) {
    throw new ValidationError(
      `The ID token returned_scopes does not confirm exactly the affiliation "${tx.affiliation}"`,
      { code: 'returned_scopes_mismatch' },
    );
  }
  if (identifiers.length !== 1 || identifiers[0] !== expected) {
    throw new ValidationError(`The ID token returned_scopes does not confirm the identifier "${expected}"`, {
      code: 'returned_scopes_mismatch',
    });
  }
  return { affiliation: tx.affiliation, identifier: expected };
}
