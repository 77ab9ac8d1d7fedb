import { texts as en } from '../i18n/catalogs/en.js';

/**
 * The one error base of the package. Every subclass is built the same way, `new XError(message,
 * options)`: `options.code` where the class has several codes, `options.cause`, and the class's own
 * fields; a class with a single code takes `(message, { cause })`. Every error the SDK throws is an {@link AffiliationError}
 * with a stable `code`, the original error in `cause`, and a `userMessage` that is safe to show a
 * shopper. Messages never contain client secrets, authorization codes, tokens, PKCE verifiers or
 * application passwords: build them from the redaction helpers in `./redact.ts`.
 *
 * @group Errors
 */
export class AffiliationError extends Error {
  /**
   * A stable, machine-readable code. Each subclass narrows it to its own union of literals; the
   * union of the subclasses (`AnyAffiliationError`) narrows on `code` without `instanceof`.
   */
  readonly code: string;
  /** A short message that can be shown to a shopper: what happened, in plain words, no internals. */
  readonly userMessage: string;

  constructor(message: string, options: { code: string; cause?: unknown; userMessage?: string | undefined }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code;
    this.userMessage = options.userMessage ?? en['error.unknown'];
  }
}

/** Every code of {@link TransportError}. */
export const TRANSPORT_ERROR_CODES = [
  'timeout',
  'network',
  'aborted',
  'response_too_large',
  'http_status',
  'invalid_response',
  'invalid_options',
] as const;

/** Codes of {@link TransportError}. */
export type TransportErrorCode = (typeof TRANSPORT_ERROR_CODES)[number];

/**
 * A request could not be completed: the network failed, a time limit passed, the answer was too
 * large, or the server answered with an unexpected status or body. `url` is redacted.
 *
 * @group Errors
 */
export class TransportError extends AffiliationError {
  declare readonly code: TransportErrorCode;
  /** HTTP status, when a response was received. */
  readonly status: number | undefined;
  /** The request method. */
  readonly method: string | undefined;
  /** The request URL with credentials and secret query parameters removed. */
  readonly url: string | undefined;

  constructor(
    message: string,
    options: {
      code: TransportErrorCode;
      cause?: unknown;
      status?: number | undefined;
      method?: string | undefined;
      url?: string | undefined;
      userMessage?: string | undefined;
    },
  ) {
    super(message, {
      code: options.code,
      cause: options.cause,
      userMessage: options.userMessage ?? en['error.unreachable'],
    });
    this.status = options.status;
    this.method = options.method;
    this.url = options.url;
  }
}

/** Options that fail validation up front throw this, naming the option. */
export class OptionsError extends AffiliationError {
  declare readonly code: 'invalid_options';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, {
      code: 'invalid_options',
      cause: options.cause,
      userMessage: en['error.misconfigured'],
    });
  }
}
