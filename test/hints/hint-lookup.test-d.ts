import { describe, expectTypeOf, it } from 'vitest';
import {
  type HintEntry,
  HintFeed,
  type HintFeedErrorCode,
  type HintLookup,
  type RefreshResult,
} from '../../src/hints.js';

describe('HintFeed types', () => {
  it('satisfies the HintLookup that AffiliationClient takes as hints', () => {
    const h: HintLookup = new HintFeed({ sources: ['https://feeds.example.org/x.json'] });
    expectTypeOf(h.has).returns.toEqualTypeOf<boolean>();
  });

  it('types its results, events and error codes', () => {
    const feed = new HintFeed({ sources: ['https://feeds.example.org/x.json'] });
    expectTypeOf(feed.refresh()).resolves.toEqualTypeOf<RefreshResult>();
    expectTypeOf(feed.get('x')).toEqualTypeOf<HintEntry | undefined>();
    expectTypeOf<RefreshResult['status']>().toEqualTypeOf<'updated' | 'not-modified' | 'failed'>();
    expectTypeOf<'feed_too_large'>().toExtend<HintFeedErrorCode>();
    feed.on('update', (result) => expectTypeOf(result).toEqualTypeOf<RefreshResult>());
    // @ts-expect-error no such event
    feed.on('updated', () => {});
    // @ts-expect-error sources is required
    new HintFeed({});
    // @ts-expect-error everyMs is a number of milliseconds
    feed.startAutoRefresh({ everyMs: '1h' });
  });
});
