/** Rules of spec/oidc-interface.md 2.5 and 8 about the institution hint list, on the RP side. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HintFeed } from '../../src/hints.js';

const FEED = 'https://feeds.example.org/institutions.json';
const TUD = 'https://idp.tudelft.nl/idp/shibboleth';
const DAY_MS = 24 * 60 * 60 * 1000;

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('spec 2.5 / 8: the RP refreshes its hint list at least nightly', () => {
  it('spec 8: startAutoRefresh() with no options fetches the feeds again within 24 hours, and keeps doing so', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(0.999);
    const at: number[] = [];
    const start = Date.now();
    const feed = new HintFeed({
      sources: [FEED],
      retries: 0,
      fetch: async () => {
        at.push(Date.now() - start);
        return new Response(JSON.stringify({ [TUD]: { en: 'TU Delft' } }));
      },
    });
    const stop = feed.startAutoRefresh();
    try {
      // An hour at a time, each refresh finished before the clock moves on: a refresh hashes the
      // body with Web Crypto, which answers from outside the fake clock.
      for (let hour = 0; hour <= 72; hour++) {
        while (feed.refreshing) await new Promise((resolve) => setImmediate(resolve));
        if (hour < 72) await vi.advanceTimersByTimeAsync(DAY_MS / 24);
      }
    } finally {
      stop();
    }
    expect(at[0]).toBe(0);
    expect(at.length).toBeGreaterThanOrEqual(4);
    const gaps = at.slice(1).map((t, i) => t - (at[i] as number));
    for (const gap of gaps) expect(gap).toBeLessThanOrEqual(DAY_MS);
  });

  it('spec 2.5: the mapping of entityIDs to display names is served after a refresh', async () => {
    const feed = new HintFeed({
      sources: [FEED],
      retries: 0,
      fetch: async () =>
        new Response(JSON.stringify({ nl: { [TUD]: { en: 'TU Delft', nl: 'TU Delft NL' } } })),
    });
    const result = await feed.refresh();
    expect(result.status).toBe('updated');
    expect(feed.has(TUD)).toBe(true);
    expect(feed.has(`${TUD}/`)).toBe(false);
    expect(feed.displayName(TUD, 'nl')).toBe('TU Delft NL');
  });
});
