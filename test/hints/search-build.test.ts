import { describe, expect, it, vi } from 'vitest';
import { diffEntries, diffSteps, mergeEntries, mergeSteps } from '../../src/hints/merge.js';
import { parseHintFeed, parseSteps } from '../../src/hints/parse.js';
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

  it('parses bodies that arrive together one at a time, each large one in a turn of the event loop of its own', async () => {
    const parts = Array.from({ length: 6 }, (_, i) => syntheticCombinedFeed(600, 3, 10 + i));
    const bodies = parts.map((p) => JSON.stringify(p));
    expect(bodies.every((b) => b.length > 16 * 1024)).toBe(true);
    const feed = new HintFeed({
      sources: parts.map((_, i) => `https://feeds.example.org/${i}.json`),
      retries: 0,
      fetch: async (url) => new Response(bodies[Number(/(\d+)\.json/.exec(String(url))![1])]),
    });
    let turn = 0;
    let done = false;
    const spin = () => {
      turn++;
      if (!done) setImmediate(spin);
    };
    setImmediate(spin);
    const parse = JSON.parse;
    const turns: number[] = [];
    const spy = vi.spyOn(JSON, 'parse').mockImplementation((text, reviver) => {
      if (bodies.includes(text)) turns.push(turn);
      return parse(text, reviver);
    });
    try {
      const result = await feed.refresh();
      expect(result.status).toBe('updated');
    } finally {
      done = true;
      spy.mockRestore();
    }
    expect(turns).toHaveLength(6);
    expect(new Set(turns).size).toBe(6);
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

describe('parse, merge and diff in slices', () => {
  /** Runs `steps` to the end; how many times it yielded, and its result. */
  function run<T>(steps: Generator<void, T>): { yields: number; value: T } {
    let yields = 0;
    for (;;) {
      const step = steps.next();
      if (step.done) return { yields, value: step.value };
      yields++;
    }
  }
  const a = syntheticCombinedFeed(5_000, 20, 3);
  const b = syntheticCombinedFeed(5_000, 20, 4);

  it('parses a large feed in steps, to what parseHintFeed gives', () => {
    const { yields, value } = run(parseSteps(a));
    expect(yields).toBeGreaterThan(10);
    expect(value).toEqual(parseHintFeed(a));
  });

  it('merges and compares large lists in steps, to what the functions in one go give', () => {
    const lists = [parseHintFeed(a).entries, parseHintFeed(b).entries];
    const merged = run(mergeSteps(lists));
    expect(merged.yields).toBeGreaterThan(3);
    expect([...merged.value]).toEqual([...mergeEntries(lists)]);
    const diff = run(diffSteps(lists[0]!, merged.value));
    expect(diff.yields).toBeGreaterThan(3);
    expect(diff.value).toEqual(diffEntries(lists[0]!, merged.value));
    expect(diff.value.changed).toBe(true);
  });
});
