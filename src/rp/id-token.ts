/**
 * ID token validation: OpenID Connect Core §3.1.3.7 (and §3.2.2.11 for `response_type=id_token`)
 * plus the service's own claims (spec 2.4). One function for both flows, so every defect has the
 * same `ValidationError` code whichever way the token arrived. The signature is verified once, by
 * jose, with the algorithm pinned and the client's one key cache; jose's errors are mapped by their
 * stable `code`.
 */
import { createHash } from 'node:crypto';
import type { CompactVerifyResult, CryptoKey } from 'jose';
// jose by subpath: only the modules used load (importing the core entry stays cheap).
import { compactVerify } from 'jose/jws/compact/verify';
import { AffiliationError } from '../core/errors.js';
import { ValidationError } from './errors.js';
import type { KeyResolver } from './jwks.js';
import { AFFILIATIONS, IDENTIFIERS } from './scope.js';
import type { Affiliation, AffiliationResult, Identifier, Transaction } from './types.js';

/** The longest an ID token may have existed (spec 2.4/8: about 60 minutes), in seconds. */
export const MAX_ID_TOKEN_AGE_SECONDS = 60 * 60;

export interface IdTokenCheckOptions {
  /** The discovery document's `issuer`: `iss` must equal it exactly. */
  issuer: string;
  clientId: string;
  /** The advertised algorithms minus `none` and HMAC. */
  algorithms: readonly string[];
  keys: KeyResolver;
  clockToleranceSeconds: number;
  /** Current time in ms since epoch. */
  now: number;
  /** The access token of the same token response (code flow), for `at_hash`. */
  accessToken?: string | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const AFFILIATION_SET: ReadonlySet<string> = new Set(AFFILIATIONS);
const IDENTIFIER_SET: ReadonlySet<string> = new Set(IDENTIFIERS);
const decoder = new TextDecoder();

/** Decode a JWS part without trusting it; `undefined` when it is not a base64url JSON object. */
function decodeJsonPart(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(decoder.decode(Buffer.from(part, 'base64url')));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function describeKid(kid: unknown): string {
  if (kid === undefined) return 'none';
  return typeof kid === 'string' ? JSON.stringify(kid.slice(0, 64)) : 'invalid';
}

/**
 * Verify the signature of an ID token and every claim; return the result for the shopper.
 *
 * @throws {ValidationError} with the code of the first failed check.
 * @throws {TransportError} when the provider's keys cannot be fetched.
 */
export async function verifyIdToken(
  idToken: string,
  transaction: Transaction,
  options: IdTokenCheckOptions,
): Promise<AffiliationResult> {
  if (typeof idToken !== 'string' || idToken.length > 64 * 1024) {
    throw new ValidationError('The ID token is not a compact JWS', { code: 'signature_invalid' });
  }
  const parts = idToken.split('.');
  if (parts.length !== 3) {
    const encrypted = parts.length === 5;
    throw new ValidationError(
      encrypted ? 'Encrypted ID tokens are not supported' : 'The ID token is not a compact JWS',
      { code: encrypted ? 'unsupported_alg' : 'signature_invalid' },
    );
  }
  const algorithms = options.algorithms as string[];
  let verified: CompactVerifyResult;
  try {
    verified = await compactVerify(idToken, options.keys, { algorithms });
  } catch (error) {
    verified = await recover(error, idToken, algorithms, parts[0] as string);
  }
  let claims: unknown;
  try {
    claims = JSON.parse(decoder.decode(verified.payload));
  } catch {
    claims = undefined;
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) {
    throw new ValidationError('The ID token payload is not a JSON object', { code: 'signature_invalid' });
  }
  return checkClaims(
    claims as Record<string, unknown>,
    transaction,
    options,
    verified.protectedHeader.alg as string,
  );
}

/**
 * jose's verification error → ours, by its `code`; several keys matching a token without `kid`
 * are each tried (jose hands them over as an async iterable).
 */
async function recover(
  error: unknown,
  idToken: string,
  algorithms: string[],
  encodedHeader: string,
): Promise<CompactVerifyResult> {
  if (error instanceof AffiliationError) throw error;
  const code = (error as { code?: unknown } | null)?.code;
  const header = decodeJsonPart(encodedHeader);
  switch (code) {
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      for await (const key of error as AsyncIterable<CryptoKey>) {
        try {
          return await compactVerify(idToken, key, { algorithms });
        } catch {
          // try the next key
        }
      }
      throw new ValidationError('The ID token signature does not verify', { code: 'signature_invalid' });
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED': {
      const shown =
        typeof header?.alg === 'string' ? JSON.stringify(header.alg.slice(0, 32)) : 'no algorithm';
      throw new ValidationError(
        header?.crit !== undefined && code === 'ERR_JOSE_NOT_SUPPORTED'
          ? 'The ID token uses critical header extensions (crit)'
          : `The ID token is signed with ${shown}, not one the provider advertises (${algorithms.join(', ')})`,
        { code: 'unsupported_alg', cause: error },
      );
    }
    case 'ERR_JWKS_NO_MATCHING_KEY':
      throw new ValidationError(
        `No key of the provider matches the ID token (alg ${String(header?.alg).slice(0, 32)}, kid ${describeKid(header?.kid)})`,
        { code: 'signature_invalid', cause: error },
      );
    case 'ERR_JWS_INVALID':
      throw new ValidationError('The ID token is not a well-formed JWS', {
        code: 'signature_invalid',
        cause: error,
      });
    default:
      throw new ValidationError('The ID token signature does not verify', {
        code: 'signature_invalid',
        cause: error,
      });
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

/** Set equality of two short lists (duplicates do not count twice). */
function sameSet(a: readonly string[], b: readonly string[]): boolean {
  for (const v of a) if (!b.includes(v)) return false;
  for (const v of b) if (!a.includes(v)) return false;
  return true;
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
export function accessTokenHash(accessToken: string, alg: string): string | undefined {
  let hash: string;
  if (alg.endsWith('256')) hash = 'sha256';
  else if (alg.endsWith('384')) hash = 'sha384';
  else if (alg.endsWith('512') || alg === 'EdDSA' || alg === 'Ed25519') hash = 'sha512';
  else return undefined;
  const digest = createHash(hash).update(accessToken, 'ascii').digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

function checkClaims(
  claims: Record<string, unknown>,
  tx: Transaction,
  options: IdTokenCheckOptions,
  alg: string,
): AffiliationResult {
  const nowSeconds = options.now / 1000;
  const tolerance = options.clockToleranceSeconds;

  if (claims.iss !== options.issuer) {
    throw new ValidationError(
      `The ID token issuer ${typeof claims.iss === 'string' ? JSON.stringify(claims.iss.slice(0, 200)) : '(missing)'} is not "${options.issuer}"`,
      { code: 'issuer_mismatch' },
    );
  }
  const aud = claims.aud;
  const severalAudiences = Array.isArray(aud) && aud.length > 1;
  if (aud !== options.clientId && !(Array.isArray(aud) && aud.includes(options.clientId))) {
    throw new ValidationError('The ID token audience does not contain this client_id', {
      code: 'audience_mismatch',
    });
  }
  if (severalAudiences || claims.azp !== undefined) {
    if (claims.azp !== options.clientId) {
      throw new ValidationError(
        claims.azp === undefined
          ? 'The ID token has several audiences but no authorized party (azp)'
          : 'The ID token authorized party (azp) is not this client_id',
        { code: 'azp_mismatch' },
      );
    }
  }
  const exp = claims.exp;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) {
    throw new ValidationError('The ID token has no valid expiry (exp)', { code: 'token_expired' });
  }
  if (exp <= nowSeconds - tolerance) {
    throw new ValidationError('The ID token has expired', { code: 'token_expired' });
  }
  const iat = claims.iat;
  if (typeof iat !== 'number' || !Number.isFinite(iat)) {
    throw new ValidationError('The ID token has no valid issue time (iat)', { code: 'iat_invalid' });
  }
  if (iat > nowSeconds + tolerance) {
    throw new ValidationError('The ID token was issued in the future (iat)', { code: 'iat_invalid' });
  }
  if (iat < nowSeconds - tolerance - MAX_ID_TOKEN_AGE_SECONDS || iat < tx.createdAt / 1000 - tolerance) {
    throw new ValidationError(
      'The ID token was issued before this validation started or longer ago than its lifetime (iat)',
      { code: 'iat_invalid' },
    );
  }
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > nowSeconds + tolerance)) {
    throw new ValidationError('The ID token is not valid yet (nbf)', { code: 'iat_invalid' });
  }
  if (typeof claims.nonce !== 'string' || claims.nonce !== tx.nonce) {
    throw new ValidationError('The ID token nonce does not match the one sent', { code: 'nonce_mismatch' });
  }
  const sub = claims.sub;
  if (typeof sub !== 'string' || sub.length === 0) {
    throw new ValidationError('The ID token has no subject (sub)', { code: 'subject_missing' });
  }
  if (claims.at_hash !== undefined && options.accessToken !== undefined) {
    const expected = accessTokenHash(options.accessToken, alg);
    if (typeof claims.at_hash !== 'string' || expected === undefined || claims.at_hash !== expected) {
      throw new ValidationError('The ID token at_hash does not match the access token', {
        code: 'at_hash_mismatch',
      });
    }
  }

  const requested = valuesOf(claims.requested_scopes);
  if (!requested || !sameSet(requested, tx.scopes)) {
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
  if (authTime !== undefined && (typeof authTime !== 'number' || !Number.isFinite(authTime))) {
    throw new ValidationError('The ID token auth_time is not a number', { code: 'iat_invalid' });
  }

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
  let affiliations = 0;
  let identifiers = 0;
  let affiliationConfirmed = false;
  let identifierConfirmed = false;
  const expected: Identifier = tx.identifier ?? 'transient';
  for (const value of returned) {
    if (AFFILIATION_SET.has(value)) {
      affiliations++;
      if (value === tx.affiliation) affiliationConfirmed = true;
    } else if (IDENTIFIER_SET.has(value)) {
      identifiers++;
      if (value === expected) identifierConfirmed = true;
    }
  }
  if (affiliations !== 1 || !affiliationConfirmed) {
    throw new ValidationError(
      `The ID token returned_scopes does not confirm exactly the affiliation "${tx.affiliation}"`,
      { code: 'returned_scopes_mismatch' },
    );
  }
  if (identifiers !== 1 || !identifierConfirmed) {
    throw new ValidationError(`The ID token returned_scopes does not confirm the identifier "${expected}"`, {
      code: 'returned_scopes_mismatch',
    });
  }
  return { affiliation: tx.affiliation, identifier: expected };
}
