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
 * The one check of an integer option, up front, naming it in the error: `undefined` gives
 * `fallback`, anything else must be an integer from `min` (default 1) to `max`.
 */
export function integerOption<F extends number | undefined>(
  name: string,
  value: unknown,
  fallback: F,
  { min = 1, max = Number.MAX_SAFE_INTEGER }: { min?: number; max?: number } = {},
): number | F {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new OptionsError(
      `Option \`${name}\` must be an integer from ${min} to ${max}, got ${describe(value)}`,
    );
  }
  return value;
}

/**
 * The one check of a `secret` option (the cookie store's, the offer ledgers'): a string (its UTF-8
 * bytes) or bytes, at least 32 of them. A copy, so the caller's array can change without effect.
 */
export function secretOption(value: unknown): Uint8Array {
  const bytes =
    typeof value === 'string'
      ? new TextEncoder().encode(value)
      : value instanceof Uint8Array
        ? value.slice()
        : undefined;
  if (bytes === undefined) {
    throw new OptionsError(`Option \`secret\` must be a string or a Uint8Array, got ${describe(value)}`);
  }
  if (bytes.byteLength < 32) {
    throw new OptionsError(
      `Option \`secret\` must be at least 32 bytes, got ${bytes.byteLength} (generate one with \`openssl rand -base64 32\`)`,
    );
  }
  return bytes;
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
