import { ValidationError } from '../errors.js';
import { MAX_TRANSACTION_COOKIES } from './cookies.js';
import type { GoneEntry } from './gone-states.js';

/** The error for a state that is no longer held. */
export function goneError(gone: GoneEntry): ValidationError {
  switch (gone.kind) {
    case 'taken':
      return replayedError();
    case 'expired':
      return new ValidationError('expired_transaction', 'The transaction for this state has expired');
    case 'superseded':
      return supersededError();
    case 'evicted':
      return new ValidationError(
        'unknown_state',
        'The transaction for this state was dropped because the store was full (raise `maxEntries`)',
      );
  }
}

export function replayedError(): ValidationError {
  return new ValidationError(
    'replayed_transaction',
    'The transaction for this state was already used: the callback was submitted twice (a reload or a double click)',
  );
}

export function supersededError(): ValidationError {
  return new ValidationError(
    'unknown_state',
    `This validation was superseded by a newer one started in the same browser (a browser keeps only its newest ${MAX_TRANSACTION_COOKIES} validations)`,
  );
}
