import type { Transaction } from '../types.js';

/**
 * The one stored form of a transaction, shared by the cookie store (inside its seal) and the Redis
 * store (as the key's value): a JSON array in a fixed order,
 * `[2, until, state, nonce, codeVerifier, responseType, scopes, affiliation, identifier, claims,
 * idpHint, redirectUri, createdAt, expiresAt]`, absent optional fields as `0`. `until` is when this
 * stored copy expires (ms since the epoch; at most the transaction's own `expiresAt`). An array
 * rather than an object because field names would cost about 150 bytes of every transaction
 * cookie, and the cookie budget (under 4 KB of `Cookie` header) is paid by every shopper's requests.
 */
export const TRANSACTION_FORM = 2;

export interface StoredTransaction {
  /** When the stored copy expires, ms since the epoch. */
  until: number;
  transaction: Transaction;
}

export function encodeTransaction(t: Transaction, until: number): string {
  return JSON.stringify([
    TRANSACTION_FORM,
    until,
    t.state,
    t.nonce,
    t.codeVerifier ?? 0,
    t.responseType,
    t.scopes,
    t.affiliation,
    t.identifier ?? 0,
    t.claims ?? 0,
    t.idpHint ?? 0,
    t.redirectUri,
    t.createdAt,
    t.expiresAt,
  ]);
}

/** The transaction {@link encodeTransaction} made, or `undefined` for anything else. */
export function decodeTransaction(text: string): StoredTransaction | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 14 || value[0] !== TRANSACTION_FORM) return undefined;
  const [
    ,
    until,
    state,
    nonce,
    codeVerifier,
    responseType,
    scopes,
    affiliation,
    identifier,
    claims,
    idpHint,
    redirectUri,
    createdAt,
    expiresAt,
  ] = value as unknown[];
  if (
    typeof until !== 'number' ||
    typeof state !== 'string' ||
    typeof nonce !== 'string' ||
    (codeVerifier !== 0 && typeof codeVerifier !== 'string') ||
    (responseType !== 'code' && responseType !== 'id_token') ||
    !Array.isArray(scopes) ||
    !scopes.every((s) => typeof s === 'string') ||
    typeof affiliation !== 'string' ||
    (identifier !== 0 && identifier !== 'persistent' && identifier !== 'transient') ||
    (claims !== 0 && (typeof claims !== 'object' || claims === null || Array.isArray(claims))) ||
    (idpHint !== 0 && typeof idpHint !== 'string') ||
    typeof redirectUri !== 'string' ||
    typeof createdAt !== 'number' ||
    typeof expiresAt !== 'number'
  ) {
    return undefined;
  }
  const transaction: Transaction = {
    state,
    nonce,
    responseType,
    scopes: scopes as string[],
    affiliation: affiliation as Transaction['affiliation'],
    redirectUri,
    createdAt,
    expiresAt,
  };
  if (codeVerifier !== 0) transaction.codeVerifier = codeVerifier;
  if (identifier !== 0) transaction.identifier = identifier;
  if (claims !== 0) transaction.claims = claims as Transaction['claims'];
  if (idpHint !== 0) transaction.idpHint = idpHint;
  return { until, transaction };
}

/** The form number a stored value starts with (`[<form>,`), to say which SDK version wrote it. */
export function storedForm(text: string): number | undefined {
  const form = /^\[(\d{1,6}),/.exec(text)?.[1];
  return form === undefined ? undefined : Number(form);
}
