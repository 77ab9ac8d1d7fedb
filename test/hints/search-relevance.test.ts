import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../src/hints/search/index.js';
import { relevanceCases, relevanceEntries, scoreRelevance } from './relevance.js';

describe('search relevance', () => {
  const index = new SearchIndex(relevanceEntries());

  it('has at least 100 cases', () => {
    expect(relevanceCases().length).toBeGreaterThanOrEqual(100);
  });

  // A quality floor, not a timing: the scores `npm run bench hints` prints must not fall below it.
  it('puts the institution meant first for at least 95% of the queries, in the top 3 for 98%', () => {
    const score = scoreRelevance((q, o) => index.search(q, o));
    expect(score.misses).toEqual([]);
    expect(score.top1).toBeGreaterThanOrEqual(0.95);
    expect(score.top3).toBeGreaterThanOrEqual(0.98);
  });
});
