/**
 * A hint the service did not resolve (spec 7.2, `entity_id error`) is not offered again until a refresh
 * that starts after the report confirms it: no other shopper goes down the same dead end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HintFeed } from '../../src/hints.js';
import { type FeedServer, startFeedServer } from './feed-server.js';

const STALE = 'https://idp.renamed.example/idp';
const OTHER = 'https://idp.other.example/idp';
const FEED = {
  [STALE]: { en: 'Renamed University' },
  [OTHER]: { en: 'Other University' },
};

let server: FeedServer;
beforeAll(async () => {
  server = await startFeedServer();
});
afterAll(() => server.close());

async function feed(): Promise<HintFeed> {
  server.route('/nl.json', { kind: 'json', body: FEED, etag: '"v1"' });
  const f = new HintFeed({ sources: [{ url: server.url('/nl.json'), country: 'NL' }], retries: 0 });
  expect((await f.refresh()).status).toBe('updated');
  return f;
}

const searchIds = (f: HintFeed) => f.search('university').map((r) => r.entityId);

describe('HintFeed.reportStale', () => {
  it('hides the entityID from has, get, search and the picker endpoint, until the next refresh', async () => {
    const f = await feed();
    f.reportStale(STALE);
    expect([f.has(STALE), f.get(STALE), f.has(OTHER)]).toEqual([false, undefined, true]);
    expect(searchIds(f)).toEqual([OTHER]);
    const answer = await f.searchHandler()(
      new Request(
        `https://shop.example/i?q=univ&recent=${encodeURIComponent(STALE)}&recent=${encodeURIComponent(OTHER)}`,
      ),
    );
    const body = (await answer.json()) as { results: { entityId: string }[]; recent: { entityId: string }[] };
    expect(body.results.map((r) => r.entityId)).toEqual([OTHER]);
    // The picker forgets a remembered choice the endpoint no longer knows.
    expect(body.recent.map((r) => r.entityId)).toEqual([OTHER]);

    // The next refresh (here the feed answers 304: the publisher still lists it) confirms it.
    expect((await f.refresh()).status).toBe('not-modified');
    expect(f.has(STALE)).toBe(true);
    expect(searchIds(f).sort()).toEqual([OTHER, STALE].sort());
    await f.close();
  });

  it('a refresh already running when the report came does not confirm it; a failed one neither', async () => {
    const f = await feed();
    let release!: () => void;
    server.route('/nl.json', {
      kind: 'gate',
      body: FEED,
      etag: '"v2"',
      release: new Promise((r) => (release = r)),
    });
    const running = f.refresh();
    f.reportStale(STALE);
    release();
    await running;
    expect(f.has(STALE)).toBe(false);
    server.route('/nl.json', { kind: 'status', status: 503 });
    expect((await f.refresh()).status).toBe('failed');
    expect(f.has(STALE)).toBe(false);
    server.route('/nl.json', { kind: 'json', body: FEED, etag: '"v3"' });
    await f.refresh();
    expect(f.has(STALE)).toBe(true);
    await f.close();
  });

  it('reporting twice, or an entityID the list does not hold, is harmless', async () => {
    const f = await feed();
    f.reportStale('https://idp.unknown.example/idp');
    f.reportStale(OTHER);
    f.reportStale(OTHER);
    expect(f.has(OTHER)).toBe(false);
    await f.close();
  });
});
