import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortOrder } from '../../src/hints/search/sort.js';

/** The order the dictionary must have: by UTF-16 code units (what `<` compares), distinct words. */
function reference(texts: readonly string[]): number[] {
  return texts
    .map((_, i) => i)
    .sort((a, b) => (texts[a]! < texts[b]! ? -1 : texts[a]! > texts[b]! ? 1 : a - b));
}

describe('sortOrder', () => {
  it('orders distinct words as string comparison does, across shared prefixes and scripts', () => {
    // Few letters and long shared stems: runs of words equal in their first 5, 10, 15 … characters,
    // longer than the in-place threshold, with characters beyond ASCII at every position.
    const letter = fc.constantFrom('a', 'b', 'z', '0', '~', 'é', 'ß', 'σ', '東', '\u00ff', '\u007f');
    const word = fc
      .tuple(
        fc.constantFrom('', 'univer', 'universi', 'tebçal', 'aaaaaaaaaaaa'),
        fc.array(letter, { maxLength: 14 }),
      )
      .map(([stem, rest]) => stem + rest.join(''));
    fc.assert(
      fc.property(fc.uniqueArray(word, { maxLength: 400 }), (texts) => {
        expect([...sortOrder(texts)]).toEqual(reference(texts));
      }),
      { numRuns: 200 },
    );
  });

  it('orders a large dictionary (many long runs) the same way', () => {
    const texts: string[] = [];
    for (let i = 0; i < 20_000; i++) texts.push(`stem${(i * 7919) % 20_011}x${i % 37}`);
    const distinct = [...new Set(texts)];
    expect([...sortOrder(distinct)]).toEqual(reference(distinct));
  });
});
