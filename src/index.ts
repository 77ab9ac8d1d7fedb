export type { TransportErrorCode } from './core/errors.js';
export { AffiliationError, OptionsError, TransportError } from './core/errors.js';
export type { Logger } from './core/logger.js';
export type {
  Affiliation,
  AffiliationResult,
  ClaimsRequest,
  HintLookup,
  Identifier,
  Transaction,
  TransactionContext,
  TransactionStore,
} from './rp/types.js';
