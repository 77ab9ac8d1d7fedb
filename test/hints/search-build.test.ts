import { describe, expect, it } from 'vitest';
import { parseHintFeed } from '../../src/hints/parse.js';
import { SearchIndex } from '../../src/hints/search-index.js';
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

describe('index built in slices', () => {
  const big = syntheticCombinedFeed(6_000, 20, 3);

  it('answers like the index built in one go', async () => {
    const entries = [...parseHintFeed(big).entries.values()];
    const sliced = await SearchIndex.build(entries);
    const whole = new SearchIndex(entries);
    const names = entries.filter((_, i) => i % 500 === 0).map((e) => e.names.en ?? '');
    for (const q of ['u', 'ber', ...names, ...names.map((n) => n.slice(0, 6))]) {
      expect(sliced.search(q, { limit: 20 })).toEqual(whole.search(q, { limit: 20 }));
    }
  });

  it("lets the process's other work run while a refresh indexes a changed list", async () => {
    const feed = feedOf([big]);
    let turns = 0;
    let done = false;
    const spin = () => {
      turns++;
      if (!done) setImmediate(spin);
    };
    setImmediate(spin);
    const refreshing = feed.refresh();
    // Control: the loop is free before the refresh's own work starts.
    const before = turns;
    const result = await refreshing;
    done = true;
    expect(result).toMatchObject({ status: 'updated', total: 6_000 });
    expect(feed.search('u').length).toBeGreaterThan(0);
    // A build in one go would give the loop no turn between the response and the swap.
    expect(turns - before).toBeGreaterThan(5);
  });

  it('keeps the newer list when a forced refresh applies while an older one is still indexing', async () => {
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
