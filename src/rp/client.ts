/**
 * `AffiliationClient`: the relying party of the affiliation-validation service. Start a validation
 * with {@link AffiliationClient.createAuthorizationRequest}, check its result with
 * {@link AffiliationClient.validateCallback} (or let {@link AffiliationClient.callbackHandler} do
 * both halves of the callback for `Request → Response` frameworks).
 */
import type { AffiliationError } from '../core/errors.js';
import { redact } from '../core/redact.js';
import { AFFILIATIONS, IDENTIFIERS } from '../core/scope-values.js';
import {
  traceAsync,
  type ValidationCallbackContext,
  type ValidationStartContext,
  validationCallbackChannel,
  validationStartChannel,
} from '../diagnostics/channels.js';
import type { AuthorizationRequest, AuthorizationRequestOptions } from './authorization.js';
import { buildAuthorizationRequest, listedHint } from './authorization.js';
import type { CallbackInput, ValidateCallbackOptions } from './callback-input.js';
import { readCallback } from './callback-input.js';
import type { ProviderMetadata } from './discovery.js';
import { Engine } from './engine.js';
import { ProviderError, ValidationError } from './errors.js';
import type { CallbackHandlerOptions, ShopperMessage, ShopperPages } from './handler.js';
import { createCallbackHandler, shopperMessage } from './handler.js';
import { checkServiceClaims } from './id-token.js';
import {
  type AffiliationClientOptions,
  type CheckedOptions,
  checkOptions,
  warnIdTokenDeprecated,
} from './options.js';
import type { StartHandlerOptions, StartRequestLike } from './start.js';
import { createStartHandler, header } from './start.js';
import { refusedCodeAsReplay } from './transactions/advice.js';
import { cookieRequired } from './transactions/cookies.js';
import type { AffiliationResult, Transaction, TransactionContext, TransactionStore } from './types.js';

/** Clean an untrusted `error` / `error_description` value from the redirect for our messages. */
function untrusted(value: string | undefined, max: number): string | undefined {
  if (value === undefined) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  return redact(value.replace(/[\u0000-\u001f\u007f]/g, ' ')).slice(0, max);
}

/**
 * The relying party of the affiliation-validation service. Create one per process with
 * {@link AffiliationClient.discover}; it caches the provider configuration and signing keys.
 *
 * @example
 * ```ts
 * const client = await AffiliationClient.discover({
 *   issuer: 'https://op.example.org',
 *   clientId: process.env.CLIENT_ID!,
 *   clientSecret: process.env.CLIENT_SECRET!,
 *   redirectUri: 'https://shop.example.com/callback',
 * });
 * const { url } = await client.createAuthorizationRequest({ affiliation: 'student' });
 * // redirect the browser to url; on the callback route:
 * // const result = await client.validateCallback(request);
 * ```
 * @group RP
 */
export class AffiliationClient {
  readonly #o: CheckedOptions;
  /** openid-client, with this client's one key cache, for both flows. */
  readonly #engine: Engine;
  #warnedNoStartCookie = false;
  readonly #pages: ShopperPages;

  private constructor(options: CheckedOptions, engine: Engine) {
    this.#o = options;
    this.#engine = engine;
    const serviceOrigin = new URL(engine.metadata.authorization_endpoint).origin;
    this.#pages = { texts: options.texts, serviceOrigin, startPath: undefined };
  }

  /**
   * Check the options, fetch `{issuer}/.well-known/openid-configuration` and return a client.
   *
   * @throws {OptionsError} naming the bad option.
   * @throws {TransportError} when discovery fails or the document is invalid.
   * @throws {ValidationError} `issuer_mismatch` when the document's issuer is another one.
   */
  static async discover(options: AffiliationClientOptions): Promise<AffiliationClient> {
    const checked = checkOptions(options);
    if (checked.responseType === 'id_token') warnIdTokenDeprecated();
    return new AffiliationClient(checked, await Engine.discover(checked));
  }

  /** The issuer exactly as the discovery document states it: ID tokens' `iss` must equal it. */
  get issuer(): string {
    return this.#engine.metadata.issuer;
  }

  /** The configured response type. */
  get responseType(): 'code' | 'id_token' {
    return this.#o.responseType;
  }

  /** The transaction store in use. */
  get transactions(): TransactionStore {
    return this.#o.transactions;
  }

  /** A copy of the provider configuration from discovery. */
  get metadata(): ProviderMetadata {
    return structuredClone(this.#engine.metadata);
  }

  /**
   * Start a validation: build the authorization URL (code flow with PKCE S256, or `id_token`),
   * store the transaction, and return where to send the shopper.
   *
   * @param context The start request's cookies, passed to the transaction store's `put`:
   *   `{ cookie: request.headers.get('cookie') }` (Web `Request`) or `{ cookie: req.headers.cookie }`
   *   (Node). With them a store that sets cookies keeps its budget (at most 3 per browser) by
   *   replacing the browser's oldest validation; without them it keeps one validation per browser
   *   and the client warns once. `startHandler()` passes them.
   * @throws {ScopeError} for an affiliation / identifier / scopes combination spec 2.2 rejects.
   * @throws {ValidationError} `unknown_hint` for an `idpHint` that the configured hints do not know.
   * @throws {OptionsError} for a malformed `claims` or `idpHint`.
   */
  createAuthorizationRequest(
    options: AuthorizationRequestOptions,
    context?: TransactionContext,
  ): Promise<AuthorizationRequest> {
    return traceAsync(
      validationStartChannel,
      () => {
        // Only documented values and a hint the configured hints know: the options may come from a
        // form post, and nothing it held may become a trace or metric value.
        const ctx: ValidationStartContext = { flow: this.#o.responseType };
        const { affiliation, identifier } = options ?? {};
        if (AFFILIATIONS.includes(affiliation)) ctx.affiliation = affiliation;
        if (identifier === undefined || IDENTIFIERS.includes(identifier))
          ctx.identifier = identifier ?? 'transient';
        const institution = listedHint(options?.idpHint, this.#o.hints);
        if (institution !== undefined) ctx.institution = institution;
        return ctx;
      },
      () => this.#start(options, context),
    );
  }

  async #start(
    options: AuthorizationRequestOptions,
    context?: TransactionContext,
  ): Promise<AuthorizationRequest> {
    const { url, transaction } = await buildAuthorizationRequest(options, this.#o, (parameters) =>
      this.#engine.authorizationUrl(parameters),
    );
    // The key given at all means the caller knows the request's cookies: none is ''.
    const known = typeof context === 'object' && context !== null && 'cookie' in context;
    const cookie = known ? (context.cookie ?? '') : undefined;
    const setCookie = await this.#o.transactions.put(transaction, { cookie });
    const request: AuthorizationRequest = { url, state: transaction.state };
    if (typeof setCookie === 'string') {
      request.setCookie = setCookie;
      if (!known && !this.#warnedNoStartCookie) {
        this.#warnedNoStartCookie = true;
        this.#o.logger.warn?.(
          "createAuthorizationRequest got no { cookie }: the transaction store cannot see which validations this browser holds, so each start replaces the previous one (a second tab's validation fails as superseded); pass { cookie: request.headers.get('cookie') } or use startHandler()",
        );
      }
    }
    return request;
  }

  /**
   * Check the shopper's return to your callback and give the validated affiliation.
   *
   * Accepts the callback URL (a string — absolute or a path like `req.url` — or a `URL`, the
   * parameters in its query or fragment), a Web `Request` (GET, or the form POST of the fragment
   * relay / `response_mode=form_post`), or a Node `IncomingMessage`. For a POST
   * `IncomingMessage` whose body your framework already parsed, pass it: `validateCallback(req,
   * { body: req.body })` (`req.body` is also picked up on its own).
   *
   * @throws {ProviderError} when the service returned an error (redirect, token or userinfo endpoint).
   * @throws {ValidationError} when a check fails; `fragment_relay_required` for a GET without
   *   parameters (serve `fragmentRelayHtml()`).
   * @throws {TransportError} when the service cannot be reached.
   */
  async validateCallback(
    input: CallbackInput,
    options?: ValidateCallbackOptions,
  ): Promise<AffiliationResult> {
    try {
      const read = await readCallback(input, this.#o.redirectUri, options);
      return await this.#checkCallback(read.params, read.cookie);
    } catch (error) {
      this.#rejected(error);
    }
  }

  /** Log a rejected callback by its code only, and throw the error on. */
  #rejected(error: unknown): never {
    const code = (error as { code?: unknown }).code;
    this.#o.logger.info?.('callback rejected', { code: typeof code === 'string' ? code : 'unknown' });
    throw error;
  }

  /**
   * What to tell the shopper about an error, for a page of your own: `error.userMessage` in the
   * shopper's language (the client's `language`, else the request's `Accept-Language`, else English),
   * and, when one click helps (the service did not recognise the hinted institution), a form that
   * starts the validation again without it.
   *
   * @param request The request being answered (a Web `Request`, or Node's `req`): its `Accept-Language`.
   * @param options.startUrl Your start route. Default: where `startHandler()` last answered.
   * @example
   * ```ts
   * const { lang, text, restart } = client.shopperMessage(error, request);
   * return page(lang, `<p>${escape(text)}</p>${restart?.html ?? ''}`);
   * ```
   */
  shopperMessage(
    error: AffiliationError,
    request?: StartRequestLike,
    options: { startUrl?: string } = {},
  ): ShopperMessage {
    const accept = request === undefined ? undefined : header(request.headers, 'accept-language');
    return shopperMessage(error, this.#o.texts.speaker(accept), options.startUrl ?? this.#pages.startPath);
  }

  /**
   * Validate already-read callback parameters (shared with the callback handler), as one operation
   * of the `validation.callback` channel: its context learns the flow, affiliation and institution
   * from the transaction, and the asserted institution from the result.
   */
  #checkCallback(params: Map<string, string>, cookie: string | undefined): Promise<AffiliationResult> {
    let trace: ValidationCallbackContext | undefined;
    return traceAsync(
      validationCallbackChannel,
      () => {
        trace = {};
        return trace;
      },
      () =>
        this.#validateParams(params, cookie, (tx) => {
          if (trace === undefined) return;
          trace.flow = tx.responseType;
          trace.affiliation = tx.affiliation;
          trace.identifier = tx.identifier ?? 'transient';
          const institution = listedHint(tx.idpHint, this.#o.hints);
          if (institution !== undefined) trace.institution = institution;
          trace.transactionAgeMs = Math.max(0, Date.now() - tx.createdAt);
        }).catch((error: unknown) => {
          if (trace !== undefined && error instanceof ProviderError) trace.reason = error.reason;
          throw error;
        }),
      (ctx, result) => {
        ctx.affiliation = result.affiliation;
        ctx.identifier = result.identifier;
        if (result.institution) ctx.institution = result.institution.entityId;
      },
    );
  }

  async #validateParams(
    params: Map<string, string>,
    cookie: string | undefined,
    taken?: (tx: Transaction) => void,
  ): Promise<AffiliationResult> {
    const state = params.get('state');
    const error = params.get('error');
    const store = this.#o.transactions;
    if (error !== undefined) {
      // The transaction is over either way; consume it so the state cannot be used again.
      const tx = state ? await store.take(state, { cookie }).catch(() => undefined) : undefined;
      if (tx) taken?.(tx);
      const refused = ProviderError.from({
        // An empty `error` is malformed but still a refusal; give it a name.
        error: untrusted(error, 100) || 'unknown_error',
        description: untrusted(params.get('error_description'), 500) || undefined,
        state: state === undefined ? undefined : state.slice(0, 512),
        source: 'authorization',
        started: tx && {
          affiliation: tx.affiliation,
          identifier: tx.identifier,
          flow: tx.responseType,
          institution: tx.idpHint,
        },
      });
      // A stale hint: no other shopper is sent down the same dead end until a refresh confirms it.
      if (refused.reason === 'unknown_institution' && tx?.idpHint) this.#o.hints?.reportStale?.(tx.idpHint);
      throw refused;
    }
    if (!state)
      throw new ValidationError('The callback carries no state parameter', { code: 'missing_parameters' });
    // Fail closed: a store that binds to the browser cannot check a callback without its cookies.
    if (cookie === undefined && store.bindsToBrowser === true) throw cookieRequired();
    const tx = await store.take(state, { cookie });
    if (tx) taken?.(tx);
    if (!tx) {
      throw new ValidationError('No transaction is waiting for this state (unknown or already cleared)', {
        code: 'unknown_state',
      });
    }
    if (tx.state !== state)
      throw new ValidationError('The stored transaction is for another state', { code: 'state_mismatch' });
    const iss = params.get('iss');
    if (iss !== undefined && iss !== this.#engine.metadata.issuer) {
      throw new ValidationError('The callback iss parameter is not the provider issuer', {
        code: 'issuer_mismatch',
      });
    }
    if (iss === undefined && this.#engine.metadata.authorization_response_iss_parameter_supported === true) {
      throw new ValidationError(
        'The callback carries no iss parameter although the provider always sends one (RFC 9207)',
        { code: 'missing_parameters' },
      );
    }
    if (tx.responseType === 'id_token') {
      const idToken = params.get('id_token');
      if (!idToken)
        throw new ValidationError('The callback carries no id_token', { code: 'missing_parameters' });
      const callback = new URL(this.#o.redirectUri);
      callback.hash = new URLSearchParams({ state, id_token: idToken }).toString();
      const claims = await this.#engine.implicit(callback, { state, nonce: tx.nonce });
      return checkServiceClaims(claims, tx, this.#claimChecks());
    }
    const code = params.get('code');
    if (!code) throw new ValidationError('The callback carries no code', { code: 'missing_parameters' });
    return this.#exchange(code, iss, tx).catch((error: unknown) => {
      throw refusedCodeAsReplay(error);
    });
  }

  #claimChecks(tokens?: { accessToken: string; idToken: string }) {
    return {
      clientId: this.#o.clientId,
      clockToleranceSeconds: this.#o.clockToleranceSeconds,
      now: Date.now(),
      tokens,
    };
  }

  /** The code flow's back channel: the code grant, the service's claims, userinfo when its claims were requested. */
  async #exchange(code: string, iss: string | undefined, tx: Transaction): Promise<AffiliationResult> {
    // Always the configured redirect URI, never the incoming URL (which is http: behind a
    // TLS-terminating proxy): the token request's redirect_uri must equal the authorization request's.
    const callback = new URL(this.#o.redirectUri);
    callback.searchParams.set('code', code);
    callback.searchParams.set('state', tx.state);
    if (iss !== undefined) callback.searchParams.set('iss', iss);
    const secrets = [code, tx.codeVerifier, tx.nonce];
    const tokens = await this.#engine.codeGrant(
      callback,
      { state: tx.state, nonce: tx.nonce, codeVerifier: tx.codeVerifier },
      secrets,
    );
    const result = await checkServiceClaims(tokens.claims, tx, this.#claimChecks(tokens));
    if (tx.claims?.userinfo === undefined) return result;
    const userinfo = await this.#engine.userinfo(tokens.accessToken, result.subject, [
      ...secrets,
      tokens.accessToken,
    ]);
    result.userinfo = userinfo;
    const reuse = userinfo.reuse_detection;
    if (
      result.reuseDetection === undefined &&
      Array.isArray(reuse) &&
      reuse.every((v) => typeof v === 'string')
    ) {
      result.reuseDetection = [...reuse];
    }
    return result;
  }

  /**
   * A Web-standard start route, `(request: Request) => Promise<Response>`: accepts only a `POST`
   * from the shop's own pages ({@link checkStartRequest}: `Sec-Fetch-Site`, else `Origin`), reads
   * the form's affiliation / identifier / institution / flow as `options` allow, starts the
   * validation with the request's cookies, and answers 303 to the authorization URL with the
   * store's cookie(s). A refused start gets `options.onError` (default: a small HTML page, 400,
   * 403, 405 with `Allow: POST`, 413 or 415).
   *
   * @example
   * ```ts
   * const start = client.startHandler({ formFields: ['affiliation', 'institution'] });
   * app.post('/start', (c) => start(c.req.raw));
   * // <form method="post" action="/start"><select name="affiliation">…</select>…</form>
   * ```
   * @throws {TypeError} for invalid options (when called, not per request).
   */
  startHandler(options: StartHandlerOptions = {}): (request: Request) => Promise<Response> {
    return createStartHandler(this, this.#o.redirectUri, options, this.#pages);
  }

  /**
   * A Web-standard callback route, `(request: Request) => Promise<Response>`:
   * a GET without parameters gets the fragment relay page; a GET or POST with parameters is
   * validated and handed to `onSuccess` (or `onError`). The store's cookie for the callback's state
   * is cleared on every response (`TransactionStore.clearCookie`).
   *
   * @example
   * ```ts
   * app.all('/callback', (c) => client.callbackHandler({
   *   onSuccess: (result) => Response.redirect(`https://shop.example.com/discount?ok=${result.affiliation}`, 303),
   * })(c.req.raw));
   * ```
   */
  callbackHandler(options: CallbackHandlerOptions): (request: Request) => Promise<Response> {
    return createCallbackHandler(
      {
        read: (request) => readCallback(request, this.#o.redirectUri),
        validate: (params, cookie) =>
          this.#checkCallback(params, cookie).catch((error: unknown) => this.#rejected(error)),
        store: this.#o.transactions,
        pages: this.#pages,
      },
      options,
    );
  }
}
