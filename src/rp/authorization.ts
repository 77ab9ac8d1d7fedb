/**
 * The authentication request (spec 2.1, 4.2): openid-client makes the state, the nonce, the PKCE
 * S256 pair and the URL (`buildAuthorizationUrl`); the SDK adds the scope rules, the claims request,
 * `aarc_idp_hint`, and the service's wire encoding: the query is written again so that spaces are
 * `%20` and the `+` of `faculty+staff` is `%2B` (`URLSearchParams`, which openid-client uses, writes
 * spaces as `+`, which the service would read back as a literal plus).
 */
import * as oidc from 'openid-client';
import { OptionsError } from '../core/errors.js';
import { texts as en } from '../i18n/catalogs/en.js';
import { ValidationError } from './errors.js';
import { checkKnownOptions } from './known-options.js';
import type { CheckedOptions } from './options.js';
import { buildScope } from './scope.js';
import type { Affiliation, ClaimsRequest, HintLookup, Identifier, Transaction } from './types.js';

/**
 * What to validate, for {@link AffiliationClient.createAuthorizationRequest}.
 *
 * @group RP
 */
export interface AuthorizationRequestOptions {
  /** The one affiliation to validate. */
  affiliation: Affiliation;
  /** The identifier kind; the service assumes `transient` when none is sent. */
  identifier?: Identifier | undefined;
  /** Further scope values, sent after the affiliation and identifier. Default: none. */
  scopes?: string[] | undefined;
  /**
   * Additional claims (spec 2.3), sent as the `claims` parameter (JSON). `userinfo` claims need
   * the code flow. The ID token's `requested_claims` must then equal this object exactly.
   */
  claims?: ClaimsRequest | undefined;
  /** The shopper's institution (an entityID), sent as `aarc_idp_hint` to skip institution selection. */
  idpHint?: string | undefined;
}

const REQUEST_OPTIONS = [
  'affiliation',
  'identifier',
  'scopes',
  'claims',
  'idpHint',
] as const satisfies readonly (keyof AuthorizationRequestOptions)[];

/**
 * Where to send the shopper, for {@link AffiliationClient.createAuthorizationRequest}.
 *
 * @group RP
 */
export interface AuthorizationRequest {
  /** The authorization URL: redirect the browser here (HTTP 302/303). */
  url: string;
  /** The `state` of this request; the transaction is stored under it. */
  state: string;
  /**
   * A `Set-Cookie` header value to send with the redirect, when the transaction store returns one:
   * the sealed transaction of `CookieTransactionStore`, or the cookie of `MemoryTransactionStore`
   * that binds the transaction to this browser (unless `bindToBrowser: false`). Absent only when
   * the store sets no cookie; send it whenever it is present.
   */
  setCookie?: string;
}

/** Check a claims request: JSON object with at most `id_token` and `userinfo`, each an object. */
export function checkClaimsRequest(claims: unknown, responseType: 'code' | 'id_token'): ClaimsRequest {
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) {
    throw new OptionsError('claims must be an object with id_token and/or userinfo members');
  }
  for (const [member, value] of Object.entries(claims)) {
    if (member !== 'id_token' && member !== 'userinfo') {
      throw new OptionsError(`claims.${member.slice(0, 40)} is not allowed: use id_token and/or userinfo`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new OptionsError(`claims.${member} must be an object such as { reuse_detection: null }`);
    }
    for (const [claim, request] of Object.entries(value)) {
      if (request !== null && (typeof request !== 'object' || Array.isArray(request))) {
        throw new OptionsError(`claims.${member}.${claim.slice(0, 40)} must be null or an object`);
      }
    }
  }
  if ((claims as ClaimsRequest).userinfo !== undefined && responseType !== 'code') {
    throw new OptionsError(
      'claims.userinfo needs responseType "code": the userinfo endpoint is code flow only',
    );
  }
  // Round-trip through JSON: what is stored is exactly what was sent.
  return JSON.parse(JSON.stringify(claims)) as ClaimsRequest;
}

/** How long a transaction lives when the store does not cut it shorter: 10 minutes. */
const TRANSACTION_TTL_MS = 10 * 60 * 1000;

/** An entityID as `aarc_idp_hint` may carry it: a URI, so no white space or control characters, and
 * well-formed UTF-16 (a lone surrogate cannot be percent-encoded for the wire). */
function isEntityIdString(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length > 0 &&
    value.length <= 2048 &&
    !/[\s\p{Cc}]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u.test(value)
  );
}

/**
 * A hint as it may be traced: only an entityID the configured hints know, never one that only a
 * form post vouches for (without hints, none), so a visitor cannot make trace or metric values.
 */
export function listedHint(idpHint: unknown, hints: HintLookup | undefined): string | undefined {
  if (hints === undefined || !isEntityIdString(idpHint)) return undefined;
  try {
    return hints.has(idpHint) ? idpHint : undefined;
  } catch {
    // A lookup of the shop's own that throws: the start itself reports it.
    return undefined;
  }
}

/**
 * Build the URL and the transaction to store for one authentication request. `authorizationUrl` is
 * openid-client's `buildAuthorizationUrl` with the client's Configuration.
 */
export async function buildAuthorizationRequest(
  options: AuthorizationRequestOptions,
  ctx: Pick<CheckedOptions, 'clientId' | 'redirectUri' | 'responseType' | 'hints'>,
  authorizationUrl: (parameters: [string, string][]) => URL,
): Promise<{ url: string; transaction: Transaction }> {
  if (typeof options !== 'object' || options === null) {
    throw new OptionsError('createAuthorizationRequest needs an object with at least an affiliation');
  }
  checkKnownOptions(options, REQUEST_OPTIONS, 'createAuthorizationRequest');
  const scope = buildScope({
    affiliation: options.affiliation,
    identifier: options.identifier,
    scopes: options.scopes,
  });
  let claims =
    options.claims === undefined ? undefined : checkClaimsRequest(options.claims, ctx.responseType);
  // An empty claims request asks for nothing: it is not sent, and none is expected back.
  if (claims !== undefined && Object.keys(claims).length === 0) claims = undefined;
  const { idpHint } = options;
  if (idpHint !== undefined) {
    if (!isEntityIdString(idpHint)) throw new OptionsError('idpHint must be a non-empty entityID string');
    if (ctx.hints && !ctx.hints.has(idpHint)) {
      const hint = JSON.stringify(idpHint.slice(0, 200));
      throw ctx.hints.loaded === false
        ? new ValidationError(
            `The idpHint ${hint} cannot be checked: the institution hint feed has not loaded yet (no cache file and no successful refresh); await feed.ready() before serving requests`,
            {
              code: 'unknown_hint',
              userMessage: en['validation.hints_loading'],
            },
          )
        : new ValidationError(`The idpHint ${hint} is not in the institution hint feed`, {
            code: 'unknown_hint',
          });
    }
  }

  const now = Date.now();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const parameters: [string, string][] = [
    ['response_type', ctx.responseType],
    ['client_id', ctx.clientId],
    ['redirect_uri', ctx.redirectUri],
    ['scope', scope],
    ['state', state],
    ['nonce', nonce],
  ];
  let codeVerifier: string | undefined;
  if (ctx.responseType === 'code') {
    codeVerifier = oidc.randomPKCECodeVerifier();
    parameters.push(
      ['code_challenge', await oidc.calculatePKCECodeChallenge(codeVerifier)],
      ['code_challenge_method', 'S256'],
    );
  }
  if (claims !== undefined) parameters.push(['claims', JSON.stringify(claims)]);
  if (idpHint !== undefined) parameters.push(['aarc_idp_hint', idpHint]);
  const url = authorizationUrl(parameters);
  url.hash = '';
  // The service's wire encoding, for the endpoint's own query parameters too: encodeURIComponent
  // writes ' ' as %20 and '+' as %2B (encodeScopeForWire is the same rule, named for the scope).
  const wire = ([key, value]: [string, string]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
  url.search = Array.from(url.searchParams, wire).join('&');

  const transaction: Transaction = {
    state,
    nonce,
    responseType: ctx.responseType,
    scopes: scope.split(' '),
    affiliation: options.affiliation,
    redirectUri: ctx.redirectUri,
    createdAt: now,
    expiresAt: now + TRANSACTION_TTL_MS,
  };
  if (codeVerifier !== undefined) transaction.codeVerifier = codeVerifier;
  if (options.identifier !== undefined) transaction.identifier = options.identifier;
  if (claims !== undefined) transaction.claims = claims;
  if (idpHint !== undefined) transaction.idpHint = idpHint;
  return { url: url.href, transaction };
}
