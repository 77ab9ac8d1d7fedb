import { OptionsError } from './errors.js';

/** setTimeout's largest delay; a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A value for an error message: short, and never more than 40 characters of a string. */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  return `a value of type ${typeof value}`;
}

/**
 * Check an integer option up front, naming it in the error: `undefined` gives `fallback`, anything
 * else must be an integer from `min` (default 1) to `max`.
 */
export function integerOption(
  name: string,
  value: unknown,
  fallback: number,
  { min = 1, max = Number.MAX_SAFE_INTEGER }: { min?: number; max?: number } = {},
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new OptionsError(
      `Option \`${name}\` must be an integer from ${min} to ${max}, got ${describe(value)}`,
    );
  }
  return value;
}

/** {@link integerOption} from 1 to `max`. */
export function positiveInteger(
  name: string,
  value: unknown,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
) {
  return integerOption(name, value, fallback, { max });
}

/** Validate an injectable clock (ms since the epoch); the default is `Date.now`. */
export function clock(value: unknown): () => number {
  if (value === undefined) return () => Date.now();
  if (typeof value !== 'function') {
    throw new OptionsError(
      `Option \`now\` must be a function returning ms since the epoch, got ${describe(value)}`,
    );
  }
  return value as () => number;
}
