export type { HttpOptions, HttpRequestInit } from './client.js';
export {
  backoffMs,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_RETRIES,
  DEFAULT_TIMEOUT_MS,
  HttpClient,
  retryAfterMs,
  sanitizeCause,
} from './client.js';
export type { DispatcherOptions } from './dispatcher.js';
export {
  closeDefaultDispatcher,
  createDispatcher,
  getDefaultDispatcher,
  proxyFromEnv,
} from './dispatcher.js';
