/**
 * In-process refresh: a small institution-picker API that keeps its hint list fresh by itself.
 *
 *   HINT_SOURCES="https://feeds.example.org/institutions.json" \
 *   HINTS_CACHE_FILE=/var/cache/shop/hints.json npx tsx examples/nightly-hints/picker.ts
 *
 *   curl 'http://127.0.0.1:3000/institutions?q=delft&lang=nl&country=NL'
 *
 * In your application import from 'affiliation-validation/hints' instead of '../../src/hints.js'.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HintFeed, type HintSource } from '../../src/hints.js';

export interface PickerOptions {
  sources: HintSource[];
  /** Where the last good list is kept across restarts. */
  cacheFile?: string;
  /** How often to refresh, in ms. Default hourly: an unchanged feed costs one 304. */
  everyMs?: number;
  port?: number;
  host?: string;
  log?: (line: string) => void;
}

export interface Picker {
  url: string;
  feed: HintFeed;
  close(): Promise<void>;
}

export async function startPicker(options: PickerOptions): Promise<Picker> {
  const log = options.log ?? ((line: string) => console.log(line));
  // open() loads the cache file first: after a restart the picker answers before the feed does.
  const feed = await HintFeed.open({
    sources: options.sources,
    ...(options.cacheFile ? { cacheFile: options.cacheFile } : {}),
  });
  log(`hints: ${feed.size} institutions from the cache`);
  feed.on('update', (r) =>
    log(`hints: updated, +${r.added.length} -${r.removed.length} ~${r.renamed.length}, ${r.total} in total`),
  );
  // Without an 'error' listener failures are only logged by the SDK's logger; with one you can alert.
  feed.on('error', (error) => log(`hints: refresh problem (${error.code}), still serving ${feed.size}`));
  const stop = feed.startAutoRefresh({ everyMs: options.everyMs ?? 3_600_000 });

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/institutions') {
      res.writeHead(404).end();
      return;
    }
    const q = url.searchParams.get('q') ?? '';
    const lang = url.searchParams.get('lang') ?? undefined;
    const country = url.searchParams.get('country') ?? undefined;
    const results = feed.search(q.slice(0, 100), {
      limit: 10,
      ...(lang && /^[A-Za-z-]{2,12}$/.test(lang) ? { lang } : {}),
      ...(country && /^[A-Za-z]{2}$/.test(country) ? { country } : {}),
    });
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(results));
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 3000, options.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    feed,
    close: async () => {
      stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await feed.close(); // waits for a refresh in flight and the cache file write
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sources = (process.env.HINT_SOURCES ?? '').split(/\s+/).filter(Boolean);
  if (sources.length === 0) {
    console.error('Set HINT_SOURCES to one or more feed URLs (space-separated).');
    process.exit(2);
  }
  const picker = await startPicker({ sources, cacheFile: process.env.HINTS_CACHE_FILE });
  console.log(`institution picker on ${picker.url}/institutions?q=…`);
}
