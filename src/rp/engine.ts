/**
 * openid-client 6 as the protocol engine: discovery, the authorization URL, PKCE, the code grant with
 * non-repudiation checks (the ID token's signature verified once, by openid-client, with the
 * algorithm pinned to what discovery advertises minus `none` and HMAC), the `id_token` flow and
 * userinfo. Every request after discovery goes through the SDK's HTTP layer as openid-client's
 * `customFetch` ({@link Engine.fetch}), which refuses token and userinfo answers that are not the
 * JSON the service sends before openid-client reads them.
 *
 * Key rollover: openid-client refetches the keys for an unknown `kid` only when the keys it holds
 * are a minute old, so a token signed with a new key within a minute of a key fetch would be refused.
 * The engine therefore replaces its Configurations after every key answer with new ones seeded with
 * the last good key set dated a minute back: an unknown `kid` always asks {@link Engine.fetch} for
 * the keys, which goes to the network at most once per {@link KEY_REFRESH_INTERVAL_MS} (the first
 * fetch not counted) and answers with the keys held otherwise, or when the request fails. (A new
 * Configuration per call would do the same, but openid-client would import the keys again for each.)
 */
import * as oidc from 'openid-client';
import { mediaType } from '../core/body.js';
import { AffiliationError, TransportError } from '../core/errors.js';
import { keysChannel, tokenChannel, traceAsync } from '../diagnostics/channels.js';
import { type HttpAnswer, type HttpClient, toResponse } from '../http/client.js';
import type { ProviderMetadata } from './discovery.js';
import { discoveryUrl, documentProblem, issuersMatch, usableAlgorithms } from './discovery.js';
import { type EngineSource, endpointError, fromEngine } from './engine-errors.js';
import { ValidationError } from './errors.js';
import type { CheckedOptions } from './options.js';

/** Least time between two requests for the provider's keys once some are held, in ms. */
export const KEY_REFRESH_INTERVAL_MS = 10_000;
/** Age at which openid-client refetches for an unknown `kid` (its rule), in seconds. */
const OPENID_CLIENT_UNKNOWN_KID_AGE_S = 60;
/** Age at which openid-client no longer takes a key cache it is given (its rule), in seconds. */
const OPENID_CLIENT_KEYS_MAX_AGE_S = 300;

/** The last good key set: its JSON text, parsed, and when it was fetched (ms since epoch). */
interface HeldKeys {
  text: string;
  jwks: oidc.JWKS;
  fetchedAt: number;
}

type Endpoint = 'token' | 'userinfo' | 'jwks';

/** The seed of a Configuration's key cache: when its keys count as fetched (openid-client's `uat`). */
type Seed = { uat: number } | undefined;

/** One call of the engine: the values to redact from what it reports, and the ID token it received. */
interface Call {
  secrets: readonly (string | undefined)[];
  idToken?: string;
  /** The endpoint's error answer, for the token channel even when openid-client reads it on. */
  failure?: AffiliationError;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * openid-client's request options as `fetch` takes them, without its signal (the HTTP layer times
 * requests) and its `user-agent` (the HTTP layer's applies).
 */
function requestInit(init: oidc.CustomFetchOptions): RequestInit {
  const { signal: _signal, headers, ...rest } = init;
  const { 'user-agent': _agent, ...kept } = headers;
  return { ...rest, headers: kept } as RequestInit;
}

const utf8 = new TextDecoder();

/** A body as text (UTF-8, as `Response.text()` reads it) and as JSON (`undefined` when not JSON). */
function readJson(answer: HttpAnswer): { text: string; body: unknown } {
  const text = answer.body === null ? '' : utf8.decode(answer.body);
  try {
    return { text, body: JSON.parse(text) };
  } catch {
    return { text, body: undefined };
  }
}

/** A 200 JSON answer for openid-client, which insists on the media type (the SDK accepts any JSON). */
function jsonAnswer(text: string): Response {
  return new Response(text, { headers: { 'content-type': 'application/json' } });
}

/**
 * Discovery through the HTTP layer, the document checked before openid-client reads it: the
 * SDK's TransportErrors (status, not JSON, a member the SDK needs) come from here.
 */
async function fetchDiscovery(
  http: HttpClient,
  url: string,
  init: oidc.CustomFetchOptions,
  onDocument: (doc: ProviderMetadata) => void,
): Promise<Response> {
  const answer = await http.read(url, requestInit(init));
  const error = (message: string, code: 'http_status' | 'invalid_response') =>
    new TransportError(`Discovery at ${url} ${message}`, {
      code,
      status: answer.status,
      method: 'GET',
      url,
    });
  if (answer.status !== 200) throw error(`answered HTTP ${answer.status}`, 'http_status');
  const { text, body } = readJson(answer);
  if (body === undefined) throw error('did not answer with JSON', 'invalid_response');
  const problem = documentProblem(body);
  if (problem !== undefined) {
    throw error(`returned an invalid provider configuration: ${problem}`, 'invalid_response');
  }
  onDocument(body as ProviderMetadata);
  return jsonAnswer(text);
}

export class Engine {
  /** The provider configuration as discovered. */
  readonly metadata: ProviderMetadata;
  readonly #o: CheckedOptions;
  /** What openid-client sees: the document with the ID token algorithms pinned. */
  readonly #server: oidc.ServerMetadata;
  readonly #auth: oidc.ClientAuth;
  readonly #endpoints = new Map<string, Endpoint>();
  readonly #jwksUri: string;
  /** The last good key set (its JSON text) and when it was fetched (ms): seeds and fallbacks. */
  #keys: HeldKeys | undefined;
  /** When keys already held were last requested again: the rate limit counts these only. */
  #refreshAt = Number.NEGATIVE_INFINITY;
  #keysRequest: Promise<void> | undefined;
  /** A Configuration per flow, until the next key answer (see the file's comment). */
  #configs: { code?: oidc.Configuration; implicit?: oidc.Configuration } = {};
  /** The calls under way, by the credential their request carries: the code, or the access token. */
  readonly #calls = new Map<string, Call>();

  private constructor(options: CheckedOptions, metadata: ProviderMetadata) {
    this.#o = options;
    this.metadata = metadata;
    this.#server = {
      ...structuredClone(metadata),
      id_token_signing_alg_values_supported: usableAlgorithms(metadata),
    } as oidc.ServerMetadata;
    this.#auth =
      options.tokenEndpointAuthMethod === 'client_secret_post'
        ? oidc.ClientSecretPost(options.clientSecret)
        : oidc.ClientSecretBasic(options.clientSecret);
    this.#jwksUri = new URL(metadata.jwks_uri).href;
    this.#endpoints.set(this.#jwksUri, 'jwks');
    if (metadata.token_endpoint) this.#endpoints.set(new URL(metadata.token_endpoint).href, 'token');
    if (metadata.userinfo_endpoint) this.#endpoints.set(new URL(metadata.userinfo_endpoint).href, 'userinfo');
  }

  /**
   * `discovery()` through the HTTP layer, then the issuer rule of spec 2.4: the configured issuer
   * and the document's may differ by one trailing slash (openid-client compares them as URLs, so it
   * refuses `{base_url}/` for `{base_url}` with a path, and accepts a different letter case in the
   * host, which the SDK refuses).
   */
  static async discover(options: CheckedOptions): Promise<Engine> {
    let document: ProviderMetadata | undefined;
    const customFetch = (url: string, init: oidc.CustomFetchOptions) =>
      fetchDiscovery(options.http, url, init, (doc) => {
        document = doc;
      });
    try {
      await oidc.discovery(new URL(options.issuer), options.clientId, undefined, undefined, {
        [oidc.customFetch]: customFetch,
        execute: [oidc.allowInsecureRequests],
      });
    } catch (error) {
      const cause = (error as { cause?: unknown } | null)?.cause;
      if (cause instanceof AffiliationError) throw cause;
      // OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED on `issuer` (cause: expected, body, attribute): the
      // document itself is in hand and checked; the SDK's issuer rule decides below.
      const code = (error as { code?: unknown } | null)?.code;
      if (
        document === undefined ||
        (code !== 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED' && !(error instanceof TypeError))
      ) {
        throw new TransportError(`Discovery at ${discoveryUrl(options.issuer)} failed`, {
          code: 'invalid_response',
          cause: error,
        });
      }
    }
    const metadata = document as ProviderMetadata;
    if (!issuersMatch(options.issuer, metadata.issuer)) {
      throw new ValidationError(
        `Discovery document issuer "${metadata.issuer}" does not match the configured issuer "${options.issuer}"`,
        { code: 'issuer_mismatch' },
      );
    }
    if (
      metadata.code_challenge_methods_supported &&
      !metadata.code_challenge_methods_supported.includes('S256')
    ) {
      options.logger.warn?.('the provider does not advertise PKCE S256; sending it anyway', {
        issuer: metadata.issuer,
      });
    }
    options.logger.debug?.('provider discovered', { issuer: metadata.issuer });
    return new Engine(options, metadata);
  }

  /** The flow's Configuration, made on first use after a key answer (see the file's comment). */
  #config(flow: 'code' | 'implicit'): oidc.Configuration {
    const made = this.#configs[flow];
    if (made !== undefined) return made;
    const config = new oidc.Configuration(
      this.#server,
      this.#o.clientId,
      { client_secret: this.#o.clientSecret, [oidc.clockTolerance]: this.#o.clockToleranceSeconds },
      this.#auth,
    );
    // Dated a minute back, and seeded only while openid-client takes it (younger than its five minutes).
    const now = Math.floor(Date.now() / 1000);
    const uat =
      this.#keys && Math.min(Math.floor(this.#keys.fetchedAt / 1000), now) - OPENID_CLIENT_UNKNOWN_KID_AGE_S;
    const seed =
      uat !== undefined && now - uat < OPENID_CLIENT_KEYS_MAX_AGE_S
        ? { jwks: this.#keys?.jwks, uat }
        : undefined;
    // The HTTP layer owns the time limit: no AbortSignal per request.
    config.timeout = 0;
    config[oidc.customFetch] = (url, init) => this.fetch(url, init, seed);
    // The endpoints are https:, or http: on a loopback host: documentProblem refused the document otherwise.
    oidc.allowInsecureRequests(config);
    if (flow === 'code') oidc.enableNonRepudiationChecks(config);
    else oidc.useIdTokenResponseType(config);
    if (seed !== undefined) oidc.setJwksCache(config, seed as oidc.ExportedJWKSCache);
    this.#configs[flow] = config;
    return config;
  }

  /** Run one call, known to `fetch` by its credential while it lasts. */
  async #during<T>(credential: string, call: Call, run: () => Promise<T>): Promise<T> {
    this.#calls.set(credential, call);
    try {
      return await run();
    } finally {
      this.#calls.delete(credential);
    }
  }

  /** The authorization URL with these parameters, in this order (openid-client's `buildAuthorizationUrl`). */
  authorizationUrl(parameters: [string, string][]): URL {
    return oidc.buildAuthorizationUrl(this.#config('code'), new URLSearchParams(parameters));
  }

  /**
   * The code grant: the token request (PKCE verifier, the configured redirect URI), the ID token's
   * claims (OpenID Connect Core §3.1.3.7) and its signature, by openid-client.
   */
  async codeGrant(
    callback: URL,
    checks: { state: string; nonce: string; codeVerifier: string | undefined },
    secrets: readonly (string | undefined)[],
  ) {
    const call: Call = { secrets };
    try {
      const tokens = await this.#during(callback.searchParams.get('code') ?? '', call, () =>
        oidc.authorizationCodeGrant(this.#config('code'), callback, {
          ...(checks.codeVerifier !== undefined && { pkceCodeVerifier: checks.codeVerifier }),
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        }),
      );
      return {
        claims: tokens.claims() as Record<string, unknown>,
        idToken: tokens.id_token as string,
        accessToken: tokens.access_token,
      };
    } catch (error) {
      throw await this.#mapped(error, 'token', secrets, call.idToken, checks.nonce);
    }
  }

  /** The `id_token` flow (openid-client's `implicitAuthentication`): the token's claims and signature. */
  async implicit(callback: URL, checks: { state: string; nonce: string }): Promise<Record<string, unknown>> {
    try {
      const claims = await oidc.implicitAuthentication(this.#config('implicit'), callback, checks.nonce, {
        expectedState: checks.state,
      });
      return claims as Record<string, unknown>;
    } catch (error) {
      const idToken = new URLSearchParams(callback.hash.slice(1)).get('id_token') ?? undefined;
      throw await this.#mapped(error, 'id_token', [checks.nonce], idToken, checks.nonce);
    }
  }

  /** Userinfo (OIDC Core §5.3), its `sub` compared with the ID token's by openid-client. */
  async userinfo(accessToken: string, subject: string, secrets: readonly (string | undefined)[]) {
    try {
      return (await this.#during(accessToken, { secrets }, () =>
        oidc.fetchUserInfo(this.#config('code'), accessToken, subject),
      )) as Record<string, unknown>;
    } catch (error) {
      throw await this.#mapped(error, 'userinfo', secrets);
    }
  }

  #mapped(
    error: unknown,
    source: EngineSource,
    secrets: readonly (string | undefined)[],
    idToken?: string,
    nonce?: string,
  ) {
    return fromEngine(error, {
      source,
      clientId: this.#o.clientId,
      secrets: [this.#o.clientSecret, ...secrets],
      idToken,
      nonce,
      issuer: this.metadata.issuer,
      algorithms: usableAlgorithms(this.metadata),
      clockToleranceSeconds: this.#o.clockToleranceSeconds,
      keyCount: this.#keys?.jwks.keys.length ?? 0,
    });
  }

  /**
   * openid-client's `customFetch`: every request of the engine after discovery, through the SDK's
   * HTTP layer, told apart by endpoint. The HTTP layer's time limit applies (openid-client's signal
   * is dropped).
   */
  async fetch(url: string, init: oidc.CustomFetchOptions, seed?: Seed): Promise<Response> {
    const rest = requestInit(init);
    const endpoint = this.#endpoints.get(url);
    const credential =
      endpoint === 'token'
        ? new URLSearchParams(String(init.body)).get('code')
        : init.headers.authorization?.replace(/^\S+ /, '');
    const call = this.#calls.get(credential ?? '') ?? { secrets: [] };
    switch (endpoint) {
      case 'jwks':
        return this.#fetchKeys(seed);
      case 'token':
        // An error answer openid-client reads (invalid_grant, …) fails the request all the same: with
        // the code the callback reports.
        return traceAsync(
          tokenChannel,
          () => ({ method: rest.method ?? 'POST', url }),
          async () => this.#checked(await this.#o.http.read(url, rest), 'token', call),
          (ctx, response) => {
            ctx.status = response.status;
            return call.failure;
          },
        );
      case 'userinfo':
        return this.#checked(await this.#o.http.read(url, rest), 'userinfo', call);
      default:
        return this.#o.http.fetch(url, rest);
    }
  }

  /**
   * A token or userinfo answer, refused before openid-client reads it when it is not what the service
   * sends: a success that is not a JSON object (a signed userinfo JWT included), a token response
   * without a Bearer access token or an ID token, an error without a challenge that openid-client
   * would not read (userinfo's body, a token error body without an OAuth `error`): `endpointError`
   * decides. What remains is handed over as it is.
   */
  #checked(answer: HttpAnswer, source: 'token' | 'userinfo', call: Call): Response {
    const { body } = readJson(answer);
    const fail = (message: string) => new TransportError(message, { code: 'invalid_response', status: 200 });
    if (answer.status !== 200) {
      const stated = isObject(body) ? body : undefined;
      const secrets = [this.#o.clientSecret, ...call.secrets];
      call.failure = endpointError(source, answer.status, stated, undefined, secrets);
      const named = typeof stated?.error === 'string' && stated.error !== '';
      if (!answer.headers.has('www-authenticate') && (source === 'userinfo' || !named)) throw call.failure;
    } else if (source === 'userinfo' && mediaType(answer.headers.get('content-type')) === 'application/jwt') {
      throw fail('The userinfo endpoint answered a signed JWT; only JSON userinfo is supported');
    } else if (!isObject(body)) {
      throw fail(`The ${source} endpoint did not answer with a JSON object`);
    } else if (source === 'token') {
      if (
        typeof body.access_token !== 'string' ||
        body.access_token === '' ||
        typeof body.token_type !== 'string'
      ) {
        throw fail('The token endpoint answered with an unusable token response (access_token, token_type)');
      }
      // oauth4webapi also takes DPoP-bound tokens; the service issues Bearer tokens only.
      if (body.token_type.toLowerCase() !== 'bearer')
        throw fail('The token response has no token_type "Bearer"');
      if (typeof body.id_token !== 'string' || body.id_token === '') {
        throw new ValidationError('The token response carries no ID token', { code: 'missing_parameters' });
      }
      call.idToken = body.id_token;
    }
    return toResponse(answer);
  }

  /**
   * The key set for openid-client. With keys held: at most one request again per
   * {@link KEY_REFRESH_INTERVAL_MS} (the first fetch does not count, so a rollover right after it is
   * refreshed), and the held keys when the request fails.
   */
  async #fetchKeys(seed: Seed): Promise<Response> {
    if (this.#keys === undefined || Date.now() - this.#refreshAt >= KEY_REFRESH_INTERVAL_MS) {
      // Asked while the seed still counted: openid-client lacked the token's `kid`.
      const forced = seed !== undefined && Date.now() / 1000 - seed.uat < OPENID_CLIENT_KEYS_MAX_AGE_S;
      this.#keysRequest ??= this.#requestKeys(forced).finally(() => {
        this.#keysRequest = undefined;
      });
      await this.#keysRequest;
    }
    // The next calls get Configurations seeded with these keys dated a minute back.
    this.#configs = {};
    return jsonAnswer((this.#keys as HeldKeys).text);
  }

  /**
   * One request for the key set; on failure the held keys stay (or the error is thrown when none are
   * held). `forced`: a token named a `kid` that the keys held lack.
   */
  async #requestKeys(forced: boolean): Promise<void> {
    const url = this.#jwksUri;
    if (this.#keys !== undefined) this.#refreshAt = Date.now();
    try {
      this.#keys = await traceAsync(
        keysChannel,
        () => ({ method: 'GET', url, forced }),
        () => this.#downloadKeys(url),
        (ctx, keys) => {
          ctx.status = 200;
          ctx.responseBytes = new TextEncoder().encode(keys.text).byteLength;
        },
      );
      this.#o.logger.debug?.('provider keys fetched', { url });
    } catch (error) {
      if (this.#keys === undefined) throw error;
      this.#o.logger.warn?.('could not refresh the provider keys; using the cached ones', {
        error: error instanceof Error ? error.message : 'unknown error',
      });
    }
  }

  async #downloadKeys(url: string): Promise<HeldKeys> {
    const fail = (message: string, code: 'http_status' | 'invalid_response', status?: number) =>
      new TransportError(`Provider keys at ${url}: ${message}`, { code, status, method: 'GET', url });
    const answer = await this.#o.http.read(url, {
      headers: { accept: 'application/jwk-set+json, application/json' },
    });
    if (answer.status !== 200) throw fail(`HTTP ${answer.status}`, 'http_status', answer.status);
    const { text, body } = readJson(answer);
    if (body === undefined) throw fail('not JSON', 'invalid_response', 200);
    if (!isObject(body) || !Array.isArray(body.keys) || !body.keys.every(isObject)) {
      throw fail('not a valid JSON Web Key Set', 'invalid_response', 200);
    }
    return { text, jwks: body as unknown as oidc.JWKS, fetchedAt: Date.now() };
  }
}
