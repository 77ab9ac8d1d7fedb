/**
 * Options and scripted data of the local test provider, with their defaults and up-front checks.
 * Every bad option throws an {@link OptionsError} that names it.
 */
import { OptionsError } from '../core/errors.js';
import { JWS_ALGS, type JwsAlg } from '../core/jws.js';
import { AFFILIATIONS, type Affiliation } from '../core/scope-values.js';

/** JWS algorithms the test provider can sign ID tokens with. @group Testing */
export type TestSigningAlg = JwsAlg;

/** Additional claims of spec 2.3 that a client may be allowed to obtain. @group Testing */
export type TestAdditionalClaim = 'reuse_detection';

/** A relying party registered at the test provider (spec 5.1–5.3). @group Testing */
export interface TestClient {
  /** The registered `client_id`. */
  clientId: string;
  /** The client secret, checked at the token endpoint with `client_secret_basic` or `client_secret_post`. */
  clientSecret: string;
  /** Registered redirect URIs; a request's `redirect_uri` must equal one of them exactly. */
  redirectUris: string[];
  /**
   * Scope values this client may request (besides `openid`, always allowed). A request with any
   * other value ends in `invalid_scope`. Default: every value.
   */
  allowedScopes?: string[];
  /** Additional claims (spec 2.3) this client may obtain. Default: none. */
  allowedClaims?: TestAdditionalClaim[];
  /** Response types this client may use. Default: `['code', 'id_token']`. */
  responseTypes?: ('code' | 'id_token')[];
}

/** An institution the test provider knows (an entry of the hint mapping, spec 2.5). @group Testing */
export interface TestInstitution {
  /** The institution's entityID, the value of `aarc_idp_hint`. */
  entityId: string;
  /** Display name shown on the selection and login pages. */
  name: string;
  /** Whether the institution releases `reuse_detection` values to the service. Default: `true`. */
  releasesReuseDetection?: boolean;
  /**
   * Whether the institution is an eduGAIN member (or in a national federation where the service is
   * registered). `false` models an institution the service knows but cannot validate through:
   * every validation through it ends in `access_denied`. Default: `true`.
   */
  edugain?: boolean;
  /**
   * Whether the institution supports persistent identifiers (spec 2.2). When `false`, a request for
   * `persistent` is answered with a transient `sub` and `transient` in `returned_scopes`. Default: `true`.
   */
  persistentIdentifiers?: boolean;
}

/**
 * An affiliation a user may hold at the institution: the four affiliation scopes plus the
 * eduPerson values they are built from (`faculty` and `staff` both satisfy `faculty+staff`).
 *
 * @group Testing
 */
export type HeldAffiliation = Affiliation | 'faculty' | 'staff' | 'affiliate' | 'alum';

/**
 * What happens at the institution during the next login (see `scriptLogin`).
 *
 * @group Testing
 */
export interface LoginOutcome {
  /** Affiliations the user holds. `member` is satisfied by any of student, faculty, staff, employee and member. Default: `['student', 'member']`. */
  affiliations?: HeldAffiliation[];
  /** The user's account at the institution; persistent subjects are derived from it. Default: `'test-user'`. */
  userId?: string;
  /** Whether the user authenticates at the institution. Default: `true`. */
  authenticated?: boolean;
  /** Whether the institution releases enough information (the affiliation attributes). Default: `true`. */
  releasesInformation?: boolean;
  /** Whether the user consents to the release (the consent page's preselected answer). Default: `true`. */
  consent?: boolean;
  /**
   * `reuse_detection` values the institution releases for this user (when it releases them at
   * all). Default: one value derived from the institution and `userId`, stable across logins.
   */
  reuseDetection?: string[];
}

/** Where an authorization error is put on the redirect to `redirect_uri`. @group Testing */
export type ErrorLocation = 'query' | 'fragment';

/**
 * Where each kind of authorization error goes. Spec 7 says errors go in the fragment and that
 * "some cases" use the query string; 7.2 names the fragment explicitly only for the unsupported
 * response type, so the two other 7.2 redirects (scope, hint) default to the query.
 *
 * @group Testing
 */
export interface ErrorLocations {
  /** `invalid_scope` (spec 7.2). Default: `'query'`. */
  invalidScope?: ErrorLocation;
  /** `access_denied` / `entity_id error` for an unresolvable `aarc_idp_hint` (spec 7.2). Default: `'query'`. */
  unresolvableHint?: ErrorLocation;
  /** `access_denied` after the institution step (login, release, consent, affiliation). Default: `'fragment'`. */
  accessDenied?: ErrorLocation;
  /** `invalid_request` for a missing nonce, bad PKCE parameters or a malformed claims parameter. Default: `'fragment'`. */
  invalidRequest?: ErrorLocation;
}

/** Options of `TestProvider.start()`. @group Testing */
export interface TestProviderOptions {
  /** Registered clients. Default: one client, {@link DEFAULT_TEST_CLIENT}. */
  clients?: TestClient[] | undefined;
  /** Institutions known to the service (the hint mapping). Default: {@link DEFAULT_TEST_INSTITUTIONS}. */
  institutions?: TestInstitution[] | undefined;
  /**
   * `{error_site}`: where the user ends for an invalid client_id or redirect_uri (spec 7.2).
   * Default: `${baseUrl}/errors`, whose two pages the provider serves itself.
   */
  errorSite?: string | undefined;
  /** The path segment of `{base_url}/Service/authorization`. Default: `'Service'`. */
  serviceName?: string | undefined;
  /**
   * Publish the issuer with a trailing slash (`{base_url}/`, as spec 2.4's claim description
   * writes it) in discovery and in `iss`. Default: `false` (`{base_url}`, as the endpoint list writes it).
   */
  issuerTrailingSlash?: boolean | undefined;
  /** Lifetime of an authorization code, in milliseconds. Default: `60_000`. */
  codeTtlMs?: number | undefined;
  /** ID token lifetime after `auth_time`, in seconds (spec 2.4: about 60 minutes). Default: `3600`. */
  idTokenTtlSeconds?: number | undefined;
  /** Access token lifetime after issuance, in seconds. Default: `3600`. */
  accessTokenTtlSeconds?: number | undefined;
  /** How long a started transaction may wait at the institution pages, in milliseconds. Default: `600_000`. */
  transactionTtlMs?: number | undefined;
  /**
   * How long a key stays in the JWKS after `rotateKeys()` replaced it, in milliseconds, so tokens it
   * signed still verify. Default: the ID token lifetime (`idTokenTtlSeconds * 1000`).
   */
  retiredKeyTtlMs?: number | undefined;
  /** ID token signing algorithm. Default: `'RS256'`. */
  signingAlg?: TestSigningAlg | undefined;
  /** Refuse code-flow requests without a PKCE `code_challenge`. Default: `false` (PKCE optional, as the spec says). */
  requirePkce?: boolean | undefined;
  /** Where each kind of authorization error is placed. Defaults: see {@link ErrorLocations}. */
  errorLocations?: ErrorLocations | undefined;
  /**
   * Secret from which persistent subjects and default `reuse_detection` values are derived. Give a
   * fixed value to keep persistent subjects stable across provider restarts. Default: random per provider.
   */
  subjectSecret?: string | undefined;
  /** Clock, in milliseconds since the epoch. Default: `Date.now`. */
  now?: (() => number) | undefined;
  /**
   * For negative tests (a relying party's checks, the `doctor` command): members merged over the
   * discovery document, e.g. `{ issuer: 'https://elsewhere.example' }` or a `jwks_uri` that does not
   * exist. `undefined` values remove a member. Default: none.
   */
  discoveryOverrides?: Record<string, unknown> | undefined;
  /**
   * For negative tests: rewrite the claims of every ID token before it is signed (return the new
   * claims, or change the object in place and return nothing), e.g. to send a wrong `nonce` or
   * `requested_scopes`. Default: none.
   */
  idTokenClaims?: ((claims: Record<string, unknown>) => Record<string, unknown> | undefined) | undefined;
}

/** Options of `TestProvider.start()` when it listens: the provider options plus where. @group Testing */
export interface StartTestProviderOptions extends TestProviderOptions {
  /** TCP port; `0` picks a free one. Default: `0`. */
  port?: number | undefined;
  /** Interface to bind. Default: `'127.0.0.1'`. */
  host?: string | undefined;
}

/** The client registered when `clients` is not given. @group Testing */
export const DEFAULT_TEST_CLIENT: Readonly<TestClient> = Object.freeze<TestClient>({
  clientId: 'test-client',
  clientSecret: 'test-client-secret',
  redirectUris: ['http://127.0.0.1:3000/callback', 'http://localhost:3000/callback'],
  allowedClaims: ['reuse_detection'],
});

/** The institutions known when `institutions` is not given. @group Testing */
export const DEFAULT_TEST_INSTITUTIONS: readonly Readonly<TestInstitution>[] = Object.freeze([
  { entityId: 'https://idp.university.example/idp/shibboleth', name: 'Example University' },
  { entityId: 'https://login.college.example/saml2/idp', name: 'Example College' },
  {
    entityId: 'https://sso.polytechnic.example/idp',
    name: 'Example Polytechnic',
    releasesReuseDetection: false,
    persistentIdentifiers: false,
  },
  {
    entityId: 'https://idp.institute.example/metadata',
    name: 'Example Institute (not in eduGAIN)',
    edugain: false,
  },
]);

/** The login outcome used when none is scripted. @group Testing */
export const DEFAULT_LOGIN_OUTCOME: Readonly<Required<Omit<LoginOutcome, 'reuseDetection'>>> = Object.freeze({
  affiliations: ['student', 'member'] as HeldAffiliation[],
  userId: 'test-user',
  authenticated: true,
  releasesInformation: true,
  consent: true,
});

const HELD: readonly string[] = [...AFFILIATIONS, 'faculty', 'staff', 'affiliate', 'alum'];

/** Options after defaults, as the provider uses them. */
export interface ResolvedOptions {
  errorSite: string | undefined;
  serviceName: string;
  issuerTrailingSlash: boolean;
  codeTtlMs: number;
  idTokenTtlSeconds: number;
  accessTokenTtlSeconds: number;
  transactionTtlMs: number;
  retiredKeyTtlMs: number;
  signingAlg: TestSigningAlg;
  requirePkce: boolean;
  errorLocations: Required<ErrorLocations>;
  now: () => number;
  discoveryOverrides: Record<string, unknown>;
  idTokenClaims: ((claims: Record<string, unknown>) => Record<string, unknown> | undefined) | undefined;
}

export function resolveOptions(options: TestProviderOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null)
    throw new OptionsError('Test provider options must be an object');
  const idTokenTtlSeconds = positive(options.idTokenTtlSeconds, 'idTokenTtlSeconds', 3600);
  const serviceName = options.serviceName ?? 'Service';
  if (typeof serviceName !== 'string' || !/^[A-Za-z0-9._~-]+$/.test(serviceName)) {
    throw new OptionsError('Invalid option "serviceName": expected one URL path segment such as "Service"');
  }
  if (options.errorSite !== undefined) checkUrl(options.errorSite, 'errorSite');
  const signingAlg = options.signingAlg ?? 'RS256';
  if (!(JWS_ALGS as readonly string[]).includes(signingAlg)) {
    throw new OptionsError(`Invalid option "signingAlg": use one of ${JWS_ALGS.join(', ')}`);
  }
  if (options.now !== undefined && typeof options.now !== 'function') {
    throw new OptionsError(
      'Invalid option "now": expected a function returning milliseconds since the epoch',
    );
  }
  const overrides = options.discoveryOverrides ?? {};
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
    throw new OptionsError('Invalid option "discoveryOverrides": expected an object');
  }
  if (options.idTokenClaims !== undefined && typeof options.idTokenClaims !== 'function') {
    throw new OptionsError('Invalid option "idTokenClaims": expected a function');
  }
  const locations = options.errorLocations ?? {};
  for (const [name, value] of Object.entries(locations)) {
    if (value !== undefined && value !== 'query' && value !== 'fragment') {
      throw new OptionsError(`Invalid option "errorLocations.${name}": expected "query" or "fragment"`);
    }
  }
  return {
    errorSite: options.errorSite?.replace(/\/+$/, ''),
    serviceName,
    issuerTrailingSlash: options.issuerTrailingSlash === true,
    codeTtlMs: positive(options.codeTtlMs, 'codeTtlMs', 60_000),
    idTokenTtlSeconds,
    accessTokenTtlSeconds: positive(options.accessTokenTtlSeconds, 'accessTokenTtlSeconds', 3600),
    transactionTtlMs: positive(options.transactionTtlMs, 'transactionTtlMs', 600_000),
    retiredKeyTtlMs: nonNegative(options.retiredKeyTtlMs, 'retiredKeyTtlMs', idTokenTtlSeconds * 1000),
    signingAlg,
    requirePkce: options.requirePkce === true,
    errorLocations: {
      invalidScope: locations.invalidScope ?? 'query',
      unresolvableHint: locations.unresolvableHint ?? 'query',
      accessDenied: locations.accessDenied ?? 'fragment',
      invalidRequest: locations.invalidRequest ?? 'fragment',
    },
    now: options.now ?? Date.now,
    discoveryOverrides: { ...overrides },
    idTokenClaims: options.idTokenClaims,
  };
}

/** Check a client registration and return a private copy with defaults filled in. */
export interface NormalizedClient extends Required<Omit<TestClient, 'allowedScopes'>> {
  allowedScopes: string[] | undefined;
}

export function normalizeClient(client: TestClient): NormalizedClient {
  const where = 'client';
  if (typeof client !== 'object' || client === null)
    throw new OptionsError(`Invalid ${where}: expected an object`);
  if (typeof client.clientId !== 'string' || client.clientId === '') {
    throw new OptionsError(`Invalid ${where} option "clientId": expected a non-empty string`);
  }
  const named = `client "${client.clientId}"`;
  if (typeof client.clientSecret !== 'string' || client.clientSecret === '') {
    throw new OptionsError(`Invalid ${named} option "clientSecret": expected a non-empty string`);
  }
  if (!Array.isArray(client.redirectUris) || client.redirectUris.length === 0) {
    throw new OptionsError(`Invalid ${named} option "redirectUris": expected at least one URL`);
  }
  for (const uri of client.redirectUris) {
    checkUrl(uri, `redirectUris (${named})`);
    if (uri.includes('#'))
      throw new OptionsError(`Invalid ${named} option "redirectUris": ${uri} has a fragment`);
  }
  if (client.allowedScopes !== undefined && !stringArray(client.allowedScopes)) {
    throw new OptionsError(`Invalid ${named} option "allowedScopes": expected an array of strings`);
  }
  const allowedClaims = client.allowedClaims ?? [];
  if (!Array.isArray(allowedClaims) || allowedClaims.some((c) => c !== 'reuse_detection')) {
    throw new OptionsError(
      `Invalid ${named} option "allowedClaims": the only additional claim is "reuse_detection"`,
    );
  }
  const responseTypes = client.responseTypes ?? ['code', 'id_token'];
  if (!Array.isArray(responseTypes) || responseTypes.some((t) => t !== 'code' && t !== 'id_token')) {
    throw new OptionsError(`Invalid ${named} option "responseTypes": use "code" and/or "id_token"`);
  }
  return {
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    redirectUris: [...client.redirectUris],
    allowedScopes: client.allowedScopes === undefined ? undefined : [...client.allowedScopes],
    allowedClaims: [...allowedClaims],
    responseTypes: [...responseTypes],
  };
}

/** Check an institution and return a private copy with defaults filled in. */
export function normalizeInstitution(institution: TestInstitution): Required<TestInstitution> {
  if (typeof institution !== 'object' || institution === null) {
    throw new OptionsError('Invalid institution: expected an object');
  }
  if (typeof institution.entityId !== 'string' || institution.entityId === '') {
    throw new OptionsError('Invalid institution option "entityId": expected a non-empty string');
  }
  if (typeof institution.name !== 'string' || institution.name === '') {
    throw new OptionsError(
      `Invalid institution "${institution.entityId}" option "name": expected a non-empty string`,
    );
  }
  return {
    entityId: institution.entityId,
    name: institution.name,
    releasesReuseDetection: institution.releasesReuseDetection ?? true,
    edugain: institution.edugain ?? true,
    persistentIdentifiers: institution.persistentIdentifiers ?? true,
  };
}

/** Check a scripted login outcome and fill in the defaults (except `reuseDetection`). */
export function normalizeOutcome(outcome: LoginOutcome): Required<Omit<LoginOutcome, 'reuseDetection'>> & {
  reuseDetection: string[] | undefined;
} {
  if (typeof outcome !== 'object' || outcome === null)
    throw new OptionsError('Invalid login outcome: expected an object');
  const affiliations = outcome.affiliations ?? DEFAULT_LOGIN_OUTCOME.affiliations;
  if (!Array.isArray(affiliations) || affiliations.some((a) => !HELD.includes(a))) {
    throw new OptionsError(`Invalid login outcome "affiliations": use values among ${HELD.join(', ')}`);
  }
  const userId = outcome.userId ?? DEFAULT_LOGIN_OUTCOME.userId;
  if (typeof userId !== 'string' || userId === '') {
    throw new OptionsError('Invalid login outcome "userId": expected a non-empty string');
  }
  if (outcome.reuseDetection !== undefined && !stringArray(outcome.reuseDetection)) {
    throw new OptionsError('Invalid login outcome "reuseDetection": expected an array of strings');
  }
  for (const name of ['authenticated', 'releasesInformation', 'consent'] as const) {
    if (outcome[name] !== undefined && typeof outcome[name] !== 'boolean') {
      throw new OptionsError(`Invalid login outcome "${name}": expected a boolean`);
    }
  }
  return {
    affiliations: [...affiliations],
    userId,
    authenticated: outcome.authenticated ?? true,
    releasesInformation: outcome.releasesInformation ?? true,
    consent: outcome.consent ?? true,
    reuseDetection: outcome.reuseDetection === undefined ? undefined : [...outcome.reuseDetection],
  };
}

function positive(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new OptionsError(`Invalid option "${name}": expected a positive number`);
  }
  return value;
}

function nonNegative(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new OptionsError(`Invalid option "${name}": expected a number >= 0`);
  }
  return value;
}

function checkUrl(value: unknown, name: string): void {
  if (typeof value !== 'string' || !URL.canParse(value)) {
    throw new OptionsError(`Invalid option "${name}": expected an absolute URL`);
  }
  const { protocol } = new URL(value);
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new OptionsError(`Invalid option "${name}": expected an http: or https: URL`);
  }
}

function stringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}
