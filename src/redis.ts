export { AffiliationError, OptionsError } from './core/errors.js';
export type {
  IORedisClientLike,
  NodeRedisClientLike,
  NodeRedisClusterLike,
  RedisClientLike,
} from './redis/connection.js';
export type { StoreErrorCode } from './redis/errors.js';
export { StoreError } from './redis/errors.js';
export type { RedisOfferLedgerOptions } from './redis/offer-ledger.js';
export { RedisOfferLedger } from './redis/offer-ledger.js';
export type { RedisTransactionStoreOptions } from './redis/transaction-store.js';
export { RedisTransactionStore } from './redis/transaction-store.js';
