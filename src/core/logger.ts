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
