import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseText } from '../../src/hints/normalize.js';
import { parseHintFeed } from '../../src/hints/parse.js';
import { SearchIndex, shownLang } from '../../src/hints/search-index.js';
import type { HintEntry, HintSearchResult } from '../../src/hints/types.js';

/**
 * The index answers from one joined string with binary search and indexOf; this reference answers
 * the same question by brute force over every name. They must agree on every query, filter and limit.
 */
function reference(
  entries: HintEntry[],
  query: string,
  opts: { lang?: string; country?: string; limit: number },
) {
  const q = normaliseText(query);
  if (!q) return [];
  const lang = opts.lang?.toLowerCase().replace(/_/g, '-');
  const words = q.split(' ');
  const tierOf = (text: string): number => {
    if (text.startsWith(q)) return 0;
    if (text.includes(` ${q}`)) return 1;
    if (text.includes(q)) return 2;
    if (words.length > 1) {
      const longest = words.reduce((a, b) => (b.length > a.length ? b : a));
      const spaced = ` ${text}`;
      if (spaced.includes(` ${longest}`) && words.every((w) => spaced.includes(` ${w}`))) return 3;
    }
    return 4;
  };
  const kinds = ['prefix', 'word', 'substring', 'words'] as const;
  const hits: { e: number; tier: number; key: string }[] = [];
  entries.forEach((entry, e) => {
    if (opts.country && entry.country !== opts.country.toUpperCase()) return;
    const langs = lang === undefined ? Object.keys(entry.names) : [shownLang(entry, lang)].filter(Boolean);
    let best: { tier: number; key: string } | undefined;
    for (const l of langs) {
      const text = normaliseText(entry.names[l as string]!);
      if (!text) continue;
      const tier = tierOf(text);
      if (tier < 4 && (!best || tier < best.tier || (tier === best.tier && text < best.key)))
        best = { tier, key: text };
    }
    if (best) hits.push({ e, ...best });
  });
  hits.sort((a, b) => a.tier - b.tier || (a.key < b.key ? -1 : a.key > b.key ? 1 : a.e - b.e));
  return hits.slice(0, opts.limit).map((h) => ({ entityId: entries[h.e]!.entityId, match: kinds[h.tier] }));
}

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
// The separator is drawn by the property itself (not fc.sample, which draws from its own random
// source), so a failure replays from its seed and shrinks.
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

describe('search index', () => {
  it('agrees with a brute-force reference on every query, filter and limit', () => {
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
          const got = index
            .search(q, { limit, ...(lang ? { lang } : {}), ...(country ? { country } : {}) })
            .map((r: HintSearchResult) => ({ entityId: r.entityId, match: r.match }));
          expect(got).toEqual(reference(entries, q, { limit, lang, country }));
        },
      ),
      { numRuns: 400 },
    );
  });
});
