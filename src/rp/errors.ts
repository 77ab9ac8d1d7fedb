import type { OptionsError, TransportError } from '../core/errors.js';
import { AffiliationError } from '../core/errors.js';
import type { Affiliation, Identifier } from '../core/scope-values.js';
import { texts as en } from '../i18n/catalogs/en.js';

/**
 * A scope string or scope parts break a rule of spec section 2.2. The message names the rule.
 *
 * @group Errors
 */
export class ScopeError extends AffiliationError {
  declare readonly code: 'invalid_scope';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, {
      code: 'invalid_scope',
      cause: options.cause,
      userMessage: en['error.scope'],
    });
  }
}

/**
 * Every `error` code a provider may return that the SDK names: the service's (spec 7.1, both
 * spellings of `unauthorized_client`), OAuth 2.0's authorization and token endpoint codes
 * (RFC 6749 §4.1.2.1, §5.2), OpenID Connect Core's (§3.1.2.6) and the bearer token codes
 * (RFC 6750 §3.1). Anything else is `unknown_error` (the code as sent stays in `.error`).
 */
export const PROVIDER_ERROR_CODES = [
  'access_denied',
  'invalid_scope',
  'invalid_request',
  'unauthorised_client',
  'unauthorized_client',
  'unsupported_response_type',
  'server_error',
  'temporarily_unavailable',
  'invalid_grant',
  'invalid_client',
  'unsupported_grant_type',
  'invalid_token',
  'insufficient_scope',
  'interaction_required',
  'login_required',
  'account_selection_required',
  'consent_required',
  'invalid_request_uri',
  'invalid_request_object',
  'request_not_supported',
  'request_uri_not_supported',
  'registration_not_supported',
  'unknown_error',
] as const;

/** Codes of {@link ProviderError}: see {@link PROVIDER_ERROR_CODES}. */
export type ProviderErrorCode = (typeof PROVIDER_ERROR_CODES)[number];

const PROVIDER_CODE_SET: ReadonlySet<string> = new Set(PROVIDER_ERROR_CODES);

/** Where a {@link ProviderError} came from. */
export type ProviderErrorSource = 'authorization' | 'token' | 'userinfo';

/**
 * Why the service refused, read from its `error_description` (docs/errors.md): `unknown_institution`
 * (`entity_id error`: the hint is stale or invalid, spec 7.2), `no_affiliation` (`no affiliation
 * available for this user`), `affiliation_mismatch` (`affiliation does not match requested
 * validation`), `consent_denied` (`User Consent Denied`), `authentication_failed` (`authentication
 * failed`), `validation_not_allowed` (`Requested validation not allowed.`, spec 7.2), else `other`.
 */
export type ProviderErrorReason =
  | 'unknown_institution'
  | 'no_affiliation'
  | 'affiliation_mismatch'
  | 'consent_denied'
  | 'authentication_failed'
  | 'validation_not_allowed'
  | 'other';

/** The service's descriptions, lower case and without a final full stop, and the shopper's next step. */
const REASONS = new Map<string, [ProviderErrorReason, keyof typeof en]>([
  ['entity_id error', ['unknown_institution', 'provider.unknown_institution']],
  ['no affiliation available for this user', ['no_affiliation', 'provider.no_affiliation']],
  [
    'affiliation does not match requested validation',
    ['affiliation_mismatch', 'provider.affiliation_mismatch'],
  ],
  ['user consent denied', ['consent_denied', 'provider.consent_denied']],
  ['authentication failed', ['authentication_failed', 'provider.authentication_failed']],
  ['requested validation not allowed', ['validation_not_allowed', 'provider.not_allowed']],
]);

/** What a refused validation asked for (its transaction): what a restart sends again. */
export interface StartedValidation {
  readonly affiliation: Affiliation;
  readonly identifier: Identifier | undefined;
  readonly flow: 'code' | 'id_token';
  /** The `aarc_idp_hint` sent, if any. */
  readonly institution: string | undefined;
}

/** What a {@link ProviderError} carries besides its message. */
export interface ProviderErrorOptions {
  /** The `error` value exactly as sent. */
  error: string;
  description?: string | undefined;
  state?: string | undefined;
  source: ProviderErrorSource;
  status?: number | undefined;
  cause?: unknown;
  /** The refused validation's choices, when the callback's `state` found its transaction. */
  started?: StartedValidation | undefined;
}

/**
 * The service answered with an OAuth/OpenID error: on the redirect (query or fragment), at the
 * token endpoint or at the userinfo endpoint.
 *
 * @group Errors
 */
export class ProviderError extends AffiliationError {
  declare readonly code: ProviderErrorCode;
  /** The `error` value exactly as the service sent it (`unauthorised_client` is kept as spelled). */
  readonly error: string;
  /** `error_description`, when sent. */
  readonly description: string | undefined;
  /** `state`, when sent. */
  readonly state: string | undefined;
  /** Where the error came from. */
  readonly source: ProviderErrorSource;
  /** HTTP status of a token or userinfo endpoint error. */
  readonly status: number | undefined;
  /** Why the service refused, from its `error_description`; `userMessage` tells the shopper the next step. */
  readonly reason: ProviderErrorReason;
  /**
   * What the refused validation asked for, when the callback's `state` found its transaction:
   * `client.shopperMessage()` offers to start it again without a stale institution.
   */
  readonly started: StartedValidation | undefined;

  constructor(message: string, options: ProviderErrorOptions) {
    const code = (
      PROVIDER_CODE_SET.has(options.error) ? options.error : 'unknown_error'
    ) as ProviderErrorCode;
    const described = options.description?.trim().toLowerCase().replace(/\.$/, '');
    const [reason, text] = (options.source === 'authorization' && REASONS.get(described ?? '')) || ['other'];
    const back = options.source !== 'authorization';
    const fallback = back ? 'provider.return_failed' : 'provider.failed';
    const userMessage = en[text ?? PROVIDER_TEXTS[back ? 'back' : 'authorization'][code] ?? fallback];
    super(message, { code, cause: options.cause, userMessage });
    this.error = options.error;
    this.description = options.description;
    this.state = options.state;
    this.source = options.source;
    this.status = options.status;
    this.reason = reason;
    this.started = options.started;
  }

  /** The error with the message that says what the provider returned and where. */
  static from(options: ProviderErrorOptions): ProviderError {
    const where =
      options.source === 'authorization' ? 'the authorization response' : `the ${options.source} endpoint`;
    const detail = options.description ? `: ${options.description}` : '';
    return new ProviderError(`The provider returned "${options.error}" from ${where}${detail}`, options);
  }
}

/**
 * What the shopper is told: where the validation failed, and whether they can do anything. On the
 * way back (`token`, `userinfo`) the shopper came back to the shop, and the shop's request to the
 * service for the result failed.
 */
const PROVIDER_TEXTS: Record<
  'authorization' | 'back',
  Partial<Record<ProviderErrorCode, keyof typeof en>>
> = {
  authorization: {
    access_denied: 'provider.denied',
    server_error: 'provider.unavailable',
    temporarily_unavailable: 'provider.unavailable',
    invalid_scope: 'provider.shop_problem',
    invalid_request: 'provider.shop_problem',
    unauthorised_client: 'provider.shop_problem',
    unauthorized_client: 'provider.shop_problem',
    unsupported_response_type: 'provider.shop_problem',
  },
  back: {
    invalid_client: 'provider.return_shop_problem',
    unauthorised_client: 'provider.return_shop_problem',
    unauthorized_client: 'provider.return_shop_problem',
    unsupported_grant_type: 'provider.return_shop_problem',
  },
};

/** Every code of {@link ValidationError}: one per check the relying party makes. */
export const VALIDATION_ERROR_CODES = [
  'unknown_state',
  'expired_transaction',
  'replayed_transaction',
  'state_mismatch',
  'missing_parameters',
  'fragment_relay_required',
  'signature_invalid',
  'unsupported_alg',
  'issuer_mismatch',
  'audience_mismatch',
  'azp_mismatch',
  'token_expired',
  'iat_invalid',
  'nonce_mismatch',
  'at_hash_mismatch',
  'requested_scopes_mismatch',
  'returned_scopes_mismatch',
  'requested_claims_mismatch',
  'transaction_id_invalid',
  'subject_missing',
  'userinfo_subject_mismatch',
  'unknown_hint',
] as const;

/** Codes of {@link ValidationError}: every check the relying party makes. */
export type ValidationErrorCode = (typeof VALIDATION_ERROR_CODES)[number];

const VALIDATION_USER_MESSAGES: Partial<Record<ValidationErrorCode, string>> = {
  unknown_state: en['validation.unknown_state'],
  expired_transaction: en['validation.expired'],
  replayed_transaction: en['validation.replayed'],
  unknown_hint: en['validation.unknown_hint'],
  missing_parameters: en['validation.incomplete'],
};

/**
 * The relying party rejected a callback or a token: a check of OpenID Connect Core or of the
 * service's own rules failed. `code` says which.
 *
 * @group Errors
 */
export class ValidationError extends AffiliationError {
  declare readonly code: ValidationErrorCode;
  constructor(
    message: string,
    options: { code: ValidationErrorCode; cause?: unknown; userMessage?: string | undefined },
  ) {
    super(message, {
      code: options.code,
      cause: options.cause,
      userMessage: options.userMessage ?? VALIDATION_USER_MESSAGES[options.code] ?? en['validation.failed'],
    });
  }
}

/**
 * Every error the relying party throws, as a union that narrows on `code` without `instanceof`:
 * `switch (error.code) { case 'nonce_mismatch': … }`, and a misspelled code does not compile.
 * `callbackHandler`'s `onError` receives one.
 *
 * @group Errors
 */
export type AnyAffiliationError =
  | ValidationError
  | ProviderError
  | TransportError
  | OptionsError
  | ScopeError;
