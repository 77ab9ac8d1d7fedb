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
    expectTypeOf(h.loaded).toEqualTypeOf<boolean | undefined>();
    // A plain object with has() alone is still a HintLookup (loaded is optional).
    const plain: HintLookup = { has: () => true };
    expectTypeOf(plain).toExtend<HintLookup>();
  });

  it('types ready(), close() and region sources', () => {
    const feed = new HintFeed({
      sources: [
        'https://feeds.example.org/nl.json',
        { url: 'https://feeds.example.org/africa.json', region: 'africa' },
      ],
    });
    expectTypeOf(feed.loaded).toEqualTypeOf<boolean>();
    expectTypeOf(feed.ready({ timeoutMs: 1_000 })).toEqualTypeOf<Promise<void>>();
    expectTypeOf(feed.close()).toEqualTypeOf<Promise<void>>();
    expectTypeOf<'not_loaded' | 'feed_closed'>().toExtend<HintFeedErrorCode>();
    // @ts-expect-error timeoutMs is a number of milliseconds
    feed.ready({ timeoutMs: '30s' });
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
