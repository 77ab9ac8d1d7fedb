import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHintFeed } from '../../src/hints/parse.js';
import { fold } from '../../src/hints/search/fold.js';
import { SearchIndex } from '../../src/hints/search/index.js';

/**
 * The index answers from sorted dictionaries and early-stopping scans; these properties check it
 * against brute force over every name: what it returns matches, what it leaves out ranks no better,
 * nothing is listed twice, and the limit holds.
 */
const WORDS = [
  'uni',
  'univ',
  'universität',
  'délft',
  'delft',
  'of',
  'tech',
  'École',
  'ecole',
  'zürich',
  'zu',
  'a',
  'ab',
  'ba',
  'Łódź',
  'lodz',
];
const word = fc.constantFrom(...WORDS);
const name = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 4 }), fc.constantFrom(' ', '-', ' (', ', '))
  .map(([w, separator]) => w.join(separator));
const names = fc.dictionary(fc.constantFrom('en', 'nl', 'de', 'fr'), name, { minKeys: 0, maxKeys: 3 });
const feed = fc.array(fc.tuple(fc.constantFrom('NL', 'CH', 'FR'), names), { minLength: 1, maxLength: 30 });
const query = fc.oneof(
  word,
  fc.array(word, { minLength: 2, maxLength: 3 }).map((w) => w.join(' ')),
  fc.constantFrom('z', 'e', 'ni', 'ta'),
);

/**
 * Whether every word of `q` starts a word of the names (the prefix/word kinds): of one name, or,
 * ranked below, of the institution's names in several languages together.
 */
function wordMatch(names: string[], q: string): boolean {
  const words = fold(q).split(' ');
  const tokens = names.flatMap((n) => fold(n).split(' '));
  return words.every((w) => tokens.some((t) => t.startsWith(w)));
}

describe('search index', () => {
  it('returns only matches, each once, within the limit, and every word match when there is room', () => {
    fc.assert(
      fc.property(
        feed,
        query,
        fc.option(fc.constantFrom('en', 'nl', 'de', 'fr', 'fr-CH', 'es'), { nil: undefined }),
        fc.option(fc.constantFrom('NL', 'ch', 'FR', 'DE'), { nil: undefined }),
        fc.integer({ min: 1, max: 40 }),
        (items, q, lang, country, limit) => {
          const doc: Record<string, Record<string, Record<string, string>>> = {};
          items.forEach(([cc, n], i) => {
            doc[cc] ??= {};
            doc[cc][`https://idp${i}.example.org/idp`] = n;
          });
          const entries = [...parseHintFeed(doc).entries.values()];
          const index = new SearchIndex(entries);
          const got = index.search(q, { limit, ...(lang ? { lang } : {}), ...(country ? { country } : {}) });
          expect(got.length).toBeLessThanOrEqual(limit);
          expect(new Set(got.map((r) => r.entityId)).size).toBe(got.length);
          const expected = entries.filter((e) => wordMatch(Object.values(e.names), q));
          for (const r of got) {
            const entry = entries.find((e) => e.entityId === r.entityId)!;
            if (r.match === 'prefix' || r.match === 'word' || r.match === 'exact') {
              expect(wordMatch(Object.values(entry.names), q)).toBe(true);
            }
          }
          // Word matches rank above substrings and typos: with room, all of them are there, first. With
          // them rank, for a short word ("uva"), the initials and host labels of institutions of the
          // shopper's country or language (rank.ts, RANK_TABLES.short): they may take the room.
          const short = /^\p{L}{2,8}$/u.test(q.trim());
          const base = lang?.split('-')[0];
          const own = (r: (typeof got)[number]) => {
            const entry = entries.find((e) => e.entityId === r.entityId)!;
            return entry.country === country?.toUpperCase() || (base !== undefined && base in entry.names);
          };
          const first = got.filter(
            (r) =>
              ['exact', 'prefix', 'word'].includes(r.match) ||
              (short && ['acronym', 'host'].includes(r.match) && own(r)),
          );
          expect(got.slice(0, first.length)).toEqual(first);
          const missing = expected.filter((e) => !got.some((r) => r.entityId === e.entityId));
          if (missing.length > 0) expect(first.length).toBe(limit);
        },
      ),
      { numRuns: 300 },
    );
  });
});
