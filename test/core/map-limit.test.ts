import { describe, expect, it } from 'vitest';
import { mapLimit } from '../../src/core/map-limit.js';

describe('mapLimit', () => {
  it('keeps the order of the items and never more than `limit` calls in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const items = Array.from({ length: 20 }, (_, i) => i);
    const out = await mapLimit(items, 3, async (item, index) => {
      inFlight++;
      most = Math.max(most, inFlight);
      // Later items finish sooner, so order comes from the index, not from completion.
      await new Promise((resolve) => setTimeout(resolve, 20 - item));
      inFlight--;
      return `${item}:${index}`;
    });
    expect(out).toEqual(items.map((i) => `${i}:${i}`));
    expect(most).toBe(3);
  });

  it('an empty list gives an empty result without calling fn', async () => {
    let calls = 0;
    await expect(mapLimit([], 4, async () => ++calls)).resolves.toEqual([]);
    expect(calls).toBe(0);
  });

  it('a rejection rejects the whole', async () => {
    const boom = new Error('boom');
    await expect(mapLimit([1, 2, 3], 2, async (i) => (i === 2 ? Promise.reject(boom) : i))).rejects.toBe(
      boom,
    );
  });
});
