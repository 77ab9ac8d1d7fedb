/**
 * The other process of bench/hints.bench.ts: it serves the 17 feed files (so serving them costs the
 * shop's process nothing) and plays the shoppers who type into the picker (so generating the load
 * costs it nothing either). Driven over IPC by the bench: `flip` serves the other version of every
 * file (a changed list), `type` runs the shoppers against a search URL and sends back the latencies.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rng, syntheticCombinedFeed } from '../test/hints/synthetic-feed.js';

const FILES = 17;
const count = Number(process.argv[2]);
const feed = syntheticCombinedFeed(count, 81);
const countries = Object.keys(feed);

/** The 17 files, each a combined document of some countries, in two versions (one name differs in each). */
function files(version: number): Buffer[] {
  const out: Buffer[] = [];
  for (let f = 0; f < FILES; f++) {
    const doc: Record<string, Record<string, Record<string, string>>> = {};
    for (let c = f; c < countries.length; c += FILES) doc[countries[c]!] = feed[countries[c]!]!;
    let body = JSON.stringify(doc);
    if (version === 1) body = body.replace(/"en":"/, '"en":"Renamed ');
    out.push(Buffer.from(body));
  }
  return out;
}
const versions = [files(0), files(1)];
let current = 0;

const server = createServer((req, res) => {
  const f = Number(/\/(\d+)\.json/.exec(req.url ?? '')?.[1]);
  const body = versions[current]![f];
  if (body === undefined) {
    res.writeHead(404).end();
    return;
  }
  const etag = `"v${current}-${f}"`;
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, { etag }).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length, etag }).end(body);
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => {
  const port = (server.address() as AddressInfo).port;
  const sources = Array.from({ length: FILES }, (_, f) => `http://127.0.0.1:${port}/${f}.json`);
  process.send!({ kind: 'ready', sources, bytes: versions[0]!.reduce((n, b) => n + b.length, 0) });
});

/** What shoppers type: names of the feed's institutions, in the languages the picker is set to. */
const names: string[] = [];
for (const cc of countries) for (const n of Object.values(feed[cc]!)) names.push(...Object.values(n));

const LANGS = ['en', 'de', 'nl', 'fr', 'es'];

/**
 * `shoppers` people typing at about `keysPerSecond` each for `seconds`: every keystroke sends the text
 * typed so far (open loop: a slow answer does not slow the typing down), each shopper on its own
 * keep-alive connection. Resolves with the latency of every answer, in ms.
 */
async function type(
  url: string,
  shoppers: number,
  keysPerSecond: number,
  seconds: number,
): Promise<number[]> {
  const latencies: number[] = [];
  const errors: string[] = [];
  const end = performance.now() + seconds * 1000;
  const one = async (s: number) => {
    const r = rng(1000 + s);
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const lang = LANGS[s % LANGS.length]!;
    const country = countries[s % countries.length]!;
    const pending: Promise<void>[] = [];
    while (performance.now() < end) {
      const name = names[Math.floor(r() * names.length)]!;
      const typed = 3 + Math.floor(r() * 12);
      for (let k = 1; k <= Math.min(typed, name.length) && performance.now() < end; k++) {
        const q = name.slice(0, k);
        const target = `${url}?q=${encodeURIComponent(q)}&lang=${lang}&country=${country}&limit=8`;
        const t = performance.now();
        pending.push(
          new Promise<void>((resolve) => {
            request(target, { agent }, (res) => {
              res.resume();
              res.on('end', () => {
                if (res.statusCode !== 200) errors.push(String(res.statusCode));
                latencies.push(performance.now() - t);
                resolve();
              });
            })
              .on('error', (e) => {
                errors.push(e.message);
                resolve();
              })
              .end();
          }),
        );
        // About keysPerSecond, with the spread of real typing.
        await new Promise((resolve) => setTimeout(resolve, (1000 / keysPerSecond) * (0.6 + 0.8 * r())));
      }
      // A pause between two names.
      await new Promise((resolve) => setTimeout(resolve, 300 + 500 * r()));
    }
    await Promise.all(pending);
    agent.destroy();
  };
  // Shoppers start spread over the first second, not in lock-step.
  await Promise.all(
    Array.from({ length: shoppers }, (_, s) =>
      new Promise((resolve) => setTimeout(resolve, (s * 1000) / shoppers)).then(() => one(s)),
    ),
  );
  if (errors.length > 0) throw new Error(`type-ahead errors: ${errors.slice(0, 3).join(', ')}`);
  return latencies;
}

process.on('message', (m: { kind: string; url?: string; seconds?: number }) => {
  if (m.kind === 'flip') {
    current = 1 - current;
    process.send!({ kind: 'flipped' });
  } else if (m.kind === 'type') {
    type(m.url!, 20, 8, m.seconds!).then(
      (latencies) => process.send!({ kind: 'typed', latencies }),
      (error: Error) => process.send!({ kind: 'typed', error: error.message }),
    );
  } else if (m.kind === 'stop') {
    server.close();
    process.disconnect();
  }
});
