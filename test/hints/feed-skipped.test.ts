/**
 * Issue 22: one entry whose id is not a URI (real lists carry bare host names and names with `%20`)
 * is skipped and reported; it no longer sinks its file's other institutions.
 */
import { describe, expect, it, vi } from 'vitest';
import { HintFeed, type RefreshResult } from '../../src/hints.js';

const NL = 'https://feeds.example.org/nl.json';
const TUD = 'https://idp.tudelft.nl/idp/shibboleth';
const UVA = 'https://idp.uva.nl/saml2/idp/metadata.php';

/** A feed whose source answers whatever `body` holds at the time (with no validators). */
function feedServing(body: { current: unknown }, logger = {}) {
  return new HintFeed({
    sources: [NL],
    fetch: async () => new Response(JSON.stringify(body.current)),
    logger,
  });
}

describe('a feed with invalid entries', () => {
  it('skips them, serves the rest, and reports them in the result, the update event and the log', async () => {
    const body = {
      current: {
        [TUD]: { en: 'TU Delft' },
        'Universiteit%20Utrecht': { nl: 'Universiteit Utrecht' },
        [UVA]: { en: 'University of Amsterdam' },
        'saxion.nl': { nl: 'Saxion' },
      } as Record<string, unknown>,
    };
    const warn = vi.fn();
    const info = vi.fn();
    const feed = feedServing(body, { warn, info });
    const updates: RefreshResult[] = [];
    feed.on('update', (result) => updates.push(result));

    const result = await feed.refresh();
    expect(result.status).toBe('updated');
    expect(result.error).toBeUndefined();
    expect(result.added).toEqual([TUD, UVA]);
    expect([...feed.entries()].map((e) => e.entityId)).toEqual([TUD, UVA]);
    const reason = 'not an entityID (a URL or URN of at most 1024 characters)';
    expect(result.sources).toEqual([
      {
        url: NL,
        status: 'updated',
        skippedCount: 2,
        skipped: [
          { path: ['Universiteit%20Utrecht'], reason },
          { path: ['saxion.nl'], reason },
        ],
      },
    ]);
    expect(updates).toEqual([result]);
    expect(warn).toHaveBeenCalledWith('hints feed entries skipped', {
      url: NL,
      count: 2,
      entries: [`Universiteit%20Utrecht: ${reason}`, `saxion.nl: ${reason}`],
    });
    expect(info).toHaveBeenCalledWith('hints refreshed', expect.objectContaining({ skipped: 2 }));
    // Names are not logged.
    expect(JSON.stringify(warn.mock.calls)).not.toContain('Saxion');

    // The same bytes again are not parsed: nothing new to report.
    warn.mockClear();
    const again = await feed.refresh();
    expect(again.sources[0]).toMatchObject({ status: 'not-modified', skipped: [], skippedCount: 0 });
    expect(warn).not.toHaveBeenCalled();
  });

  it('a file with not one valid entry fails whole and the last good list keeps serving', async () => {
    const body: { current: unknown } = { current: { [TUD]: { en: 'TU Delft' } } };
    const feed = feedServing(body);
    expect((await feed.refresh()).status).toBe('updated');

    body.current = { 'idp.tudelft.nl': { en: 'TU Delft' }, 'Universiteit%20Utrecht': { nl: 'UU' } };
    const result = await feed.refresh();
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({ code: 'feed_invalid_shape', source: NL });
    expect(result.error?.message).toMatch(/neither an entityID/);
    expect(result.sources[0]).toMatchObject({ status: 'failed', skipped: [], skippedCount: 0 });
    expect(feed.has(TUD)).toBe(true);

    body.current = { [TUD]: { en: 42 }, [UVA]: null };
    const invalid = await feed.refresh();
    expect(invalid.status).toBe('failed');
    expect(invalid.error?.message).toMatch(/no valid institution: 2 entries skipped/);
    expect(feed.size).toBe(1);
  });

  it('a file broken in every entry but one reports 20 of them, and counts them all', async () => {
    const doc: Record<string, unknown> = { [TUD]: { en: 'TU Delft' } };
    for (let i = 0; i < 5000; i++) doc[`idp${i}.example.org`] = { en: `Institution ${i}` };
    const warn = vi.fn();
    const feed = feedServing({ current: doc }, { warn });
    const result = await feed.refresh();
    expect(result.status).toBe('updated');
    expect(result.sources[0]?.skippedCount).toBe(5000);
    expect(result.sources[0]?.skipped).toHaveLength(20);
    expect(warn).toHaveBeenCalledTimes(1);
    const [, logged] = warn.mock.calls[0] as [string, { count: number; entries: string[] }];
    expect(logged.count).toBe(5000);
    expect(logged.entries).toHaveLength(20);
  });
});
