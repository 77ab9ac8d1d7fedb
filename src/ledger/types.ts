import type { AffiliationResult } from '../rp/types.js';

/**
 * The answer of {@link OfferLedger.claim}: `claimed: true` when this result redeems the offer now,
 * or `claimed: false` with the time of the earlier claim that already redeemed it.
 *
 * @group Offers
 */
export type OfferClaim = { claimed: true } | { claimed: false; claimedAt: Date };

/** Options of one {@link OfferLedger.claim}. @group Offers */
export interface ClaimOptions {
  /**
   * How long this claim is remembered, in milliseconds; after it the same shopper can redeem the
   * offer again (e.g. a yearly offer). Default: the ledger's `retentionMs`.
   */
  retentionMs?: number | undefined;
}

/**
 * Remembers which shoppers redeemed which one-time offer (spec 2.3: `reuse_detection` "detects
 * abuse of one-time offers"). A claim is keyed by every `reuse_detection` value of the result and,
 * when the identifier is `persistent`, by its subject; a later result that shares ANY one of these
 * with an earlier claim of the same offer is already claimed. Each claim is atomic: of several
 * claims racing for the same shopper, exactly one is `claimed: true`.
 *
 * Implementations: `MemoryOfferLedger` (one process) and `RedisOfferLedger` from
 * `affiliation-validation/redis` (every instance).
 *
 * @group Offers
 */
export interface OfferLedger {
  /**
   * Record `result` as redeeming `offerId` unless the same shopper already did.
   *
   * @param offerId Your name for the offer (any non-empty string up to 256 characters).
   * @param result What `validateCallback` returned.
   * @throws {OfferLedgerError} `unidentifiable_result` when the result carries nothing that
   *   identifies the shopper and the ledger was built with `whenUnidentifiable: 'refuse'`.
   */
  claim(offerId: string, result: AffiliationResult, options?: ClaimOptions): Promise<OfferClaim>;
}

/** Options shared by every {@link OfferLedger} implementation. @group Offers */
export interface OfferLedgerOptions {
  /**
   * The ledger secret, at least 32 bytes (a string counts its UTF-8 bytes), the same on every app
   * instance. Keys are HMAC-SHA-256 of the offer and of each identifying value under a key derived
   * from it (HKDF-SHA-256, info `affiliation-validation/offer-ledger/v1`), so the ledger never holds
   * a raw `reuse_detection` value or subject. Changing it forgets every claim.
   */
  secret: string | Uint8Array;
  /**
   * What `claim` does with a result that identifies nobody: no `reuse_detection` value released
   * (not requested, or the institution does not provide it) and a `transient` subject (new for
   * every validation). `'refuse'` throws `OfferLedgerError('unidentifiable_result')`; `'allow'`
   * answers `{ claimed: true }` and records nothing, so such a shopper can redeem the offer again
   * with every validation. Required: there is no safe default for your offer.
   */
  whenUnidentifiable: 'refuse' | 'allow';
  /**
   * How long a claim is remembered, in milliseconds. Default: forever (until you delete it).
   * `claim(…, { retentionMs })` overrides it per claim.
   */
  retentionMs?: number | undefined;
}
