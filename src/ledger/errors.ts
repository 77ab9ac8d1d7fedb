import { AffiliationError } from '../core/errors.js';

/**
 * An offer ledger refused to record a claim. `code` is `unidentifiable_result`: the result carries
 * no `reuse_detection` value and a `transient` subject, so nothing in it can recognise the shopper
 * again, and the ledger was built with `whenUnidentifiable: 'refuse'`.
 *
 * @group Errors
 */
export class OfferLedgerError extends AffiliationError {
  declare readonly code: 'unidentifiable_result';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, {
      code: 'unidentifiable_result',
      cause: options.cause,
      userMessage:
        'Your institution did not share what this offer needs to recognise a returning shopper, so it cannot be applied.',
    });
  }
}
