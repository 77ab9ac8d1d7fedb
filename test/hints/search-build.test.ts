import { describe, expect, it } from 'vitest';
import { parseHintFeed } from '../../src/hints/parse.js';
import { SearchIndex } from '../../src/hints/search/index.js';
import { HintFeed } from '../../src/hints.js';
import { syntheticCombinedFeed } from './synthetic-feed.js';

const FEED = 'https://feeds.example.org/institutions.json';

/** A feed whose fetch answers `bodies` in turn, each when `release` is called for it (or at once). */
function feedOf(bodies: unknown[], gates: Promise<void>[] = []) {
  let call = 0;
  return new HintFeed({
    sources: [FEED],
    retries: 0,
    fetch: async () => {
      const i = call++;
      await gates[i];
      return new Response(JSON.stringify(bodies[i]), { headers: { etag: `"${i}"` } });
    },
  });
}

describe('refreshes that overlap', () => {
  const big = syntheticCombinedFeed(6_000, 20, 3);

  it('keeps the newer list when a forced refresh applies while an older one is still in flight', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const newer = { NL: { 'https://idp.newer.example/idp': { en: 'Newer Institute' } } };
    // The first refresh gets the big list at once; the forced second one gets a one-entry list.
    const feed = feedOf([big, newer], [Promise.resolve(), gate]);
    const first = feed.refresh();
    const second = feed.refresh({ force: true });
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(b).toMatchObject({ status: 'updated', total: 1 });
    // Whichever finished indexing first, the newer list is served.
    expect(feed.size).toBe(1);
    expect(feed.search('newer').map((r) => r.entityId)).toEqual(['https://idp.newer.example/idp']);
    expect(a.total).toBeGreaterThanOrEqual(1);
  });
});

describe('a changed feed file', () => {
  it('keeps the entries it did not change as the same objects, and makes new ones for those it did', async () => {
    const before = syntheticCombinedFeed(300, 3, 5);
    const after = structuredClone(before);
    const [country] = Object.keys(after);
    const [renamedId] = Object.keys(after[country!]!);
    after[country!]![renamedId!] = { en: 'A Renamed Institute' };
    const feed = feedOf([before, after]);
    await feed.refresh();
    const old = new Map([...feed.entries()].map((e) => [e.entityId, e]));
    const result = await feed.refresh({ force: true });
    expect(result.renamed).toEqual([renamedId]);
    let same = 0;
    for (const e of feed.entries()) if (old.get(e.entityId) === e) same++;
    expect(same).toBe(old.size - 1);
    expect(feed.get(renamedId!)).not.toBe(old.get(renamedId!));
    expect(feed.get(renamedId!)?.names).toEqual({ en: 'A Renamed Institute' });
  });
});

describe('an index built from the previous one', () => {
  const previous = [...parseHintFeed(syntheticCombinedFeed(2_000, 12, 9)).entries.values()];
  /** The next list: renamed, moved, removed and added institutions, the rest the same objects. */
  function nextList() {
    const next = previous.filter((_, i) => i % 97 !== 5);
    for (let i = 0; i < next.length; i += 41) {
      const e = next[i]!;
      next[i] = {
        ...e,
        names: { de: `Hochschule ${i} Überlingen`, en: `Überlingen College ${i}` },
      };
    }
    for (let i = 7; i < next.length; i += 53) next[i] = { ...next[i]!, country: 'LU' };
    // The same names as a new object (a merge of several sources makes one): derived again.
    next[3] = { ...next[3]!, names: { ...next[3]!.names } };
    next.push(
      {
        entityId: 'https://idp.neu-ulm.example/idp',
        names: { de: 'Hochschule Neu-Ulm', en: 'Neu-Ulm University' },
        country: undefined,
      },
      {
        entityId: 'urn:mace:example.org:kth.se',
        names: { en: 'KTH Royal Institute of Technology' },
        country: 'SE',
      },
    );
    return next;
  }

  it('answers every kind of query as an index built from nothing', async () => {
    const next = nextList();
    const reused = await SearchIndex.build(next, await SearchIndex.build(previous));
    const fresh = new SearchIndex(next);
    const renamed = next.filter((_, i) => i % 41 === 0).map((e) => e.names.en!);
    const gone = previous.filter((_, i) => i % 97 === 5).map((e) => e.names.en ?? '');
    const queries = [
      ...renamed,
      ...renamed.map((n) => n.split(' ').slice(0, 2).join(' ')),
      ...gone,
      ...previous.slice(0, 40).map((e) => e.names.en ?? ''),
      'ueberlingen',
      'uberl',
      'hochsch neu',
      'KTH',
      'kth.se',
      'jan@kth.se',
      'neu-ulm.example',
      'univ',
      'tech',
    ];
    const options = [
      {},
      { country: 'LU' },
      { lang: 'de' },
      { recent: [next[3]!.entityId, next[41]!.entityId] },
    ];
    for (const q of queries)
      for (const o of options)
        expect(reused.search(q, { limit: 15, ...o }), q).toEqual(fresh.search(q, { limit: 15, ...o }));
    // The renamed institutions are found by their new names, not their old ones.
    expect(reused.search(renamed[1]!)[0]?.name).toBe(renamed[1]);
    const id = next[41]!.entityId;
    const oldName = previous.find((e) => e.entityId === id)!.names.en!;
    const byOldName = reused.search(oldName, { limit: 50 }).find((r) => r.entityId === id);
    expect(['exact', 'prefix', 'word']).not.toContain(byOldName?.match);
  });
});
