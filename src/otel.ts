/**
 * `affiliation-validation/otel`: OpenTelemetry spans and metrics of validations, key fetches, token
 * requests, hint refreshes and docs-site requests. Needs `@opentelemetry/api` (an optional peer
 * dependency); the other entry points never load it.
 *
 * @module otel
 */
export type {
  DocsSiteRequestContext,
  HintsRefreshContext,
  OutcomeFields,
  SafeError,
  ServiceRequestContext,
  ValidationCallbackContext,
  ValidationStartContext,
} from './diagnostics/channels.js';
export { CHANNELS } from './diagnostics/channels.js';
export type { Instrumentation, InstrumentOptions } from './otel/instrument.js';
export { ATTR, INSTRUMENTATION_NAME, instrument } from './otel/instrument.js';
