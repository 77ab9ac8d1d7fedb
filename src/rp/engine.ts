/**
 * openid-client 6 as the protocol engine: discovery, the authorization URL, PKCE, the code grant with
 * non-repudiation checks (the ID token's signature verified once, by openid-client, with the
 * algorithm pinned to what discovery advertises minus `none` and HMAC), the `id_token` flow and
 * userinfo. The SDK adds what openid-client leaves to the relying party:
 *
 * - every request goes through the SDK's HTTP layer, as openid-client's `customFetch` ({@link
 *   Engine.fetch}: the one place where the discovery, token, userinfo and key requests are made);
 * - key rollover: openid-client keeps one key cache per `Configuration` and refetches for an
 *   unknown `kid` only when its keys are a minute old. The engine keeps the last good key set, seeds
 *   each new `Configuration` with it (`setJwksCache`) aged past that minute, and starts a new one
 *   after every key request: an unknown `kid` always gets one key refresh, at most one per
 *   {@link KEY_REFRESH_INTERVAL_MS} (a request within that interval is answered with the keys held);
 *   a failed refresh is answered with the keys held too, so they keep working.
 */
import * as oidc from 'openid-client';
import { mediaType } from '../core/body.js';
import { AffiliationError, TransportError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { keysChannel, tokenChannel, traceAsync } from '../diagnostics/channels.js';
import { type HttpAnswer, type HttpClient, toResponse } from '../http/client.js';
import type { ProviderMetadata } from './discovery.js';
import { discoveryUrl, documentProblem, issuersMatch, usableAlgorithms } from './discovery.js';
import { type EngineSource, endpointError, fromEngine } from './engine-errors.js';
import { ValidationError } from './errors.js';

/** Least time between two requests for the provider's keys once some are held, in ms. */
export const KEY_REFRESH_INTERVAL_MS = 10_000;
/** Age at which openid-client refetches for an unknown `kid` (its rule), in seconds. */
const OPENID_CLIENT_UNKNOWN_KID_AGE_S = 60;
/** Age at which openid-client drops its keys and fetches them again (its rule), in seconds. */
const OPENID_CLIENT_KEYS_MAX_AGE_S = 300;

export interface EngineOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  tokenEndpointAuthMethod: 'client_secret_basic' | 'client_secret_post';
  clockToleranceSeconds: number;
  http: HttpClient;
  logger: Logger;
}

/** The validated result of the code grant. */
export interface GrantResult {
  claims: Record<string, unknown>;
  idToken: string;
  accessToken: string;
}

/** The Configurations that share one seed of the key cache; a key request starts the next one. */
interface Generation {
  seed?: oidc.ExportedJWKSCache | undefined;
  code?: oidc.Configuration;
  implicit?: oidc.Configuration;
}

/** The last good key set: its JSON text, parsed, and when it was fetched (ms since epoch). */
interface HeldKeys {
  text: string;
  jwks: oidc.JWKS;
  fetchedAt: number;
}

type Endpoint = 'token' | 'userinfo' | 'jwks';

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
  readonly #o: EngineOptions;
  /** What openid-client sees: the document with the ID token algorithms pinned. */
  readonly #server: oidc.ServerMetadata;
  readonly #auth: oidc.ClientAuth;
  readonly #insecure: boolean;
  readonly #endpoints = new Map<string, Endpoint>();
  readonly #jwksUri: string;
  #generation: Generation = {};
  /** The last good key set (its JSON text) and when it was fetched (ms): for seeds and fallbacks. */
  #keys: HeldKeys | undefined;
  #keysAttemptAt = Number.NEGATIVE_INFINITY;
  /** When keys already held were last requested again: the rate limit counts these only. */
  #refreshAt = Number.NEGATIVE_INFINITY;
  #keysRequest: Promise<void> | undefined;

  private constructor(options: EngineOptions, metadata: ProviderMetadata) {
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
    this.#insecure = [
      metadata.authorization_endpoint,
      metadata.token_endpoint,
      metadata.userinfo_endpoint,
      metadata.jwks_uri,
    ].some((u) => u !== undefined && new URL(u).protocol === 'http:');
    this.fetch = this.fetch.bind(this);
  }

  /**
   * `discovery()` through the HTTP layer, then the issuer rule of spec 2.4: the configured issuer
   * and the document's may differ by one trailing slash (openid-client compares them as URLs, so it
   * refuses `{base_url}/` for `{base_url}` with a path, and accepts a different letter case in the
   * host, which the SDK refuses).
   */
  static async discover(options: EngineOptions): Promise<Engine> {
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

  /** A Configuration of the current generation for a flow, made on first use. */
  #config(flow: 'code' | 'implicit'): oidc.Configuration {
    const generation = this.#generation;
    let config = generation[flow];
    if (config === undefined) {
      config = new oidc.Configuration(
        this.#server,
        this.#o.clientId,
        {
          client_secret: this.#o.clientSecret,
          [oidc.clockTolerance]: this.#o.clockToleranceSeconds,
        },
        this.#auth,
      );
      // The HTTP layer owns the time limit: no AbortSignal per request.
      config.timeout = 0;
      config[oidc.customFetch] = this.fetch;
      if (this.#insecure) oidc.allowInsecureRequests(config);
      if (flow === 'code') oidc.enableNonRepudiationChecks(config);
      else oidc.useIdTokenResponseType(config);
      if (generation.seed !== undefined) oidc.setJwksCache(config, generation.seed);
      generation[flow] = config;
    }
    return config;
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
  ): Promise<GrantResult> {
    try {
      const tokens = await oidc.authorizationCodeGrant(this.#config('code'), callback, {
        ...(checks.codeVerifier !== undefined && { pkceCodeVerifier: checks.codeVerifier }),
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      // oauth4webapi also takes DPoP-bound tokens; the service issues Bearer tokens only.
      if (tokens.token_type !== 'bearer') {
        throw new TransportError('The token response has no token_type "Bearer"', {
          code: 'invalid_response',
          status: 200,
        });
      }
      const claims = tokens.claims();
      if (claims === undefined || tokens.id_token === undefined) {
        throw new ValidationError('The token response carries no ID token', { code: 'missing_parameters' });
      }
      return {
        claims: claims as Record<string, unknown>,
        idToken: tokens.id_token,
        accessToken: tokens.access_token,
      };
    } catch (error) {
      throw await this.#mapped(error, 'token', secrets);
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
      throw await this.#mapped(error, 'id_token', [checks.nonce]);
    }
  }

  /** Userinfo (OIDC Core §5.3), its `sub` compared with the ID token's by openid-client. */
  async userinfo(accessToken: string, subject: string, secrets: readonly (string | undefined)[]) {
    try {
      return (await oidc.fetchUserInfo(this.#config('code'), accessToken, subject)) as Record<
        string,
        unknown
      >;
    } catch (error) {
      throw await this.#mapped(error, 'userinfo', secrets);
    }
  }

  #mapped(error: unknown, source: EngineSource, secrets: readonly (string | undefined)[]) {
    return fromEngine(error, {
      source,
      clientId: this.#o.clientId,
      secrets: [this.#o.clientSecret, ...secrets],
    });
  }

  /**
   * openid-client's `customFetch`: every request of the engine after discovery, through the SDK's
   * HTTP layer, told apart by endpoint. The HTTP layer's time limit applies (openid-client's signal
   * is dropped).
   */
  async fetch(url: string, init: oidc.CustomFetchOptions): Promise<Response> {
    const rest = requestInit(init);
    switch (this.#endpoints.get(url)) {
      case 'jwks':
        return this.#fetchKeys();
      case 'token': {
        let failure: AffiliationError | undefined;
        return traceAsync(
          tokenChannel,
          () => ({ method: rest.method ?? 'POST', url }),
          () => this.#fetchToken(url, rest, (error) => (failure = error)),
          (ctx, response) => {
            ctx.status = response.status;
            return failure;
          },
        );
      }
      case 'userinfo':
        return this.#fetchUserinfo(url, rest);
      default:
        return this.#o.http.fetch(url, rest);
    }
  }

  /**
   * The token response, its body read once: a success's `json()` parses the bytes the HTTP layer
   * read (rather than reading them again from a new stream), or throws our error when they are not
   * JSON: openid-client reports a body that is not JSON and an ID token that is not (a forgery) with
   * the same code, and keeps what `json()` threw in the `cause` chain.
   */
  async #fetchToken(
    url: string,
    init: RequestInit,
    failed: (error: AffiliationError) => void,
  ): Promise<Response> {
    const answer = await this.#o.http.read(url, init);
    const { body } = readJson(answer);
    if (answer.status !== 200) {
      // The error the callback will report (invalid_grant, …), for the token request's trace.
      failed(endpointError('token', answer.status, isObject(body) ? body : undefined, undefined, []));
      return toResponse(answer);
    }
    // Handed over without a body stream (building one costs more than the rest of the answer):
    // for a success openid-client only checks `bodyUsed` and calls `json()`.
    const response = toResponse({ ...answer, body: null });
    const invalid = () =>
      new TransportError('The token endpoint did not answer with a JSON object', {
        code: 'invalid_response',
        status: 200,
      });
    if (body === undefined) failed(invalid());
    const json = async () => {
      if (body !== undefined) return body;
      throw invalid();
    };
    Object.defineProperty(response, 'json', { value: json });
    return response;
  }

  /** Userinfo as JSON only: a signed (JWT) userinfo response is refused. */
  async #fetchUserinfo(url: string, init: RequestInit): Promise<Response> {
    const answer = await this.#o.http.read(url, init);
    if (answer.status === 200 && mediaType(answer.headers.get('content-type')) === 'application/jwt') {
      const message = 'The userinfo endpoint answered a signed JWT; only JSON userinfo is supported';
      throw new TransportError(message, { code: 'invalid_response', status: 200 });
    }
    return toResponse(answer);
  }

  /**
   * The key set for openid-client. With keys held: at most one request again per
   * {@link KEY_REFRESH_INTERVAL_MS} (the first fetch does not count, so a rollover right after it is
   * refreshed), and the held keys when the request fails. Each answer starts a
   * new generation of Configurations, seeded with the keys aged past openid-client's one-minute
   * rule, so the next unknown `kid` is refreshed again (rate-limited here).
   */
  async #fetchKeys(): Promise<Response> {
    const held = this.#keys;
    if (held === undefined || Date.now() - this.#refreshAt >= KEY_REFRESH_INTERVAL_MS) {
      // openid-client asks while its seed is fresh only for a `kid` the seed lacks: a forced fetch,
      // not the routine one after the seed expired.
      const seed = this.#generation.seed;
      const forced =
        seed !== undefined && Math.floor(Date.now() / 1000) - seed.uat < OPENID_CLIENT_KEYS_MAX_AGE_S;
      this.#keysRequest ??= this.#requestKeys(forced).finally(() => {
        this.#keysRequest = undefined;
      });
      await this.#keysRequest;
    }
    const keys = this.#keys as HeldKeys;
    const failed = this.#keysAttemptAt > keys.fetchedAt;
    const nowSeconds = Math.floor(Date.now() / 1000);
    // After a failure the seed expires at the end of the interval, so the next request comes then.
    const uat = failed
      ? nowSeconds - OPENID_CLIENT_KEYS_MAX_AGE_S + KEY_REFRESH_INTERVAL_MS / 1000
      : Math.min(Math.floor(keys.fetchedAt / 1000), nowSeconds) - OPENID_CLIENT_UNKNOWN_KID_AGE_S;
    this.#generation = { seed: { jwks: keys.jwks, uat } };
    return jsonAnswer(keys.text);
  }

  /** One request for the key set; on failure the held keys stay (or the error is thrown when none are held). */
  async #requestKeys(forced: boolean): Promise<void> {
    const url = this.#jwksUri;
    this.#keysAttemptAt = Date.now();
    if (this.#keys !== undefined) this.#refreshAt = this.#keysAttemptAt;
    try {
      this.#keys = await traceAsync(
        keysChannel,
        () => ({ method: 'GET', url, forced }),
        () => this.#downloadKeys(url),
        (ctx, keys) => {
          ctx.status = 200;
          ctx.responseBytes = Buffer.byteLength(keys.text);
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
