export type { CookieTransactionStoreOptions } from './cookie.js';
export { CookieTransactionStore, MAX_COOKIE_PAIR_BYTES } from './cookie.js';
export { MAX_TRANSACTION_COOKIES } from './cookies.js';
export type { MemoryTransactionStoreOptions } from './memory.js';
export { MemoryTransactionStore } from './memory.js';
