import { OptionsError } from '../../core/errors.js';
import type { Transaction } from '../types.js';

/** Minimal checks of a transaction handed to `put` (a programming error, so OptionsError). */
export function checkTransaction(transaction: Transaction): void {
  if (typeof transaction !== 'object' || transaction === null) {
    throw new OptionsError('`transaction` must be an object');
  }
  if (typeof transaction.state !== 'string' || transaction.state === '') {
    throw new OptionsError('`transaction.state` must be a non-empty string');
  }
  if (typeof transaction.expiresAt !== 'number' || !Number.isFinite(transaction.expiresAt)) {
    throw new OptionsError('`transaction.expiresAt` must be a time in ms since the epoch');
  }
}
