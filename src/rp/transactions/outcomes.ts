import { ValidationError } from '../errors.js';
import { MAX_TRANSACTION_COOKIES } from './cookies.js';
import type { GoneKind } from './gone-states.js';

/** The error for a state that is no longer held. */
export function goneError(kind: GoneKind): ValidationError {
  switch (kind) {
    case 'taken':
      return replayedError();
    case 'expired':
      return new ValidationError('The transaction for this state has expired', {
        code: 'expired_transaction',
      });
    case 'superseded':
      return supersededError();
    case 'evicted':
      return new ValidationError(
        'The transaction for this state was dropped because the store was full (raise `maxEntries`)',
        { code: 'unknown_state' },
      );
  }
}

export function replayedError(): ValidationError {
  return new ValidationError(
    'The transaction for this state was already used: the callback was submitted twice (a reload or a double click)',
    { code: 'replayed_transaction' },
  );
}

export function supersededError(): ValidationError {
  return new ValidationError(
    `This validation was superseded by a newer one started in the same browser (a browser keeps only its newest ${MAX_TRANSACTION_COOKIES} validations)`,
    { code: 'unknown_state' },
  );
}

/** A binding store's callback that carries none of its cookies: say what probably happened. */
export function noCookieError(kind: 'binding' | 'transaction', secure: boolean): ValidationError {
  return new ValidationError(
    `The callback request carries no ${kind} cookie: the start route did not send \`setCookie\` with its redirect, ` +
      (secure
        ? 'the start route was served over plain http on a host other than localhost, where a browser drops a `Secure` cookie (serve it over https, or on localhost), '
        : '') +
      'or the callback was opened in another browser than the one that started the validation',
    { code: 'unknown_state' },
  );
}
