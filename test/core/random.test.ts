import { describe, expect, it } from 'vitest';
import { random256 } from '../../src/core/random.js';

describe('random256', () => {
  it('gives 256 bits as 43 base64url characters', () => {
    for (let i = 0; i < 300; i++) {
      const value = random256();
      expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(value, 'base64url')).toHaveLength(32);
    }
  });

  it('never repeats a value, across many refills of its pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) seen.add(random256());
    expect(seen.size).toBe(20_000);
  });

  it('hands out no all-zero value (a slice is zeroed only after it was read)', () => {
    const zero = Buffer.alloc(32).toString('base64url');
    for (let i = 0; i < 1_000; i++) expect(random256()).not.toBe(zero);
  });

  it('spreads its bits evenly (each bit set in about half of the values)', () => {
    const counts = new Array<number>(256).fill(0);
    const n = 4_000;
    for (let i = 0; i < n; i++) {
      const bytes = Buffer.from(random256(), 'base64url');
      for (let bit = 0; bit < 256; bit++) if ((bytes[bit >> 3] as number) & (1 << (bit & 7))) counts[bit]!++;
    }
    // 4,000 draws: a fair bit lands within 2,000 ± 250 (about 8 standard deviations).
    for (const count of counts) expect(Math.abs(count - n / 2)).toBeLessThan(250);
  });
});
