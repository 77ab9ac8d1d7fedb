/**
 * The authorization endpoint (spec 4.2) with the start conditions of spec 7.2, and the simulated
 * institution step (selection → login → consent) that ends the transaction (spec 3).
 */
import { randomUUID } from 'node:crypto';
import { random256, randomBase64url } from '../core/random.js';
import {
  hmac,
  type Institution,
  idTokenClaims,
  type Outcome,
  type PendingTransaction,
  type ProviderContext,
  readForm,
  redirect,
  redirectUriWith,
  SESSION_COOKIE,
  sha256,
} from './context.js';
import { type ErrorLocation, type HeldAffiliation, normalizeOutcome } from './options.js';
import { consentPage, loginPage, messagePage, selectionPage } from './pages.js';
import { checkRequestScope } from './request-scope.js';

// RFC 7636 §4.2: BASE64URL(SHA256(verifier)) is always 43 characters.
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
/** Parameters of spec 2.1 (besides client_id and redirect_uri) that may appear at most once. */
const REQUEST_PARAMETERS = [
  'response_type',
  'scope',
  'nonce',
  'state',
  'claims',
  'aarc_idp_hint',
  'code_challenge',
  'code_challenge_method',
] as const;

function single(params: URLSearchParams, name: string): boolean {
  return params.getAll(name).length <= 1;
}

/** Read the request's parameters: the query for GET, the form body for POST (OIDC Core 3.1.2.1). */
async function readParams(request: Request): Promise<URLSearchParams | Response> {
  if (request.method === 'GET' || request.method === 'HEAD') return new URL(request.url).searchParams;
  if (request.method !== 'POST') {
    return messagePage('Method not allowed', `${request.method} is not supported here.`, 405, {
      allow: 'GET, POST',
    });
  }
  const form = await readForm(request);
  if (form === 400)
    return messagePage('Bad request', 'Expected an application/x-www-form-urlencoded form.', 400);
  if (form === 413) return messagePage('Bad request', 'The form is too large.', 413);
  return form;
}

/**
 * `GET|POST {base_url}/{Service}/authorization`. The conditions are checked in the order of the
 * table in spec 7.2, each with its outcome there; then nonce and PKCE; then the transaction starts.
 */
export async function authorizationEndpoint(ctx: ProviderContext, request: Request): Promise<Response> {
  const params = await readParams(request);
  if (params instanceof Response) return params;
  const { errorLocations } = ctx.options;

  // 7.2 row 1: the user ends at the error site, not at the (unverified) redirect_uri. A repeated
  // parameter (RFC 6749 §3.1: none may appear twice) is as invalid as a wrong one.
  const client = single(params, 'client_id') ? ctx.clients.get(params.get('client_id') ?? '') : undefined;
  if (client === undefined) return redirect(`${ctx.errorSite}/error-client-id/`);

  // 7.2 row 2: exact string match against the registered URIs.
  const redirectUri = params.get('redirect_uri');
  if (redirectUri === null || !single(params, 'redirect_uri') || !client.redirectUris.includes(redirectUri)) {
    return redirect(`${ctx.errorSite}/error-redirect-uri/`);
  }
  const state = params.get('state') ?? undefined;
  const fail = (location: 'query' | 'fragment', error: string, description: string) =>
    redirect(redirectUriWith(redirectUri, location, { error, error_description: description, state }));
  const invalid = (description: string) =>
    fail(errorLocations.invalidRequest, 'invalid_request', description);

  const repeated = REQUEST_PARAMETERS.find((name) => !single(params, name));
  if (repeated !== undefined) return invalid(`The ${repeated} parameter is repeated`);

  // 7.2 row 3.
  const scope = checkRequestScope(params.get('scope'), client.allowedScopes);
  if (scope === undefined)
    return fail(errorLocations.invalidScope, 'invalid_scope', 'Requested validation not allowed.');

  // 7.2 row 4: always in the fragment, as the spec says for this case.
  const responseType = params.get('response_type');
  if (
    (responseType !== 'code' && responseType !== 'id_token') ||
    !client.responseTypes.includes(responseType)
  ) {
    return fail('fragment', 'invalid_request', 'Response type is not registered');
  }

  // 7.2 row 5: unsupported claims are ignored; a claims value that is not a JSON object is refused.
  const claimsParam = params.get('claims');
  const claims = claimsParam === null ? undefined : parseClaims(claimsParam);
  if (claimsParam !== null && claims === undefined)
    return invalid('The claims parameter is not a JSON object');

  const nonce = params.get('nonce');
  if (nonce === null || nonce === '') return invalid('The nonce parameter is required');

  // PKCE (RFC 7636): S256 only. A challenge without a method means `plain`, which is refused.
  const challenge = params.get('code_challenge');
  const method = params.get('code_challenge_method');
  let codeChallenge: string | undefined;
  if (responseType === 'code') {
    if (challenge !== null || method !== null) {
      if (method !== 'S256') return invalid('Unsupported code_challenge_method; use S256');
      if (challenge === null || !S256_CHALLENGE.test(challenge)) {
        return invalid('Invalid or missing code_challenge');
      }
      codeChallenge = challenge;
    } else if (ctx.options.requirePkce) {
      return invalid('PKCE (code_challenge with S256) is required');
    }
  }

  // 7.2 row 6: the hint must name an institution of the mapping (spec 2.5).
  const hint = params.get('aarc_idp_hint');
  const institution = hint === null ? undefined : ctx.institutions.get(hint);
  if (hint !== null && institution === undefined) {
    return fail(errorLocations.unresolvableHint, 'access_denied', 'entity_id error');
  }

  // The transaction starts (spec 3), bound to this browser by a session cookie.
  const now = ctx.options.now();
  purgeExpired(ctx, now);
  const cookieSession = readCookie(request, SESSION_COOKIE);
  const sessionId =
    cookieSession !== undefined && SESSION_ID.test(cookieSession) ? cookieSession : random256();
  const tx: PendingTransaction = {
    id: random256(),
    sessionId,
    client,
    redirectUri,
    responseType,
    state,
    nonce,
    scope,
    claims,
    codeChallenge,
    institution,
    outcome: undefined,
    authTimeMs: undefined,
    expiresAt: now + ctx.options.transactionTtlMs,
  };
  ctx.pending.set(tx.id, tx);
  const path = new URL(ctx.baseUrl).pathname;
  const cookie = `${SESSION_COOKIE}=${sessionId}; Path=${path}; HttpOnly; SameSite=Lax`;
  if (institution !== undefined && !institution.edugain) {
    return finish(ctx, tx, { error: 'entity_id error' }, 302, { 'set-cookie': cookie });
  }
  const next = institution === undefined ? ctx.paths.select : ctx.paths.login;
  return redirect(pageUrl(ctx, next, tx.id), 302, { 'set-cookie': cookie });
}

/** `GET|POST …/select`: choose the institution (skipped with a valid hint). */
export async function selectionPageEndpoint(ctx: ProviderContext, request: Request): Promise<Response> {
  const found = await findTransaction(ctx, request);
  if (found instanceof Response) return found;
  const { tx, params } = found;
  if (request.method !== 'POST') {
    const list = [...ctx.institutions.values()];
    return selectionPage(ctx.baseUrl + ctx.paths.select, tx, list);
  }
  const institution = ctx.institutions.get(params.get('entity_id') ?? '');
  if (institution === undefined || !institution.edugain) {
    return finish(ctx, tx, { error: 'entity_id error' });
  }
  tx.institution = institution;
  return redirect(pageUrl(ctx, ctx.paths.login, tx.id), 303);
}

/** `GET|POST …/institution/login`: the institution's identity provider; the outcome is scripted. */
export async function loginPageEndpoint(ctx: ProviderContext, request: Request): Promise<Response> {
  const found = await findTransaction(ctx, request);
  if (found instanceof Response) return found;
  const { tx, params } = found;
  const institution = tx.institution;
  if (institution === undefined) return redirect(pageUrl(ctx, ctx.paths.select, tx.id), 303);
  if (request.method !== 'POST') {
    const userId = ctx.loginQueue[0]?.userId ?? normalizeOutcome({}).userId;
    return loginPage(ctx.baseUrl + ctx.paths.login, tx, institution.name, userId);
  }
  // Without a scripted outcome, the name typed on the page is the user (so a person trying the
  // provider in a browser gets one persistent subject per name).
  const typed = params.get('username')?.trim().slice(0, 200);
  const outcome = ctx.loginQueue.shift() ?? normalizeOutcome(typed ? { userId: typed } : {});
  tx.outcome = outcome;
  tx.authTimeMs = ctx.options.now();
  if (!outcome.authenticated) return finish(ctx, tx, { error: 'authentication failed' });
  return redirect(pageUrl(ctx, ctx.paths.consent, tx.id), 303);
}

/** `GET|POST …/institution/consent`: release the affiliation or not; then the result goes to the RP. */
export async function consentPageEndpoint(ctx: ProviderContext, request: Request): Promise<Response> {
  const found = await findTransaction(ctx, request);
  if (found instanceof Response) return found;
  const { tx, params } = found;
  const { institution, outcome } = tx;
  if (institution === undefined || outcome === undefined) {
    return redirect(pageUrl(ctx, ctx.paths.login, tx.id), 303);
  }
  if (request.method !== 'POST') {
    return consentPage(ctx.baseUrl + ctx.paths.consent, tx, institution.name, outcome.consent);
  }
  // The service's own descriptions (its open-source implementation), which the SDK reads as reasons.
  if (params.get('consent') !== 'yes') return finish(ctx, tx, { error: 'User Consent Denied' });
  if (!outcome.releasesInformation || outcome.affiliations.length === 0) {
    return finish(ctx, tx, { error: 'no affiliation available for this user' });
  }
  if (!holds(outcome.affiliations, tx.scope.affiliation)) {
    return finish(ctx, tx, { error: 'affiliation does not match requested validation' });
  }
  return finish(ctx, tx, { grant: buildGrant(ctx, tx, institution, outcome) });
}

/** Whether the held affiliations satisfy the requested affiliation scope (spec 2.2). */
function holds(held: readonly HeldAffiliation[], requested: string): boolean {
  switch (requested) {
    case 'faculty+staff':
      return held.some((a) => a === 'faculty+staff' || a === 'faculty' || a === 'staff');
    case 'member':
      return held.some((a) =>
        ['student', 'faculty', 'staff', 'faculty+staff', 'employee', 'member'].includes(a),
      );
    default:
      return held.includes(requested as HeldAffiliation);
  }
}

/** The result of a successful transaction, as the tokens carry it. */
export type Grant = ReturnType<typeof buildGrant>;

function buildGrant(
  ctx: ProviderContext,
  tx: PendingTransaction,
  institution: Institution,
  outcome: Outcome,
) {
  const wantsPersistent = tx.scope.identifier === 'persistent';
  const persistent = wantsPersistent && institution.persistentIdentifiers;
  const returnedScopes = tx.scope.values.map((v) => (v === 'persistent' && !persistent ? 'transient' : v));
  if (tx.scope.identifier === undefined) returnedScopes.push('transient');
  const sub = persistent
    ? hmac(ctx.subjectSecret, 'sub', institution.entityId, outcome.userId, tx.client.clientId)
    : randomBase64url(24);

  // Spec 2.3: included only if allowed for the RP, requested, and provided by the institution.
  const allowed = tx.client.allowedClaims.includes('reuse_detection');
  const released = institution.releasesReuseDetection
    ? (outcome.reuseDetection ?? [
        `rd-${hmac(ctx.subjectSecret, 'reuse', institution.entityId, outcome.userId)}`,
      ])
    : undefined;
  const available = allowed && released !== undefined && released.length > 0 ? released : undefined;
  return {
    clientId: tx.client.clientId,
    sub,
    nonce: tx.nonce,
    authTimeMs: tx.authTimeMs ?? ctx.options.now(),
    transactionId: randomUUID(),
    requestedScopes: [...tx.scope.values],
    returnedScopes,
    requestedClaims: tx.claims,
    idTokenReuseDetection: requestsReuseDetection(tx.claims, 'id_token') ? available : undefined,
    userinfoReuseDetection:
      tx.responseType === 'code' && requestsReuseDetection(tx.claims, 'userinfo') ? available : undefined,
  };
}

function requestsReuseDetection(claims: Record<string, unknown> | undefined, member: string): boolean {
  const target = claims?.[member];
  return typeof target === 'object' && target !== null && Object.hasOwn(target, 'reuse_detection');
}

/** End the transaction: the result or an `access_denied` goes to the redirect URI (spec 3). */
async function finish(
  ctx: ProviderContext,
  tx: PendingTransaction,
  result: { error: string } | { grant: Grant },
  status = 303,
  headers: Record<string, string> = {},
): Promise<Response> {
  ctx.pending.delete(tx.id);
  const to = (location: ErrorLocation, params: Record<string, string>) =>
    redirect(redirectUriWith(tx.redirectUri, location, { ...params, state: tx.state }), status, headers);
  if ('error' in result) {
    const { accessDenied } = ctx.options.errorLocations;
    return to(accessDenied, { error: 'access_denied', error_description: result.error });
  }
  if (tx.responseType === 'id_token') {
    return to('fragment', { id_token: await ctx.keys.sign(idTokenClaims(ctx, result.grant, undefined)) });
  }
  const code = random256();
  ctx.codes.set(sha256(code), {
    clientId: tx.client.clientId,
    redirectUri: tx.redirectUri,
    codeChallenge: tx.codeChallenge,
    expiresAt: ctx.options.now() + ctx.options.codeTtlMs,
    used: false,
    grant: result.grant,
    accessTokens: [],
  });
  return to('query', { code });
}

async function findTransaction(
  ctx: ProviderContext,
  request: Request,
): Promise<{ tx: PendingTransaction; params: URLSearchParams } | Response> {
  const params = await readParams(request);
  if (params instanceof Response) return params;
  const id = params.get('tx');
  const tx = id === null ? undefined : ctx.pending.get(id);
  if (tx === undefined || tx.expiresAt <= ctx.options.now()) {
    if (tx !== undefined) ctx.pending.delete(tx.id);
    return messagePage(
      'Validation not found',
      'This validation has ended or expired. Please start again at the shop.',
      400,
    );
  }
  if (readCookie(request, SESSION_COOKIE) !== tx.sessionId) {
    return messagePage(
      'Session missing',
      'This validation was started in another browser session. Please start again.',
      400,
    );
  }
  return { tx, params };
}

function parseClaims(value: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie');
  if (header === null) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function pageUrl(ctx: ProviderContext, path: string, tx: string): string {
  return `${ctx.baseUrl}${path}?tx=${encodeURIComponent(tx)}`;
}

function purgeExpired(ctx: ProviderContext, now: number): void {
  for (const [id, tx] of ctx.pending) if (tx.expiresAt <= now) ctx.pending.delete(id);
  for (const [hash, code] of ctx.codes)
    if (code.expiresAt + ctx.options.codeTtlMs <= now) ctx.codes.delete(hash);
  for (const [hash, token] of ctx.accessTokens) if (token.expiresAt <= now) ctx.accessTokens.delete(hash);
}
