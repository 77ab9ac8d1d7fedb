import { redact, redactValue } from './redact.js';

/**
 * A structured logger. Every method is optional; the default logger does nothing. Fields given to
 * the logger by the SDK are already redacted.
 *
 * @group Options
 */
export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
  error?(message: string, fields?: Record<string, unknown>): void;
}

export const noopLogger: Logger = Object.freeze({});

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/**
 * Wrap a logger so that every message and field it receives is redacted (generic rules plus the
 * exact `secrets`), and so that a logger that throws can never break the operation being logged.
 */
export function redactingLogger(logger: Logger, secrets: readonly (string | undefined)[] = []): Logger {
  const out: Logger = {};
  for (const level of LEVELS) {
    const method = logger[level];
    if (typeof method !== 'function') continue;
    out[level] = (message, fields) => {
      try {
        const safeFields =
          fields === undefined ? undefined : (redactValue(fields, secrets) as Record<string, unknown>);
        method.call(logger, redact(message, secrets), safeFields);
      } catch {
        // A broken logger must not turn a successful request into a failure.
      }
    };
  }
  return Object.freeze(out);
}
