/**
 * The options of {@link AffiliationClient.discover} and their one check, below the client, the engine
 * and the authorization request, which all take the checked form.
 */
import { OptionsError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { withProcess } from '../core/node-process.js';
import { HttpClient } from '../http/client.js';
import { type ShopperTextOverrides, ShopperTexts } from '../i18n/texts.js';
import { checkIssuerOption, checkSecureUrl } from './discovery.js';
import { checkKnownOptions } from './known-options.js';
import { MemoryTransactionStore } from './transactions/index.js';
import type { HintLookup, TransactionStore } from './types.js';

/**
 * Options of {@link AffiliationClient.discover}. Checked up front: a bad value throws an
 * `OptionsError` that names the option.
 *
 * @group RP
 */
export interface AffiliationClientOptions {
  /**
   * The service's issuer, `{base_url}` (e.g. `https://op.example.org`). `https:` only, except on
   * loopback hosts (localhost, *.localhost, 127.0.0.0/8, [::1]) so local tests can use `http:`. A
   * single trailing slash difference with the discovery document's `issuer` is tolerated.
   */
  issuer: string;
  /** The client_id the service registered for you. */
  clientId: string;
  /** The client secret the service registered for you. Never logged or put in an error. */
  clientSecret: string;
  /**
   * Your callback URL, exactly as registered with the service (absolute; no fragment, no query).
   * The token request's `redirect_uri` is always this value, also behind a TLS-terminating proxy.
   */
  redirectUri: string;
  /**
   * `code` (default, recommended; PKCE S256 is always used) or `id_token` (scheduled for
   * deprecation by the service: configuring it emits one `DeprecationWarning` per client).
   */
  responseType?: 'code' | 'id_token' | undefined;
  /** How the client authenticates at the token endpoint. Default `client_secret_basic`. */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | undefined;
  /**
   * Where transactions wait between redirect and callback. Default: a new
   * `MemoryTransactionStore` (bounded, 10-minute TTL). With several app instances use a
   * `CookieTransactionStore` or your own shared store.
   */
  transactions?: TransactionStore | undefined;
  /** Allowed clock difference with the service when checking `exp`, `iat` and `nbf`, in seconds. Default 30. */
  clockToleranceSeconds?: number | undefined;
  /** Time limit for each request to the service, in milliseconds. Default 10 000. */
  timeoutMs?: number | undefined;
  /**
   * Known institutions (a `HintFeed`, or anything with `has(entityId)`): when given, an `idpHint`
   * it does not know is refused with `ValidationError('unknown_hint')` before any redirect.
   */
  hints?: HintLookup | undefined;
  /** The fetch implementation. Default: undici's `fetch` on the SDK's pooled agent; msw tests pass `globalThis.fetch`. */
  fetch?: typeof fetch | undefined;
  /** Structured logger; receives only redacted data. Default: no-op. */
  logger?: Logger | undefined;
  /**
   * The language of every page and message the shopper sees (`de`, `fr`, `es-419`, … any of
   * `LANGUAGES`, or one you add with `texts`). Default: the request's `Accept-Language`, else English.
   * Logs and `error.message` stay English.
   */
  language?: string | undefined;
  /** Your own texts over the SDK's, by language and key, or a language of your own (docs/languages.md). */
  texts?: ShopperTextOverrides | undefined;
}

const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;
/** The option names of {@link AffiliationClientOptions}, for refusing unknown ones. */
const CLIENT_OPTIONS = [
  'issuer',
  'clientId',
  'clientSecret',
  'redirectUri',
  'responseType',
  'tokenEndpointAuthMethod',
  'transactions',
  'clockToleranceSeconds',
  'timeoutMs',
  'hints',
  'fetch',
  'logger',
  'language',
  'texts',
] as const satisfies readonly (keyof AffiliationClientOptions)[];

/**
 * Once per client configured with `responseType: 'id_token'`: a process warning where the runtime
 * has them (Node, Bun, Deno, workerd with nodejs_compat), else one `console.warn`.
 */
export function warnIdTokenDeprecated(): void {
  const message =
    'responseType "id_token" is scheduled for deprecation by the affiliation-validation service; use the default "code" flow';
  const code = 'AFFILIATION_VALIDATION_ID_TOKEN';
  const warned = withProcess(
    (process) => process.emitWarning(message, { type: 'DeprecationWarning', code }) ?? true,
  );
  if (!warned) console.warn(`DeprecationWarning: ${message}`);
}

function checkString(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0)
    throw new OptionsError(`${name} must be a non-empty string`);
  return value;
}

export function checkOptions(options: AffiliationClientOptions) {
  if (typeof options !== 'object' || options === null) {
    throw new OptionsError('AffiliationClient.discover needs an options object');
  }
  checkKnownOptions(options, CLIENT_OPTIONS, 'AffiliationClient.discover');
  checkIssuerOption(options.issuer);
  const clientId = checkString('clientId', options.clientId);
  const clientSecret = checkString('clientSecret', options.clientSecret);
  const redirectUri = checkString('redirectUri', options.redirectUri);
  const parsedRedirect = checkSecureUrl(redirectUri, 'redirectUri', (m) => new OptionsError(m));
  if (parsedRedirect.hash || redirectUri.includes('#'))
    throw new OptionsError('redirectUri must not contain a fragment');
  if (parsedRedirect.search) {
    throw new OptionsError('redirectUri must not contain a query: the callback parameters are added to it');
  }
  // The authorization request and the token request send redirectUri as written; the service
  // compares it with the registered one as a string, so a non-normalized form is a trap.
  if (parsedRedirect.href !== redirectUri) {
    throw new OptionsError(
      `redirectUri must be written in normalized form (${JSON.stringify(parsedRedirect.href)}), as registered with the service`,
    );
  }
  const responseType = options.responseType ?? 'code';
  if (responseType !== 'code' && responseType !== 'id_token') {
    throw new OptionsError('responseType must be "code" or "id_token"');
  }
  const tokenEndpointAuthMethod = options.tokenEndpointAuthMethod ?? 'client_secret_basic';
  if (tokenEndpointAuthMethod !== 'client_secret_basic' && tokenEndpointAuthMethod !== 'client_secret_post') {
    throw new OptionsError('tokenEndpointAuthMethod must be "client_secret_basic" or "client_secret_post"');
  }
  const transactions = options.transactions ?? new MemoryTransactionStore();
  if (typeof transactions?.put !== 'function' || typeof transactions.take !== 'function') {
    throw new OptionsError('transactions must be a TransactionStore (put and take)');
  }
  const clockToleranceSeconds = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
  if (!Number.isFinite(clockToleranceSeconds) || clockToleranceSeconds < 0 || clockToleranceSeconds > 600) {
    throw new OptionsError('clockToleranceSeconds must be a number of seconds from 0 to 600');
  }
  if (options.hints !== undefined && typeof options.hints?.has !== 'function') {
    throw new OptionsError('hints must have a has(entityId) method (for example a HintFeed)');
  }
  // The HTTP layer checks timeoutMs, fetch and logger (once, for every entry point) and wraps the
  // logger for redaction.
  const http = new HttpClient({
    fetch: options.fetch,
    timeoutMs: options.timeoutMs,
    logger: options.logger,
    secrets: [clientSecret],
  });
  return {
    issuer: options.issuer,
    clientId,
    clientSecret,
    redirectUri,
    responseType,
    tokenEndpointAuthMethod,
    transactions,
    clockToleranceSeconds,
    hints: options.hints,
    http,
    // The client logs through the HTTP layer's redacting wrapper.
    logger: http.logger,
    texts: ShopperTexts.load({ language: options.language, texts: options.texts }),
  };
}

export type CheckedOptions = ReturnType<typeof checkOptions>;
