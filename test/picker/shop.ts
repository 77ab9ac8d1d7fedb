/**
 * A minimal shop page for the picker's browser tests, on 127.0.0.1: the page (strict CSP, no inline
 * script or style), its stylesheet, the picker module (pickerModuleHandler), the search endpoint
 * (feed.searchHandler) over a HintFeed fed from feed files in the service's layout, and a form
 * target that echoes what the form posted.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HintFeed } from '../../src/hints.js';
import { pickerModuleHandler } from '../../src/picker.js';
import { relevanceFeed } from '../hints/relevance.js';

export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; form-action 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'";

const PAGE_CSS = `body{font-family:system-ui,sans-serif;margin:1.5rem auto;max-width:40rem;padding:0 1rem;line-height:1.4}
button{font:inherit;min-height:2.75rem;padding:.5rem 1.25rem;margin-top:1rem}
h1{font-size:1.5rem}`;

export interface Shop {
  origin: string;
  feed: HintFeed;
  posts: Record<string, string>[];
  /** How many times the browser loaded the page (a page restored from the back/forward cache is not loaded). */
  pageLoads: number;
  /** Search requests received. */
  searches: number;
  /** While set, the search endpoint holds its answers until it resolves. */
  searchGate: Promise<void> | undefined;
  close(): Promise<void>;
}

function toRequest(req: IncomingMessage, origin: string, body: Buffer): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method ?? 'GET',
    headers,
    ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: new Uint8Array(body) }),
  });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

/**
 * The shop's page. `intro`: that many paragraphs above the form, which put the field low on a phone
 * screen, where the open list has less room below it than its usual height.
 */
export function pageHtml(options: { lang?: string; extra?: string; intro?: number } = {}): string {
  // The fallback <select> lists a few institutions: without JavaScript, the form still works.
  return `<!doctype html>
<html lang="${options.lang ?? 'en'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Student discount</title>
<link rel="stylesheet" href="/page.css">
<script type="module" src="/assets/institution-picker.js"></script>
</head><body>
<main>
<h1>Student discount</h1>
${'<p>Students and staff of a university or college get 10 % off every order.</p>\n'.repeat(options.intro ?? 0)}<form method="post" action="/start">
<institution-picker src="/institutions" label="Your institution" placeholder="Name, abbreviation or e-mail address"${options.extra ?? ''}>
<label>Your institution
<select name="institution" required>
<option value="">Choose your institution</option>
<option value="https://signon.rug.nl/nidp/saml2/metadata">University of Groningen</option>
<option value="https://login.uva.nl/saml2/idp/metadata.php">University of Amsterdam</option>
</select></label>
</institution-picker>
<button type="submit">Verify my student status</button>
</form>
</main>
</body></html>`;
}

export async function startShop(): Promise<Shop> {
  // The feed files, served as the service publishes them; the shop's HintFeed reads them.
  const files = relevanceFeed();
  const feedServer = createServer((req, res) => {
    const name = /^\/([a-z-]+)\.json$/.exec(req.url ?? '')?.[1];
    const doc = name === undefined ? undefined : files.get(name);
    if (doc === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
  });
  await new Promise<void>((r) => feedServer.listen(0, '127.0.0.1', r));
  const feedBase = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}`;
  const feed = new HintFeed({
    sources: [...files.keys()].map((name) =>
      /^[a-z]{2}$/.test(name)
        ? { url: `${feedBase}/${name}.json`, country: name }
        : `${feedBase}/${name}.json`,
    ),
    retries: 0,
  });
  const refreshed = await feed.refresh();
  if (refreshed.status !== 'updated') throw new Error(`feed refresh: ${refreshed.status}`);

  const search = feed.searchHandler();
  const module = pickerModuleHandler();
  const posts: Record<string, string>[] = [];
  let origin = '';
  const shop: Shop = {
    origin,
    feed,
    posts,
    pageLoads: 0,
    searches: 0,
    searchGate: undefined,
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      await new Promise<void>((r) => feedServer.close(() => r()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', origin);
      const html = (status: number, body: string) =>
        res
          .writeHead(status, {
            'content-type': 'text/html; charset=utf-8',
            'content-security-policy': CSP,
            'x-content-type-options': 'nosniff',
            // As a shop answers pages with a shopper's data: never kept, so never restored from the
            // back/forward cache (Back loads the page again).
            'cache-control': 'no-store',
          })
          .end(body);
      if (req.method === 'GET' && (url.pathname === '/' || url.pathname === '/nl')) {
        shop.pageLoads++;
        const intro = Math.min(Math.max(Number(url.searchParams.get('intro')) || 0, 0), 20);
        return html(200, pageHtml({ lang: url.pathname === '/nl' ? 'nl' : 'en', intro }));
      }
      if (url.pathname === '/page.css') {
        return void res.writeHead(200, { 'content-type': 'text/css; charset=utf-8' }).end(PAGE_CSS);
      }
      if (url.pathname === '/favicon.ico') return void res.writeHead(204).end();
      if (url.pathname === '/assets/institution-picker.js') {
        return void module(toRequest(req, origin, Buffer.concat(chunks))).then((r) => send(res, r));
      }
      if (url.pathname === '/institutions') {
        shop.searches++;
        // A search that fails on the way: the connection drops without an answer.
        if (url.searchParams.get('q') === 'unanswered') return void req.socket.destroy();
        return void Promise.resolve(shop.searchGate)
          .then(() => search(toRequest(req, origin, Buffer.concat(chunks))))
          .then((r) => send(res, r));
      }
      if (url.pathname === '/start' && req.method === 'POST') {
        const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        posts.push(form);
        // As the SDK's shop does on a start (its transaction cookie): a page that sent no-store is then
        // never restored from Chromium's back/forward cache either.
        res.setHeader('set-cookie', `shop_visit=${posts.length}; Path=/; HttpOnly; SameSite=Lax`);
        return html(
          200,
          `<!doctype html><html lang="en"><title>Posted</title><p id="posted">${form.institution ? 'ok' : 'none'}</p></html>`,
        );
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  shop.origin = origin;
  return shop;
}
