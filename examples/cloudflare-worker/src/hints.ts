/**
 * Institution hints on Workers (wrangler.hints.toml): the type-ahead of `<institution-picker>` served
 * from a list kept in Workers KV, and a Cron Trigger that refreshes that list from the service's
 * feeds. Needs `nodejs_compat` (the feed's events use `node:events`); the feed keeps no file: KV is
 * its cache, shared by every isolate.
 */
import { HintFeed, parseHintFeed } from 'affiliation-validation/hints';

/** The part of a Workers KV namespace used here. */
interface KV {
  getWithMetadata(key: string): Promise<{ value: string | null; metadata: unknown }>;
  put(key: string, value: string, options: { metadata: { etag: string } }): Promise<void>;
}

export interface Env {
  HINTS: KV;
  /** Space-separated feed URLs of the service, e.g. `https://…/nl.json https://…/be.json`. */
  HINT_SOURCES: string;
}

/** The KV key of a feed: its file name (`nl.json`). */
const keyOf = (url: string) => new URL(url).pathname.split('/').pop() ?? url;

/**
 * A `fetch` that reads the feeds from KV instead of the network: the same conditional GET, so an
 * isolate re-parses a feed only after the Cron Trigger stored a new one.
 */
function kvFetch(kv: KV): typeof fetch {
  return async (input, init) => {
    const { value, metadata } = await kv.getWithMetadata(keyOf(String(input)));
    if (value === null) return new Response('not refreshed yet', { status: 503 });
    const etag = (metadata as { etag?: string } | null)?.etag ?? '"0"';
    if (new Headers(init?.headers).get('if-none-match') === etag) return new Response(null, { status: 304 });
    return new Response(value, { headers: { 'content-type': 'application/json', etag } });
  };
}

let feed: { hints: HintFeed; search: (request: Request) => Promise<Response>; checkedAt: number } | undefined;

export default {
  /**
   * GET /institutions?q=…: the picker's search, from the KV copy: read until there is one, then
   * checked again every 10 minutes.
   */
  async fetch(request: Request, env: Env): Promise<Response> {
    if (new URL(request.url).pathname !== '/institutions') return new Response('Not found', { status: 404 });
    if (feed === undefined) {
      // The feed reads KV through its `fetch`; the URLs only name the entries.
      const hints = new HintFeed({ sources: env.HINT_SOURCES.split(/\s+/), fetch: kvFetch(env.HINTS) });
      feed = { hints, search: hints.searchHandler(), checkedAt: 0 };
    }
    if (!feed.hints.loaded || Date.now() - feed.checkedAt > 10 * 60_000) {
      feed.checkedAt = Date.now();
      await feed.hints.refresh(); // never throws: a failed source keeps the list it had
    }
    return feed.search(request);
  },

  /** The Cron Trigger: fetch each feed; store it in KV when it changed and is a valid feed. */
  async scheduled(_controller: unknown, env: Env): Promise<void> {
    for (const url of env.HINT_SOURCES.split(/\s+/)) {
      const response = await fetch(url);
      if (!response.ok) continue; // the last good copy stays in KV
      const text = await response.text();
      try {
        const parsed = parseHintFeed(JSON.parse(text));
        if (parsed.entries.size === 0) continue;
      } catch {
        continue; // not a feed (an error page, a truncated file): keep the last good copy
      }
      const etag = `"${Date.now().toString(36)}"`;
      await env.HINTS.put(keyOf(url), text, { metadata: { etag } });
    }
  },
};
