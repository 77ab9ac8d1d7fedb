/**
 * `affiliation-validation doctor`: a merchant's configuration checked against a live provider with the
 * SDK's own modules, so the doctor passes exactly what the SDK accepts: the option checks of
 * `AffiliationClient`, `AffiliationClient.discover()` (discovery, its checks and the issuer rule) and
 * `createAuthorizationRequest()` (the probe). What the SDK does not do by itself — looking at each
 * signing key, reading where the provider sends the browser, asking the token endpoint to authenticate
 * the client — is done here, through the same HTTP layer.
 */
import { randomBytes } from 'node:crypto';
import { importJWK, type JWK } from 'jose';
import { ClientSecretBasic, ClientSecretPost } from 'openid-client';
import { TransportError } from '../core/errors.js';
import { redact, redactUrl } from '../core/redact.js';
import { HttpClient } from '../http/client.js';
import { AffiliationClient } from '../rp/client.js';
import { checkIssuerOption, checkSecureUrl, discoveryUrl, type ProviderMetadata } from '../rp/discovery.js';
import { ValidationError } from '../rp/errors.js';
import type { AffiliationClientOptions } from '../rp/options.js';

/** Options of {@link runDoctor}: the configuration a merchant would give `AffiliationClient.discover`. */
export type DoctorOptions = Pick<
  AffiliationClientOptions,
  'issuer' | 'clientId' | 'redirectUri' | 'tokenEndpointAuthMethod' | 'timeoutMs' | 'fetch'
> & {
  /** The client secret. When given, the token endpoint is asked to authenticate the client. Never printed. */
  clientSecret?: string | undefined;
};

/** Outcome of one check: `pass`, `fail` (a problem), or `skip` (could not be checked, or not asked for). */
export type DoctorStatus = 'pass' | 'fail' | 'skip';

/** One line of the checklist. @group Doctor */
export interface DoctorCheck {
  /** Stable identifier, e.g. `discovery_reachable`. */
  id: DoctorCheckId;
  /** What was checked, in a few words. */
  title: string;
  status: DoctorStatus;
  /** One line: why it passed or failed. Never contains secrets. */
  detail: string;
}

/** The result of {@link runDoctor}. `ok` is false when any check failed. @group Doctor */
export interface DoctorReport {
  ok: boolean;
  checks: DoctorCheck[];
}

/** The doctor's checks, in the order they run, with their titles. */
const TITLES = {
  issuer_url: 'Issuer URL',
  redirect_uri_url: 'Redirect URI',
  discovery_reachable: 'Discovery document reachable',
  discovery_valid: 'Discovery document valid',
  issuer_consistent: 'Issuer consistent',
  authorization_endpoint: 'Authorization endpoint',
  jwks_fetchable: 'Signing keys fetchable',
  jwks_usable: 'Signing keys usable',
  client_id_registered: 'client_id registered',
  redirect_uri_registered: 'redirect_uri registered',
  client_credentials: 'Client credentials',
};

/** Identifiers of the doctor's checks, in the order they run. */
export type DoctorCheckId = keyof typeof TITLES;

/** A check's outcome and its detail. */
type Verdict = [DoctorStatus, string];

/** The SDK's own check of a configured URL: its error as a failure, else `pass` with what `detail` says. */
function urlVerdict(check: () => URL, detail: (url: URL) => string): Verdict {
  try {
    return ['pass', detail(check())];
  } catch (error) {
    return ['fail', errorDetail(error)];
  }
}

/** An error's message for a check's detail (which `add` redacts, as every detail). */
function errorDetail(error: unknown): string {
  return error instanceof Error ? error.message : 'unexpected error';
}

/**
 * Check a merchant's configuration against a live provider: discovery, issuer, signing keys, and
 * — with one authorization request whose redirect is read but not followed — that the client_id
 * and redirect_uri are registered. With a client secret, also that the token endpoint accepts the
 * client's credentials (with a code that cannot be valid, so nothing is issued).
 *
 * Never throws for a bad configuration or a misbehaving server: every problem is a failed check.
 *
 * @example
 * ```ts
 * const report = await runDoctor({ issuer: 'https://op.example.org', clientId: 'shop', redirectUri: 'https://shop.example/cb' });
 * if (!report.ok) console.log(report.checks.filter((c) => c.status === 'fail'));
 * ```
 * @group Doctor
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const secrets = [options.clientSecret];
  const http = new HttpClient({
    fetch: options.fetch,
    timeoutMs: options.timeoutMs ?? 10_000,
    // A doctor reports what it sees now; retrying would only delay the answer.
    retries: 0,
    maxResponseBytes: 1024 * 1024,
    secrets,
    userAgent: 'affiliation-validation-doctor',
  });
  const checks: DoctorCheck[] = [];
  const add = (id: DoctorCheckId, status: DoctorStatus, detail: string): void => {
    checks.push({ id, title: TITLES[id], status, detail: redact(detail, secrets) });
  };
  const skipRest = (why: string): DoctorReport => {
    for (const id of Object.keys(TITLES) as DoctorCheckId[]) {
      if (!checks.some((c) => c.id === id)) add(id, 'skip', why);
    }
    return { ok: checks.every((c) => c.status !== 'fail'), checks };
  };

  // 1. The configured URLs, by the checks AffiliationClient applies to its options.
  const issuer = urlVerdict(
    () => checkIssuerOption(options.issuer),
    (url) => `${url.protocol.slice(0, -1)} on ${url.host}`,
  );
  add('issuer_url', ...issuer);
  const redirect = urlVerdict(
    () => checkSecureUrl(options.redirectUri, 'redirectUri', (m) => new Error(m)),
    () => redactUrl(options.redirectUri),
  );
  add('redirect_uri_url', ...redirect);
  if (issuer[0] === 'fail') return skipRest('needs a valid issuer URL');
  const redirectProblem = redirect[0] === 'fail';

  // 2. Discovery and the issuer rule: AffiliationClient.discover(), exactly as the shop calls it.
  const reached = `HTTP 200 from ${discoveryUrl(options.issuer)}`;
  let client: AffiliationClient;
  try {
    client = await AffiliationClient.discover({
      issuer: options.issuer,
      clientId: options.clientId,
      // Without a secret the credential check is skipped; discover() only needs a value.
      clientSecret: options.clientSecret ?? 'doctor-without-client-secret',
      // A redirect URI the SDK refuses is reported above; discover with a stand-in to go on.
      redirectUri: redirectProblem ? 'http://127.0.0.1/doctor' : options.redirectUri,
      tokenEndpointAuthMethod: options.tokenEndpointAuthMethod,
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
    });
  } catch (error) {
    const detail = errorDetail(error);
    if (error instanceof ValidationError && error.code === 'issuer_mismatch') {
      add('discovery_reachable', 'pass', reached);
      add('discovery_valid', 'pass', 'the document is a valid provider configuration');
      add('issuer_consistent', 'fail', `${detail}; use the provider's issuer`);
    } else if (error instanceof TransportError && error.code === 'invalid_response' && error.status === 200) {
      if (/did not answer with JSON/.test(error.message)) add('discovery_reachable', 'fail', detail);
      else {
        add('discovery_reachable', 'pass', reached);
        add('discovery_valid', 'fail', detail);
      }
    } else {
      add('discovery_reachable', 'fail', detail);
    }
    return skipRest('needs a discovery document that AffiliationClient.discover() accepts');
  }
  add('discovery_reachable', 'pass', reached);
  add('discovery_valid', 'pass', 'authorization, token and jwks endpoints present');
  const { metadata } = client;
  add(
    'issuer_consistent',
    'pass',
    metadata.issuer === options.issuer
      ? `the document's issuer is ${metadata.issuer}`
      : `differs only by a trailing slash; ID tokens must carry "${metadata.issuer}" exactly`,
  );
  const authorizationEndpoint = new URL(metadata.authorization_endpoint);
  add('authorization_endpoint', 'pass', authorizationEndpoint.href);
  const usableAlgs = metadata.id_token_signing_alg_values_supported.filter((a) => a !== 'none');

  // 5. Keys.
  const [fetchable, usable] = await checkKeys(http, new URL(metadata.jwks_uri), usableAlgs);
  add('jwks_fetchable', ...fetchable);
  add('jwks_usable', ...usable);

  // 6. The probe: the shop's own authorization request (createAuthorizationRequest), not followed.
  const notProbed: Verdict = ['skip', 'needs a redirect URI that the SDK accepts'];
  const [clientId, redirectUri] = redirectProblem
    ? [notProbed, notProbed]
    : await probeAuthorization(
        http,
        (await client.createAuthorizationRequest({ affiliation: 'member' })).url,
        authorizationEndpoint,
        options,
      );
  add('client_id_registered', ...clientId);
  add('redirect_uri_registered', ...redirectUri);

  // 7. Client credentials, when a secret was given.
  add('client_credentials', ...(await checkCredentials(http, metadata, options, clientId[0] === 'fail')));

  return { ok: checks.every((c) => c.status !== 'fail'), checks };
}

/** The key set: can it be fetched, and can its signing keys verify ID tokens? */
async function checkKeys(http: HttpClient, jwksUri: URL, usableAlgs: string[]): Promise<[Verdict, Verdict]> {
  const keys = await fetchKeySet(http, jwksUri);
  const unread: Verdict = ['skip', 'needs the key set'];
  if (typeof keys === 'string') return [['fail', keys], unread];

  const problems: string[] = [];
  const kids = new Set<string>();
  const usable: string[] = [];
  const signing = keys.filter(
    (k): k is JWK => typeof k === 'object' && k !== null && (k as JWK).use !== 'enc',
  );
  if (keys.some((k) => typeof k !== 'object' || k === null)) {
    problems.push('the set holds entries that are not JSON objects');
  }
  for (const [index, jwk] of signing.entries()) {
    const label = typeof jwk.kid === 'string' ? `key "${jwk.kid}"` : `key #${index + 1}`;
    if (typeof jwk.kid !== 'string' || jwk.kid === '') problems.push(`${label} has no "kid"`);
    else if (kids.has(jwk.kid)) problems.push(`"kid" ${jwk.kid} is used twice`);
    else kids.add(jwk.kid);
    if (jwk.alg === 'none') {
      problems.push(`${label} declares alg "none"`);
      continue;
    }
    if ('d' in jwk || 'p' in jwk || 'k' in jwk) {
      problems.push(`${label} exposes private or symmetric key material`);
      continue;
    }
    const type = KEY_TYPES.get(String(jwk.kty));
    const alg = jwk.alg ?? (type && (usableAlgs.find((a) => type.algs.test(a)) ?? type.fallback));
    if (!alg) {
      problems.push(`${label} has an unsupported key type "${String(jwk.kty)}"`);
      continue;
    }
    if (jwk.kty === 'RSA' && typeof jwk.n === 'string') {
      // jose refuses RSA keys under 2048 bits when verifying, so such a key could never be used.
      const bits = Buffer.from(jwk.n, 'base64url').length * 8;
      if (bits < 2048) {
        problems.push(`${label} has a ${bits}-bit RSA modulus; at least 2048 bits are needed`);
        continue;
      }
    }
    try {
      await importJWK(jwk, alg);
      usable.push(alg);
    } catch (error) {
      problems.push(`${label} cannot be used for ${alg}: ${errorDetail(error)}`);
    }
  }
  if (signing.length === 0) problems.push('the set holds no signing keys');
  else if (usableAlgs.length > 0 && !usable.some((a) => usableAlgs.includes(a))) {
    problems.push(`no key fits the advertised algorithms (${usableAlgs.join(', ')})`);
  }
  const fetched: Verdict = ['pass', `${keys.length} key(s) from ${jwksUri.href}`];
  if (problems.length) return [fetched, ['fail', problems.join('; ')]];
  const algs = [...new Set(usable)].join(', ');
  return [fetched, ['pass', `${usable.length} signing key(s) with kid, algorithms ${algs}`]];
}

/** The keys of the provider's JWK set, or why they could not be read. */
async function fetchKeySet(http: HttpClient, jwksUri: URL): Promise<unknown[] | string> {
  try {
    const res = await http.fetch(jwksUri, { headers: { accept: 'application/json' } });
    if (res.status !== 200) return `HTTP ${res.status} from ${jwksUri.href}`;
    // JSON has no undefined: it stands for a body that is not JSON.
    const body: unknown = await res.json().catch(() => undefined);
    if (body === undefined) return `${jwksUri.href} did not answer with JSON`;
    const keys = (body as { keys?: unknown } | null)?.keys;
    return Array.isArray(keys) ? keys : `${jwksUri.href} is not a JWK set (no "keys" array)`;
  } catch (error) {
    return errorDetail(error);
  }
}

/** What each key type signs with, and the algorithm assumed when neither the key nor the provider names one. */
const KEY_TYPES = new Map([
  ['RSA', { algs: /^(RS|PS)\d+$/, fallback: 'RS256' }],
  ['EC', { algs: /^ES\d+K?$/, fallback: 'ES256' }],
  ['OKP', { algs: /^(EdDSA|Ed25519)$/, fallback: 'EdDSA' }],
]);

/** Is the client_id registered, and the redirect URI? Read from where the provider sends the browser. */
async function probeAuthorization(
  http: HttpClient,
  probeUrl: string,
  endpoint: URL,
  options: DoctorOptions,
): Promise<[Verdict, Verdict]> {
  const unanswered: Verdict = ['skip', 'needs an answer to the probe'];
  let res: Response;
  try {
    res = await http.fetch(probeUrl, { redirect: 'manual', headers: { accept: 'text/html' } });
  } catch (error) {
    return [['fail', `the probe authorization request failed: ${errorDetail(error)}`], unanswered];
  }
  const accepted: Verdict = ['pass', `client_id "${options.clientId}" accepted`];
  if (res.status === 200) return [accepted, ['pass', 'the provider started a validation (HTTP 200)']];
  const location = res.headers.get('location');
  const target = location ? URL.parse(location, endpoint) : null;
  if (res.status < 300 || res.status >= 400 || !target) {
    return [['fail', `the probe authorization request got HTTP ${res.status}`], unanswered];
  }
  const where = `the provider sends the shopper to ${redactUrl(target.href)}`;
  if (/\/error-client-id\/?$/.test(target.pathname)) {
    return [
      ['fail', `${where}: client_id "${options.clientId}" is not registered`],
      ['skip', 'the provider rejected the client_id first'],
    ];
  }
  if (/\/error-redirect-uri\/?$/.test(target.pathname)) {
    return [accepted, ['fail', `${where}: this redirect URI is not registered for the client`]];
  }
  const redirect = URL.parse(options.redirectUri);
  if (!redirect || target.origin !== redirect.origin || target.pathname !== redirect.pathname) {
    return [accepted, ['pass', `the provider started a validation (next: ${redactUrl(target.href)})`]];
  }
  const error = new URLSearchParams(target.hash ? target.hash.slice(1) : target.search).get('error');
  const refused = error === 'unauthorised_client' || error === 'unauthorized_client';
  const back: Verdict = ['pass', `the provider redirected back to it${error ? ` (with "${error}")` : ''}`];
  return [refused ? ['fail', `the provider answered "${error}": the client is not allowed`] : accepted, back];
}

/** Does the token endpoint accept the client's credentials? Asked with a code that cannot be valid. */
async function checkCredentials(
  http: HttpClient,
  doc: ProviderMetadata,
  options: DoctorOptions,
  clientRefused: boolean,
): Promise<Verdict> {
  if (!options.clientSecret) {
    return ['skip', 'set AV_CLIENT_SECRET to check the client secret at the token endpoint'];
  }
  // discover() has checked the endpoint (https:, or http: on loopback) when the document has one.
  if (doc.token_endpoint === undefined) return ['skip', 'needs a usable token endpoint'];
  if (clientRefused) return ['skip', 'the client_id is not registered'];
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    // A code that cannot exist: the provider must reject the code, after authenticating the client.
    code: `doctor-probe-${randomBytes(16).toString('base64url')}`,
    redirect_uri: options.redirectUri,
    code_verifier: randomBytes(32).toString('base64url'),
  });
  const headers = new Headers({
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  });
  // openid-client's own client authentication, as the SDK's token requests use it.
  const authenticate =
    options.tokenEndpointAuthMethod === 'client_secret_post' ? ClientSecretPost : ClientSecretBasic;
  authenticate(options.clientSecret)({ issuer: doc.issuer }, { client_id: options.clientId }, body, headers);
  try {
    const res = await http.fetch(doc.token_endpoint, { method: 'POST', headers, body });
    const error = await res.json().then(
      (answer: { error?: unknown } | null) => answer?.error,
      () => undefined,
    );
    if (error === 'invalid_client' || res.status === 401) {
      return ['fail', 'the token endpoint rejected the client credentials (invalid_client)'];
    }
    if (typeof error === 'string')
      return ['pass', `accepted; the probe code was refused as expected (${error})`];
    return ['fail', `unexpected answer from the token endpoint (HTTP ${res.status})`];
  } catch (error) {
    return ['fail', errorDetail(error)];
  }
}
