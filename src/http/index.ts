export type { HttpOptions, HttpRequestInit } from './client.js';
export { backoffMs, HttpClient, retryAfterMs } from './client.js';
