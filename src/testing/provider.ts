/**
 * The local OpenID provider that behaves like the affiliation-validation service: a Web-standard
 * core (`handle(Request) → Response`) that the node:http server of `TestProvider.start()` and the
 * msw handlers of `createTestProviderHandlers()` both put on the wire.
 */
import { OptionsError } from '../core/errors.js';
import { integerOption } from '../core/options.js';
import { AFFILIATIONS, IDENTIFIERS } from '../core/scope-values.js';
import {
  authorizationEndpoint,
  consentPageEndpoint,
  loginPageEndpoint,
  selectionPageEndpoint,
} from './authorization.js';
import { type AuthorizeOptions, walkAuthorization } from './authorize-walk.js';
import { createContext, jsonResponse, oauthError, type ProviderContext } from './context.js';
import {
  type LoginOutcome,
  normalizeClient,
  normalizeInstitution,
  normalizeOutcome,
  type StartTestProviderOptions,
  type TestClient,
  type TestInstitution,
  type TestProviderOptions,
} from './options.js';
import { messagePage } from './pages.js';
import { closeServer, type HandlerServer, listen } from './server.js';
import { tokenEndpoint, userinfoEndpoint } from './token.js';

/**
 * Options of `TestProvider.start({ listen: false })`: the provider options plus the base URL it
 * answers under. @group Testing
 */
export interface CreateTestProviderOptions extends TestProviderOptions {
  /**
   * `{base_url}` of the provider, without a trailing slash (one is removed). May carry a path.
   * Default: `'https://op.affiliation.test'` (a reserved name that never resolves: use it with msw).
   */
  baseUrl?: string | undefined;
}

/** The endpoints of a test provider, as absolute URLs. @group Testing */
export interface TestProviderEndpoints {
  discovery: string;
  authorization: string;
  token: string;
  userinfo: string;
  jwks: string;
  /** `{error_site}/error-client-id/` (spec 7.2). */
  errorClientId: string;
  /** `{error_site}/error-redirect-uri/` (spec 7.2). */
  errorRedirectUri: string;
}

/**
 * A local provider that behaves like the affiliation-validation service. Start one with
 * {@link TestProvider.start}: real HTTP on 127.0.0.1, or with `listen: false` no server (call
 * {@link TestProvider.handle} directly or through `createTestProviderHandlers()` for msw).
 *
 * @group Testing
 */
export class TestProvider {
  /** `{base_url}`: where the endpoints live, never with a trailing slash. */
  readonly baseUrl: string;
  /**
   * The issuer identifier as published in discovery and in `iss`: `baseUrl`, or `baseUrl + '/'`
   * with the `issuerTrailingSlash` option (spec 2.4 writes it both ways).
   */
  readonly issuer: string;
  /** `{error_site}` without a trailing slash. */
  readonly errorSite: string;
  /** Absolute URLs of the endpoints. */
  readonly endpoints: Readonly<TestProviderEndpoints>;

  readonly #ctx: ProviderContext;

  /** @internal Use {@link TestProvider.start}. */
  protected constructor(ctx: ProviderContext) {
    this.#ctx = ctx;
    this.baseUrl = ctx.baseUrl;
    this.issuer = ctx.issuer;
    this.errorSite = ctx.errorSite;
    const at = (path: string) => ctx.baseUrl + path;
    this.endpoints = Object.freeze({
      discovery: at(ctx.paths.discovery),
      authorization: at(ctx.paths.authorization),
      token: at(ctx.paths.token),
      userinfo: at(ctx.paths.userinfo),
      jwks: at(ctx.paths.jwks),
      errorClientId: `${ctx.errorSite}/error-client-id/`,
      errorRedirectUri: `${ctx.errorSite}/error-redirect-uri/`,
    });
  }

  /**
   * Start a test provider: the one factory. By default it listens on `http://127.0.0.1:<free port>`
   * (options `host`, `port`) and answers real HTTP; with `listen: false` it opens no socket and answers
   * in-process under `baseUrl`, through {@link TestProvider.handle} or `createTestProviderHandlers()`
   * for msw. Close it when done (`await op.close()`); closing an in-process provider is a no-op.
   *
   * @example
   * ```ts
   * const op = await TestProvider.start({
   *   clients: [{ clientId: 'shop', clientSecret: 's3cret', redirectUris: ['http://127.0.0.1:3000/cb'] }],
   * });
   * // … AffiliationClient.discover({ issuer: op.issuer, clientId: 'shop', … })
   * await op.close();
   *
   * const mocked = await TestProvider.start({ listen: false, baseUrl: 'https://op.affiliation.test' });
   * ```
   * @throws {OptionsError} for an invalid option (the message names it).
   */
  static start(options: CreateTestProviderOptions & { listen: false }): Promise<TestProvider>;
  static start(options?: StartTestProviderOptions & { listen?: true }): Promise<RunningTestProvider>;
  static async start(
    options:
      | (CreateTestProviderOptions & { listen: false })
      | (StartTestProviderOptions & { listen?: true }) = {},
  ): Promise<TestProvider> {
    if (options.listen === false) {
      return new TestProvider(await createContext(options, options.baseUrl ?? 'https://op.affiliation.test'));
    }
    return RunningTestProvider.listen(options);
  }

  /**
   * Answer one request, exactly as the HTTP server does. Requests for other origins or paths get a
   * 404. Never throws: an internal failure is a 500.
   */
  async handle(request: Request): Promise<Response> {
    try {
      return await this.route(request);
    } catch {
      return oauthError('server_error', 'The test provider failed', 500);
    }
  }

  /** Register another client (or replace one with the same `clientId`). */
  registerClient(client: TestClient): void {
    const normalized = normalizeClient(client);
    this.#ctx.clients.set(normalized.clientId, normalized);
  }

  /** Add an institution to the hint mapping (or replace one with the same `entityId`). */
  registerInstitution(institution: TestInstitution): void {
    const normalized = normalizeInstitution(institution);
    this.#ctx.institutions.set(normalized.entityId, normalized);
  }

  /**
   * Queue what happens at the institution during the next logins, one outcome per login, in order.
   * When the queue is empty a login uses {@link DEFAULT_LOGIN_OUTCOME} (authenticated, releases,
   * consents, holds `student` and `member`).
   *
   * @example
   * ```ts
   * op.scriptLogin({ affiliations: ['staff'], userId: 'bob' }, { consent: false });
   * ```
   */
  scriptLogin(...outcomes: LoginOutcome[]): void {
    this.#ctx.loginQueue.push(...outcomes.map((o) => normalizeOutcome(o)));
  }

  /** Forget the scripted outcomes that were not used yet. */
  clearScriptedLogins(): void {
    this.#ctx.loginQueue.length = 0;
  }

  /**
   * Sign with a new key from now on and return its `kid`. The previous key stays in the JWKS for
   * `retiredKeyTtlMs` so tokens it signed still verify, unless `keepPrevious` is `false`, which
   * drops it at once (to test a relying party against a key that vanished).
   */
  async rotateKeys(options: { keepPrevious?: boolean } = {}): Promise<string> {
    return this.#ctx.keys.rotate(options.keepPrevious !== false);
  }

  /** The `kid` of the key that signs now. */
  get signingKeyId(): string {
    return this.#ctx.keys.activeKid;
  }

  /**
   * Follow an authorization URL through the institution selection, login and consent pages as a
   * browser would (plain HTTP GET and POST, cookies kept) and return the URL the provider finally
   * redirects to: the relying party's `redirect_uri` with the result, or a page of the error site.
   *
   * @example
   * ```ts
   * const callbackUrl = await op.authorize(url, { institution: 'https://idp.university.example/idp/shibboleth' });
   * ```
   */
  async authorize(authorizationUrl: string | URL, options: AuthorizeOptions = {}): Promise<string> {
    // The scripted browser keeps going on the provider's own steps: authorization, selection, login, consent.
    const { paths, baseUrl } = this.#ctx;
    const steps = [paths.authorization, paths.authorizationShort, paths.select, paths.login, paths.consent];
    const isStep = (url: URL) => steps.some((path) => `${url.origin}${url.pathname}` === baseUrl + path);
    return walkAuthorization(isStep, authorizationUrl, options, this.defaultFetch());
  }

  /** Release resources. The core has none; the server variant closes its socket. */
  async close(): Promise<void> {}

  /** @internal The fetch `authorize()` uses when none is given. */
  protected defaultFetch(): typeof fetch {
    // Without a server, answer our own origin in-process; anything else goes to the global fetch.
    return async (input, init) => {
      const request = new Request(input, init);
      if (request.url.startsWith(`${this.baseUrl}/`)) return this.handle(request);
      return globalThis.fetch(request);
    };
  }

  private async route(request: Request): Promise<Response> {
    const ctx = this.#ctx;
    const url = new URL(request.url);
    const base = new URL(ctx.baseUrl);
    const prefix = base.pathname === '/' ? '' : base.pathname;
    if (url.origin !== base.origin || !url.pathname.startsWith(`${prefix}/`)) return notFound();
    const path = url.pathname.slice(prefix.length);
    const { paths } = ctx;
    const get = request.method === 'GET' || request.method === 'HEAD';
    if ((path === paths.discovery || path === paths.jwks) && !get) {
      return oauthError('invalid_request', 'Use GET', 405, { allow: 'GET' });
    }
    switch (path) {
      case paths.discovery:
        return jsonResponse(this.discoveryDocument(), 200, { 'cache-control': 'no-cache' });
      case paths.jwks:
        return jsonResponse(ctx.keys.jwks(), 200, {
          'cache-control': 'no-cache',
          'content-type': 'application/jwk-set+json; charset=utf-8',
        });
      case paths.authorization:
      case paths.authorizationShort:
        return authorizationEndpoint(ctx, request);
      case paths.token:
        return tokenEndpoint(ctx, request);
      case paths.userinfo:
        return userinfoEndpoint(ctx, request);
      case paths.select:
        return selectionPageEndpoint(ctx, request);
      case paths.login:
        return loginPageEndpoint(ctx, request);
      case paths.consent:
        return consentPageEndpoint(ctx, request);
      case paths.errorClientId:
        return this.errorSitePage(
          'The client_id is not valid',
          'The shop that sent you here is not registered.',
        );
      case paths.errorRedirectUri:
        return this.errorSitePage(
          'The redirect URI is not valid',
          'The shop sent an unregistered return address.',
        );
      default:
        return notFound();
    }
  }

  /** The provider configuration of spec 4.1. */
  discoveryDocument(): Record<string, unknown> {
    const ctx = this.#ctx;
    const document: Record<string, unknown> = {
      issuer: ctx.issuer,
      authorization_endpoint: this.endpoints.authorization,
      token_endpoint: this.endpoints.token,
      userinfo_endpoint: this.endpoints.userinfo,
      jwks_uri: this.endpoints.jwks,
      response_types_supported: ['code', 'id_token'],
      response_modes_supported: ['query', 'fragment'],
      grant_types_supported: ['authorization_code'],
      subject_types_supported: ['pairwise'],
      scopes_supported: ['openid', ...AFFILIATIONS, ...IDENTIFIERS],
      claims_supported: [
        'iss',
        'aud',
        'sub',
        'nonce',
        'auth_time',
        'iat',
        'exp',
        'at_hash',
        'requested_scopes',
        'returned_scopes',
        'requested_claims',
        'transaction_id',
        'reuse_detection',
      ],
      claims_parameter_supported: true,
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
      id_token_signing_alg_values_supported: [ctx.keys.alg],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    };
    for (const [name, value] of Object.entries(ctx.options.discoveryOverrides)) {
      if (value === undefined) delete document[name];
      else document[name] = value;
    }
    return document;
  }

  private errorSitePage(title: string, message: string): Response {
    // Only served when the error site is the provider's own default.
    if (this.#ctx.errorSite !== `${this.#ctx.baseUrl}/errors`) return notFound();
    return messagePage(title, message);
  }
}

function notFound(): Response {
  return oauthError('not_found', 'No such endpoint', 404);
}

/**
 * A {@link TestProvider} listening on a real socket (what `TestProvider.start()` returns). Close it
 * when done (`await op.close()`).
 *
 * @group Testing
 */
export class RunningTestProvider extends TestProvider {
  /** The TCP port the server listens on. */
  readonly port: number;
  /** The interface the server is bound to. */
  readonly host: string;
  readonly #http: HandlerServer;
  #closing: Promise<void> | undefined;

  /** @internal Use {@link TestProvider.start}. */
  private constructor(ctx: ProviderContext, http: HandlerServer, host: string) {
    super(ctx);
    this.#http = http;
    this.host = host;
    this.port = http.port;
  }

  /** @internal Use {@link TestProvider.start}. */
  static async listen(options: StartTestProviderOptions): Promise<RunningTestProvider> {
    const host = options.host ?? '127.0.0.1';
    if (typeof host !== 'string' || host === '')
      throw new OptionsError('Invalid option "host": expected a host name or address');
    const http = await listen(host, integerOption('port', options.port, 0, { min: 0, max: 65535 }));
    try {
      const provider = new RunningTestProvider(await createContext(options, http.origin), http, host);
      http.handler = (request) => provider.handle(request);
      return provider;
    } catch (error) {
      await closeServer(http.server);
      throw error;
    }
  }

  /** Stop listening and drop open connections. Safe to call more than once. */
  override async close(): Promise<void> {
    this.#closing ??= closeServer(this.#http.server);
    return this.#closing;
  }

  /** @internal Over a real socket, `authorize()` uses the global fetch: real HTTP. */
  protected override defaultFetch(): typeof fetch {
    return (input, init) => globalThis.fetch(input, init);
  }
}
