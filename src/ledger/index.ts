export { OfferLedgerError } from './errors.js';
export type { MemoryOfferLedgerOptions } from './memory.js';
export { MemoryOfferLedger } from './memory.js';
export type { ClaimOptions, OfferClaim, OfferLedger, OfferLedgerOptions } from './types.js';
