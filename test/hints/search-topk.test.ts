import { describe, expect, it } from 'vitest';
import { parseHintFeed } from '../../src/hints/parse.js';
import { SearchIndex } from '../../src/hints/search/index.js';
import type { HintSearchOptions } from '../../src/hints.js';
import { syntheticCombinedFeed } from './synthetic-feed.js';

/**
 * The index stops reading a posting list as soon as nothing later in it can enter the results, and
 * ranks a country's or a language's institutions ahead of the scan when they are few. Neither may
 * change an answer: the best `limit` results must be the first `limit` of a much longer ranked list
 * (100; its own scan stops far later). The feed is large enough that the one-letter prefixes cover
 * thousands of postings and that the country and language lists are short next to them (so those
 * shortcuts run).
 */
describe('search index, early stops', () => {
  const entries = [...parseHintFeed(syntheticCombinedFeed(3000, 20, 7)).entries.values()];
  const index = new SearchIndex(entries);
  const names = entries.filter((_, i) => i % 131 === 0).map((e) => e.names.en ?? '');
  const queries = [
    ...'abcdeklmnoprstuz'.split(''),
    ...names.map((n) => n.slice(0, 2)),
    ...names.map((n) => (n.split(' ').at(-1) ?? n).slice(0, 4)),
    ...names,
    ...names.map((n) => n.split(' ').slice(0, 2).join(' ')),
    ...names.map((n) => {
      const w = n.split(' ').at(-1) ?? n;
      return w.length >= 6 ? w.slice(0, 2) + w[3] + w[2] + w.slice(4) : `${w}x`;
    }),
  ];
  const options: HintSearchOptions[] = [
    {},
    { country: 'NL' },
    { lang: 'de' },
    { country: 'DE', lang: 'de' },
    { country: 'FR', lang: 'fr' },
    { lang: 'es' },
  ];

  it('gives the first `limit` of a longer ranked list, for every query and boost', {
    timeout: 60_000,
  }, () => {
    let compared = 0;
    let boosted = 0;
    for (const q of queries) {
      for (const o of options) {
        const all = index.search(q, { ...o, limit: 100 }).map((r) => `${r.entityId} ${r.match}`);
        for (const limit of [1, 3, 10]) {
          const top = index.search(q, { ...o, limit }).map((r) => `${r.entityId} ${r.match}`);
          expect({ q, o, limit, top }).toEqual({ q, o, limit, top: all.slice(0, limit) });
          compared++;
        }
        if (o.country !== undefined && all.length > 10) boosted++;
      }
    }
    expect(compared).toBe(queries.length * options.length * 3);
    // The boosted cases are not vacuous: many queries have more matches than fit.
    expect(boosted).toBeGreaterThan(50);
  });
});
