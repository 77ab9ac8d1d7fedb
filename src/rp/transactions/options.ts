import { OptionsError } from '../../core/errors.js';
import type { Transaction } from '../types.js';

/** Validate a positive integer option up front; name the option in the error. */
export function positiveInteger(
  name: string,
  value: unknown,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
) {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new OptionsError(`Option \`${name}\` must be an integer from 1 to ${max}, got ${describe(value)}`);
  }
  return value;
}

/** Validate the injectable clock. */
export function clock(value: unknown): () => number {
  if (value === undefined) return () => Date.now();
  if (typeof value !== 'function') {
    throw new OptionsError(
      `Option \`now\` must be a function returning ms since the epoch, got ${describe(value)}`,
    );
  }
  return value as () => number;
}

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

export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  return `a value of type ${typeof value}`;
}
