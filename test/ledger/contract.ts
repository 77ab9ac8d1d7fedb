/**
 * What every OfferLedger must do, run against each implementation (memory here, Redis with each
 * client library in test/redis/ledger.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { OptionsError } from '../../src/core/errors.js';
import { OfferLedgerError } from '../../src/ledger/errors.js';
import type { OfferLedger, OfferLedgerOptions } from '../../src/ledger/types.js';
import type { AffiliationResult } from '../../src/rp/types.js';

export const SECRET = 'ledger-secret-0123456789abcdef-0123456789';

/** A validation result; transient with a fresh subject unless overridden. */
export function result(overrides: Partial<AffiliationResult> = {}): AffiliationResult {
  return {
    affiliation: 'student',
    identifier: 'transient',
    subject: randomUUID(),
    transactionId: randomUUID(),
    authTime: new Date(),
    expiresAt: new Date(Date.now() + 3_600_000),
    claims: {},
    ...overrides,
  };
}

export interface LedgerHarness {
  make(options: Omit<OfferLedgerOptions, 'secret'> & { secret?: OfferLedgerOptions['secret'] }): OfferLedger;
  /** Let `ms` milliseconds pass for the ledger (a fake clock, or real time for Redis's TTL). */
  pass(ms: number): Promise<void>;
  /** The time the ledger's clock says now, ms. */
  now(): number;
}

export function ledgerContract(h: LedgerHarness): void {
  const make = (options: Partial<OfferLedgerOptions> = {}) =>
    h.make({ secret: SECRET, whenUnidentifiable: 'refuse', ...options });

  it('claims an offer once per shopper, and says when it was claimed', async () => {
    const ledger = make();
    const shopper = result({ reuseDetection: [`rd-${randomUUID()}`] });
    const before = h.now();
    await expect(ledger.claim('offer-1', shopper)).resolves.toEqual({ claimed: true });
    const again = await ledger.claim('offer-1', { ...shopper, subject: randomUUID() });
    expect(again.claimed).toBe(false);
    const at = (again as { claimedAt: Date }).claimedAt;
    expect(at).toBeInstanceOf(Date);
    expect(Math.abs(at.getTime() - before)).toBeLessThan(5_000);
  });

  it('recognises a shopper by ANY one reuse_detection value, and offers apart', async () => {
    const ledger = make();
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await expect(ledger.claim('offer-1', result({ reuseDetection: [a, b] }))).resolves.toEqual({
      claimed: true,
    });
    expect((await ledger.claim('offer-1', result({ reuseDetection: [c, b] }))).claimed).toBe(false);
    // The value c came with a known one: it is now linked to the claim, and recognised alone.
    expect((await ledger.claim('offer-1', result({ reuseDetection: [c] }))).claimed).toBe(false);
    await expect(ledger.claim('offer-1', result({ reuseDetection: [randomUUID()] }))).resolves.toEqual({
      claimed: true,
    });
    // Another offer is another ledger entry.
    await expect(ledger.claim('offer-2', result({ reuseDetection: [a] }))).resolves.toEqual({
      claimed: true,
    });
  });

  it('recognises a persistent subject, but never a transient one', async () => {
    const ledger = make();
    const subject = randomUUID();
    const persistent = result({ identifier: 'persistent', subject });
    await expect(ledger.claim('offer-1', persistent)).resolves.toEqual({ claimed: true });
    expect((await ledger.claim('offer-1', { ...persistent, transactionId: randomUUID() })).claimed).toBe(
      false,
    );
    // The same string as a transient subject identifies nobody (transient subjects are per transaction).
    const rd = randomUUID();
    await expect(ledger.claim('offer-1', result({ subject, reuseDetection: [rd] }))).resolves.toEqual({
      claimed: true,
    });
  });

  it('answers the earliest claim when a result matches several', async () => {
    const ledger = make();
    const [a, b] = [randomUUID(), randomUUID()];
    await ledger.claim('offer-1', result({ reuseDetection: [a] }));
    const first = h.now();
    await h.pass(30);
    await ledger.claim('offer-1', result({ reuseDetection: [b] }));
    const both = await ledger.claim('offer-1', result({ reuseDetection: [b, a] }));
    expect(both.claimed).toBe(false);
    expect((both as { claimedAt: Date }).claimedAt.getTime()).toBeLessThanOrEqual(first);
  });

  it('gives exactly one `claimed` to the same shopper claiming many times at once', async () => {
    const ledger = make();
    const rd = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        ledger.claim('offer-1', result({ reuseDetection: i % 2 ? [rd] : [rd, randomUUID()] })),
      ),
    );
    expect(answers.filter((a) => a.claimed)).toHaveLength(1);
  });

  it("refuses a result that identifies nobody with whenUnidentifiable: 'refuse', saying what to do", async () => {
    const ledger = make({ whenUnidentifiable: 'refuse' });
    for (const reuseDetection of [undefined, [], ['']]) {
      const error = await ledger.claim('offer-1', result({ reuseDetection })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OfferLedgerError);
      expect((error as OfferLedgerError).code).toBe('unidentifiable_result');
      expect((error as Error).message).toMatch(/reuse_detection/);
      expect((error as Error).message).toMatch(/whenUnidentifiable: 'allow'/);
    }
  });

  it("lets a result that identifies nobody claim every time with whenUnidentifiable: 'allow'", async () => {
    const ledger = make({ whenUnidentifiable: 'allow' });
    const anonymous = result();
    await expect(ledger.claim('offer-1', anonymous)).resolves.toEqual({ claimed: true });
    await expect(ledger.claim('offer-1', anonymous)).resolves.toEqual({ claimed: true });
    // An identifiable result is still recorded.
    const known = result({ reuseDetection: [randomUUID()] });
    await expect(ledger.claim('offer-1', known)).resolves.toEqual({ claimed: true });
    expect((await ledger.claim('offer-1', known)).claimed).toBe(false);
  });

  it('forgets a claim after its retention (ledger default, or per claim)', async () => {
    const ledger = make({ retentionMs: 200 });
    const shopper = result({ reuseDetection: [randomUUID()] });
    const kept = result({ reuseDetection: [randomUUID()] });
    await expect(ledger.claim('offer-1', shopper)).resolves.toEqual({ claimed: true });
    await expect(ledger.claim('offer-1', kept, { retentionMs: 60_000 })).resolves.toEqual({ claimed: true });
    expect((await ledger.claim('offer-1', shopper)).claimed).toBe(false);
    await h.pass(400);
    await expect(ledger.claim('offer-1', shopper)).resolves.toEqual({ claimed: true });
    expect((await ledger.claim('offer-1', kept)).claimed).toBe(false);
  });

  it('keys claims by the secret: another secret is another ledger', async () => {
    const shopper = result({ reuseDetection: [randomUUID()] });
    await make().claim('offer-1', shopper);
    const other = make({ secret: 'another-secret-0123456789abcdef-012345678' });
    await expect(other.claim('offer-1', shopper)).resolves.toEqual({ claimed: true });
  });

  it('checks its options and arguments up front, naming the bad one', () => {
    expect(() => h.make({ secret: 'short', whenUnidentifiable: 'refuse' })).toThrow(/at least 32 bytes/);
    expect(() => h.make({ secret: SECRET } as never)).toThrow(/whenUnidentifiable.*required/);
    expect(() => h.make({ secret: SECRET, whenUnidentifiable: 'maybe' as never })).toThrow(OptionsError);
    expect(() => make({ retentionMs: 0 })).toThrow(/retentionMs/);
  });

  it('refuses a malformed offer id or result with an OptionsError', async () => {
    const ledger = make();
    await expect(ledger.claim('', result({ reuseDetection: ['x'] }))).rejects.toThrow(/offerId/);
    await expect(ledger.claim('o', null as never)).rejects.toThrow(OptionsError);
    await expect(ledger.claim('o', result({ reuseDetection: [1 as never] }))).rejects.toThrow(
      /reuseDetection/,
    );
    await expect(
      ledger.claim('o', result({ reuseDetection: Array.from({ length: 65 }, (_, i) => `v${i}`) })),
    ).rejects.toThrow(/at most 64/);
    await expect(ledger.claim('o', result({ reuseDetection: ['x'] }), { retentionMs: -1 })).rejects.toThrow(
      /retentionMs/,
    );
  });
}
