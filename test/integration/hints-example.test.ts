import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPicker } from '../../examples/nightly-hints/picker.js';
import { type FeedServer, startFeedServer } from '../hints/feed-server.js';

const TUD = 'https://idp.tudelft.nl/idp/shibboleth';
const FEED = { NL: { [TUD]: { en: 'Delft University of Technology', nl: 'Technische Universiteit Delft' } } };

/**
 * expect.poll gives up after 1 s by default: too soon for a first refresh (which also loads the HTTP
 * stack) on a loaded 2-core CI machine. It returns as soon as the value matches.
 */
const WAIT = { timeout: 10_000 };

let server: FeedServer;
let dir: string;
beforeAll(async () => {
  server = await startFeedServer();
  dir = await mkdtemp(join(tmpdir(), 'hints-example-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('examples/nightly-hints/picker.ts', () => {
  it('serves the picker from a refreshing feed, and from the cache after a restart', async () => {
    server.route('/example.json', { kind: 'json', body: FEED, etag: '"e1"' });
    const cacheFile = join(dir, 'hints.json');
    const lines: string[] = [];
    const picker = await startPicker({
      sources: [server.url('/example.json')],
      cacheFile,
      port: 0,
      log: (l) => lines.push(l),
    });
    try {
      await expect.poll(() => picker.feed.size, WAIT).toBe(1);
      const res = await fetch(`${picker.url}/institutions?q=technische&lang=nl&country=nl`);
      const body = (await res.json()) as { results: unknown[] };
      expect(body.results).toEqual([
        expect.objectContaining({
          entityId: TUD,
          name: 'Technische Universiteit Delft',
          country: 'NL',
          match: 'prefix',
          ranges: [[0, 10]],
        }),
      ]);
      // The list is swapped in before the cache file is written and the 'update' event fires.
      await expect.poll(() => lines, WAIT).toContain('hints: updated, +1 -0 ~0, 1 in total');
    } finally {
      await picker.close();
    }

    server.route('/example.json', { kind: 'status', status: 503 });
    const restarted = await startPicker({
      sources: [server.url('/example.json')],
      cacheFile,
      port: 0,
      log: () => {},
    });
    try {
      const res = await fetch(`${restarted.url}/institutions?q=delft`);
      expect(((await res.json()) as { results: { entityId: string }[] }).results[0]?.entityId).toBe(TUD);
    } finally {
      await restarted.close();
    }
  });
});
