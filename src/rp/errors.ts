import { AffiliationError } from '../core/errors.js';

/**
 * A scope string or scope parts break a rule of spec section 2.2. The message names the rule.
 *
 * @group Errors
 */
export class ScopeError extends AffiliationError {
  declare readonly code: 'invalid_scope';
  constructor(message: string) {
    super(message, {
      code: 'invalid_scope',
      userMessage: 'This shop asked for a kind of validation that is not possible. Please contact the shop.',
    });
  }
}

/** Error codes the service returns (spec 7.1), plus the token and userinfo endpoint codes. */
export type ProviderErrorCode =
  | 'access_denied'
  | 'invalid_scope'
  | 'invalid_request'
  | 'unauthorised_client'
  | 'unauthorized_client'
  | 'invalid_grant'
  | 'invalid_client'
  | 'invalid_token'
  | (string & {});

/**
 * The service answered with an OAuth/OpenID error: on the redirect (query or fragment), at the
 * token endpoint or at the userinfo endpoint.
 *
 * @group Errors
 */
export class ProviderError extends AffiliationError {
  declare readonly code: ProviderErrorCode;
  /** The `error` value as the service sent it (`unauthorised_client` is kept as spelled). */
  readonly error: ProviderErrorCode;
  /** `error_description`, when sent. */
  readonly description: string | undefined;
  /** `state`, when sent. */
  readonly state: string | undefined;
  /** Where the error came from. */
  readonly source: 'authorization' | 'token' | 'userinfo';
  /** HTTP status of a token or userinfo endpoint error. */
  readonly status: number | undefined;

  constructor(options: {
    error: string;
    description?: string;
    state?: string;
    source: 'authorization' | 'token' | 'userinfo';
    status?: number;
    cause?: unknown;
  }) {
    const where =
      options.source === 'authorization'
        ? 'the authorization response'
        : options.source === 'token'
          ? 'the token endpoint'
          : 'the userinfo endpoint';
    super(
      `The provider returned "${options.error}" from ${where}${options.description ? `: ${options.description}` : ''}`,
      { code: options.error, cause: options.cause, userMessage: providerUserMessage(options.error) },
    );
    this.error = options.error;
    this.description = options.description;
    this.state = options.state;
    this.source = options.source;
    this.status = options.status;
  }
}

function providerUserMessage(error: string): string {
  switch (error) {
    case 'access_denied':
      return 'Your affiliation could not be confirmed by your institution, or you declined to share it.';
    case 'invalid_scope':
    case 'invalid_request':
    case 'unauthorised_client':
    case 'unauthorized_client':
    case 'invalid_client':
    case 'invalid_grant':
      return 'The validation could not be started because of a problem on the shop side. Please contact the shop.';
    default:
      return 'Your affiliation could not be validated. Please try again.';
  }
}

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
  unknown_state: 'This validation link is no longer valid. Please start the validation again.',
  expired_transaction: 'The validation took too long. Please start it again.',
  replayed_transaction:
    'This validation link was already used, so your validation may already have succeeded. If it did not, please start the validation again.',
  unknown_hint: 'The selected institution is not available. Please choose your institution again.',
  missing_parameters: 'The validation answer was incomplete. Please start the validation again.',
};

/**
 * The relying party rejected a callback or a token: a check of OpenID Connect Core or of the
 * service's own rules failed. `code` says which.
 *
 * @group Errors
 */
export class ValidationError extends AffiliationError {
  declare readonly code: ValidationErrorCode;
  constructor(code: ValidationErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, {
      code,
      cause: options.cause,
      userMessage:
        VALIDATION_USER_MESSAGES[code] ??
        'Your affiliation could not be validated securely. Please start the validation again.',
    });
  }
}
