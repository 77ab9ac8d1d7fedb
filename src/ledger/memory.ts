import { clock } from '../core/options.js';
import type { AffiliationResult } from '../rp/types.js';
import { LedgerKeys } from './keys.js';
import type { ClaimOptions, OfferClaim, OfferLedger, OfferLedgerOptions } from './types.js';

/** Options of {@link MemoryOfferLedger}. @group Offers */
export interface MemoryOfferLedgerOptions extends OfferLedgerOptions {
  /** Clock, ms since the epoch. Default `Date.now`. */
  now?: (() => number) | undefined;
}

interface Entry {
  claimedAt: number;
  /** When the entry is forgotten, ms since the epoch; `Infinity` for never. */
  until: number;
}

/**
 * An {@link OfferLedger} in this process's memory: for one app instance, and for tests. Claims are
 * lost on restart and not seen by other instances; use `RedisOfferLedger` from
 * `affiliation-validation/redis` for those. Memory grows with every claim (one map entry per
 * identifying value) until its retention passes; without `retentionMs` it is never released.
 *
 * @example
 * ```ts
 * const ledger = new MemoryOfferLedger({ secret: process.env.OFFER_SECRET!, whenUnidentifiable: 'refuse' });
 * const { claimed } = await ledger.claim('welcome-2026', result);
 * ```
 * @group Offers
 */
export class MemoryOfferLedger implements OfferLedger {
  readonly #keys: LedgerKeys;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();

  constructor(options: MemoryOfferLedgerOptions) {
    this.#keys = new LedgerKeys(options, 'MemoryOfferLedger');
    this.#now = clock(options.now);
  }

  async claim(offerId: string, result: AffiliationResult, options?: ClaimOptions): Promise<OfferClaim> {
    const keys = await this.#keys.keysFor(offerId, result, options);
    if (keys === undefined) return { claimed: true };
    const now = this.#now();
    // Synchronous from here on: nothing else runs between the check and the write.
    let earliest: Entry | undefined;
    const missing: string[] = [];
    for (const id of keys.ids) {
      const key = `${keys.offer}:${id}`;
      const entry = this.#entries.get(key);
      if (entry !== undefined && now >= entry.until) this.#entries.delete(key);
      else if (entry !== undefined) {
        if (earliest === undefined || entry.claimedAt < earliest.claimedAt) earliest = entry;
        continue;
      }
      missing.push(key);
    }
    // Already claimed: the values this result adds are linked to the earlier claim, so one of them
    // alone is recognised later too.
    const entry: Entry = earliest ?? {
      claimedAt: now,
      until: keys.retentionMs === undefined ? Number.POSITIVE_INFINITY : now + keys.retentionMs,
    };
    for (const key of missing) this.#entries.set(key, entry);
    return earliest === undefined
      ? { claimed: true }
      : { claimed: false, claimedAt: new Date(earliest.claimedAt) };
  }
}
