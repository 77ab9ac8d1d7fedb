/**
 * Options and scripted data of the local test provider, with their defaults and up-front checks.
 * Every bad option throws an {@link OptionsError} that names it.
 */
import { z } from 'zod';
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

const HELD: HeldAffiliation[] = [...AFFILIATIONS, 'faculty', 'staff', 'affiliate', 'alum'];
const NON_EMPTY = 'expected a non-empty string';
const nonEmpty = z.string({ error: NON_EMPTY }).min(1, NON_EMPTY);
const httpUrl = z.url({ protocol: /^https?$/, error: 'expected an absolute http: or https: URL' });
const positive = z.number().positive();
const errorLocation = z.enum(['query', 'fragment'], 'expected "query" or "fragment"');
const aFunction = <F>(error: string) => z.custom<F>((value) => typeof value === 'function', error);

const clientSchema = z.object({
  clientId: nonEmpty,
  clientSecret: nonEmpty,
  redirectUris: z
    .array(httpUrl.refine((uri) => !uri.includes('#'), 'must not have a fragment'))
    .min(1, 'expected at least one URL'),
  allowedScopes: z.array(z.string()).optional(),
  allowedClaims: z
    .array(z.literal('reuse_detection', 'the only additional claim is "reuse_detection"'))
    .default(() => []),
  responseTypes: z
    .array(z.enum(['code', 'id_token'], 'use "code" and/or "id_token"'))
    .default(() => ['code' as const, 'id_token' as const]),
});

const institutionSchema = z.object({
  entityId: nonEmpty,
  name: nonEmpty,
  releasesReuseDetection: z.boolean().default(true),
  edugain: z.boolean().default(true),
  persistentIdentifiers: z.boolean().default(true),
});

const outcomeSchema = z.object({
  affiliations: z
    .array(z.enum(HELD, `use values among ${HELD.join(', ')}`))
    .default(() => [...DEFAULT_LOGIN_OUTCOME.affiliations]),
  userId: nonEmpty.default(DEFAULT_LOGIN_OUTCOME.userId),
  authenticated: z.boolean().default(true),
  releasesInformation: z.boolean().default(true),
  consent: z.boolean().default(true),
  // Undefined: one value derived from the institution and the user, when the grant is built.
  reuseDetection: z.array(z.string()).optional(),
});

const optionsSchema = z.object({
  clients: z.array(clientSchema).prefault(() => [DEFAULT_TEST_CLIENT]),
  institutions: z.array(institutionSchema).prefault(() => [...DEFAULT_TEST_INSTITUTIONS]),
  errorSite: httpUrl.transform((url) => url.replace(/\/+$/, '')).optional(),
  serviceName: z
    .string()
    .regex(/^[A-Za-z0-9._~-]+$/, 'expected one URL path segment such as "Service"')
    .default('Service'),
  issuerTrailingSlash: z.boolean().default(false),
  codeTtlMs: positive.default(60_000),
  idTokenTtlSeconds: positive.default(3600),
  accessTokenTtlSeconds: positive.default(3600),
  transactionTtlMs: positive.default(600_000),
  retiredKeyTtlMs: z.number().nonnegative().optional(),
  signingAlg: z.enum(JWS_ALGS, `use one of ${JWS_ALGS.join(', ')}`).default('RS256'),
  requirePkce: z.boolean().default(false),
  errorLocations: z
    .object({
      invalidScope: errorLocation.default('query'),
      unresolvableHint: errorLocation.default('query'),
      accessDenied: errorLocation.default('fragment'),
      invalidRequest: errorLocation.default('fragment'),
    })
    .prefault({}),
  subjectSecret: nonEmpty.optional(),
  now: aFunction<() => number>('expected a function returning milliseconds since the epoch').default(
    () => Date.now,
  ),
  discoveryOverrides: z.record(z.string(), z.unknown()).default(() => ({})),
  idTokenClaims: aFunction<TestProviderOptions['idTokenClaims']>('expected a function').optional(),
});

/** Parse with one of the schemas above; the first problem becomes an OptionsError naming the option. */
function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue === undefined || issue.path.length === 0 ? '' : ` "${issue.path.join('.')}"`;
  throw new OptionsError(`Invalid ${what}${path}: ${issue?.message ?? 'not valid'}`);
}

/** The provider's options after their checks, with the defaults filled in. */
export function resolveOptions(options: TestProviderOptions) {
  const resolved = parse(optionsSchema, options, 'option');
  return { ...resolved, retiredKeyTtlMs: resolved.retiredKeyTtlMs ?? resolved.idTokenTtlSeconds * 1000 };
}

/** Check a client registration and return a private copy with defaults filled in. */
export const normalizeClient = (client: TestClient) => parse(clientSchema, client, 'client option');

/** Check an institution and return a private copy with defaults filled in. */
export const normalizeInstitution = (institution: TestInstitution) =>
  parse(institutionSchema, institution, 'institution option');

/** Check a scripted login outcome and fill in the defaults (except `reuseDetection`). */
export const normalizeOutcome = (outcome: LoginOutcome) => parse(outcomeSchema, outcome, 'login outcome');
