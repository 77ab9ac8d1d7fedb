export type { CookieTransactionStoreOptions } from './cookie.js';
export { CookieTransactionStore, MAX_COOKIE_BYTES } from './cookie.js';
export type { MemoryTransactionStoreOptions } from './memory.js';
export { MemoryTransactionStore } from './memory.js';
