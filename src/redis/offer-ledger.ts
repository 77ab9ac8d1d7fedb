import { LedgerKeys } from '../ledger/keys.js';
import type { ClaimOptions, OfferClaim, OfferLedger, OfferLedgerOptions } from '../ledger/types.js';
import type { AffiliationResult } from '../rp/types.js';
import { RedisConnection, script } from './connection.js';
import { StoreError } from './errors.js';
import type { RedisTransactionStoreOptions } from './transaction-store.js';

/**
 * Options of {@link RedisOfferLedger}: `client`, `commandTimeoutMs` and `waitForReplica` as for
 * `RedisTransactionStore`.
 *
 * @group Redis
 */
export interface RedisOfferLedgerOptions
  extends OfferLedgerOptions,
    Pick<RedisTransactionStoreOptions, 'client' | 'commandTimeoutMs' | 'waitForReplica'> {
  /**
   * Prefix of every key the ledger writes: `<keyPrefix>offer:{<offer tag>}:<HMAC>`. Up to 64
   * characters; no spaces, `{` or `}`. Default `'av:'`.
   */
  keyPrefix?: string | undefined;
}

/**
 * claim: KEYS are the keys of one result (one offer, so one hash tag: one slot in a cluster);
 * ARGV[1] retention in ms, '0' for forever. Returns nil when this result claimed the offer now, or
 * the claim time (ms, Redis's clock) of the earliest earlier claim it shares a key with; then the
 * keys it adds are linked to that claim (same time, same remaining life).
 */
const CLAIM = script(`
local found = false
local foundKey
local missing = {}
for i = 1, #KEYS do
  local v = redis.call('GET', KEYS[i])
  if v then
    if not found or tonumber(v) < tonumber(found) then found = v foundKey = KEYS[i] end
  else
    missing[#missing + 1] = KEYS[i]
  end
end
local value
local life = tonumber(ARGV[1])
if found then
  value = found
  life = redis.call('PTTL', foundKey)
else
  local t = redis.call('TIME')
  value = tostring(tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
end
for i = 1, #missing do
  if life > 0 then
    redis.call('SET', missing[i], value, 'PX', life)
  else
    redis.call('SET', missing[i], value)
  end
end
return found
`);

/**
 * An {@link OfferLedger} shared by every app instance through Redis. One claim is one Lua script,
 * so it is atomic across instances: of several instances claiming the same offer for the same
 * shopper at once, exactly one gets `{ claimed: true }`. Claim times come from Redis's clock, the
 * same for every instance; retention is Redis's TTL.
 *
 * What Redis holds: per claimed offer and identifying value, one key named by HMACs (of the offer
 * id, and of the value) whose value is the claim time in ms. No raw `reuse_detection` value,
 * subject, offer id or anything else from the result.
 *
 * A Redis failure is a `StoreError`, never an answer. A claim that fails with `store_unavailable`
 * after it was sent may still have been recorded (Redis answered but the answer was lost).
 *
 * @example
 * ```ts
 * import { RedisOfferLedger } from 'affiliation-validation/redis';
 *
 * const offers = new RedisOfferLedger({ client: redis, secret: process.env.OFFER_SECRET!, whenUnidentifiable: 'refuse' });
 * const claim = await offers.claim('welcome-2026', result);
 * if (!claim.claimed) console.log(`already redeemed on ${claim.claimedAt.toISOString()}`);
 * ```
 * @group Redis
 */
export class RedisOfferLedger implements OfferLedger {
  readonly #keys: LedgerKeys;
  readonly #redis: RedisConnection;

  constructor(options: RedisOfferLedgerOptions) {
    this.#keys = new LedgerKeys(options, 'RedisOfferLedger');
    this.#redis = new RedisConnection(options);
  }

  /**
   * Record `result` as redeeming `offerId` unless the same shopper already did (see
   * {@link OfferLedger.claim}).
   *
   * @throws {StoreError} when Redis cannot be reached or refuses.
   */
  async claim(offerId: string, result: AffiliationResult, options?: ClaimOptions): Promise<OfferClaim> {
    const keys = await this.#keys.keysFor(offerId, result, options);
    if (keys === undefined) return { claimed: true };
    const base = `${this.#redis.prefix}offer:{${keys.offer}}:`;
    const [first, ...rest] = keys.ids.map((id) => base + id);
    if (first === undefined) return { claimed: true };
    const reply = await this.#redis.run(CLAIM, [first, ...rest], [String(keys.retentionMs ?? 0)]);
    if (reply === null || reply === undefined) return { claimed: true };
    const claimedAt = typeof reply === 'string' ? Number(reply) : Number.NaN;
    if (!Number.isSafeInteger(claimedAt) || claimedAt <= 0) {
      throw new StoreError(
        `Redis holds a value under the key prefix ${JSON.stringify(this.#redis.prefix)} that this ledger did not write; give the ledger its own keyPrefix`,
        { code: 'store_failed' },
      );
    }
    return { claimed: false, claimedAt: new Date(claimedAt) };
  }
}
