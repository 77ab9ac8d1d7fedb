import { describe, expect, it } from 'vitest';
import { random256 } from '../../src/core/random.js';

describe('random256', () => {
  it('gives 256 bits as 43 base64url characters, a new value each time', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100; i++) {
      const value = random256();
      expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(value, 'base64url')).toHaveLength(32);
      seen.add(value);
    }
    expect(seen.size).toBe(100);
  });
});
