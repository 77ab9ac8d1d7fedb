import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HintFeed } from '../../src/hints.js';
import { AffiliationClient } from '../../src/index.js';
import { DEFAULT_TEST_CLIENT, type RunningTestProvider, TestProvider } from '../../src/testing.js';
import { type FeedServer, startFeedServer } from './feed-server.js';
import { relevanceFeed } from './relevance.js';

// The service's real layout, end to end: feed files → HintFeed → search → idpHint → authorization URL.
let op: RunningTestProvider;
let feeds: FeedServer;
let feed: HintFeed;
let client: AffiliationClient;
let handler: (request: Request) => Promise<Response>;

beforeAll(async () => {
  op = await TestProvider.start();
  feeds = await startFeedServer();
  const files = relevanceFeed();
  for (const [name, body] of files) feeds.route(`/${name}.json`, { kind: 'json', body });
  feed = new HintFeed({
    sources: [...files.keys()].map((name) =>
      /^[a-z]{2}$/.test(name)
        ? { url: feeds.url(`/${name}.json`), country: name }
        : feeds.url(`/${name}.json`),
    ),
  });
  expect((await feed.refresh()).status).toBe('updated');
  client = await AffiliationClient.discover({
    issuer: op.issuer,
    clientId: DEFAULT_TEST_CLIENT.clientId,
    clientSecret: DEFAULT_TEST_CLIENT.clientSecret,
    redirectUri: DEFAULT_TEST_CLIENT.redirectUris[0]!,
    hints: feed,
  });
  handler = feed.searchHandler();
});
afterAll(async () => {
  await op.close();
  await feeds.close();
});

/** What the picker does: ask the endpoint, take the first result, start a validation with it. */
async function pickAndStart(q: string, params = ''): Promise<{ entityId: string; hint: string | null }> {
  const response = await handler(
    new Request(`https://shop.example/institutions?q=${encodeURIComponent(q)}${params}`),
  );
  expect(response.status).toBe(200);
  const body = (await response.json()) as { results: { entityId: string }[] };
  const entityId = body.results[0]!.entityId;
  const { url } = await client.createAuthorizationRequest({ affiliation: 'student', idpHint: entityId });
  return { entityId, hint: new URL(url).searchParams.get('aarc_idp_hint') };
}

describe('real-layout feed edge cases, end to end', () => {
  it('a URN entityID', async () => {
    expect(await pickAndStart('MIT')).toEqual({
      entityId: 'urn:mace:incommon:mit.edu',
      hint: 'urn:mace:incommon:mit.edu',
    });
    expect((await pickAndStart('vrije')).hint).toBe('urn:mace:terena.org:nl:vu.nl');
  });

  it('an entityID with a query string, and one with an upper-case host, are sent unchanged', async () => {
    expect((await pickAndStart('lund')).hint).toBe('https://idp.lu.se/saml?entity=main');
    expect((await pickAndStart('unibo')).hint).toBe('https://IDP.UNIBO.IT/idp/shibboleth');
    expect((await pickAndStart('jan@studio.unibo.it')).hint).toBe('https://IDP.UNIBO.IT/idp/shibboleth');
    expect((await pickAndStart('bibliotheek')).hint).toBe('https://aai.OBA-Amsterdam.NL/idp');
  });

  it("pt-br and en-ZA names, shown in the shopper's language", async () => {
    const search = async (q: string, lang: string) =>
      (
        (await (await handler(new Request(`https://shop.example/i?q=${q}&lang=${lang}`))).json()) as {
          results: { name: string; entityId: string }[];
        }
      ).results[0]!;
    expect(await search('janeiro', 'pt-BR')).toMatchObject({
      name: 'Universidade Federal do Rio de Janeiro',
    });
    expect(await search('janeiro', 'en')).toMatchObject({ name: 'Federal University of Rio de Janeiro' });
    expect(await search('witwatersrand', 'en-ZA')).toMatchObject({ name: 'University of the Witwatersrand' });
    expect(await search('witwatersrand', 'fr')).toMatchObject({ name: 'University of the Witwatersrand' });
    expect((await pickAndStart('kaapstad', '&lang=af')).hint).toBe('https://idp.uct.ac.za/idp/shibboleth');
  });

  it('a name equal to its entityID is found by its host and shown as is', async () => {
    const results = feed.search('rnp');
    expect(results[0]).toMatchObject({
      entityId: 'https://idp.rnp.br/helpdesk',
      name: 'https://idp.rnp.br/helpdesk',
    });
    expect((await pickAndStart('rnp')).hint).toBe('https://idp.rnp.br/helpdesk');
  });

  it('an opt-in file that repeats entries of its country file lists each institution once', async () => {
    const results = feed.search('groningen', { limit: 50 });
    const ids = results.map((r) => r.entityId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]).toBe('https://signon.rug.nl/nidp/saml2/metadata');
    expect(feed.get('https://signon.rug.nl/nidp/saml2/metadata')?.country).toBe('NL');
  });
});

describe('feed.searchHandler()', () => {
  const get = (query: string, init?: RequestInit) =>
    handler(new Request(`https://shop.example/i${query}`, init));

  it('answers JSON with an ETag tied to the list and the query, and 304 on a match', async () => {
    const first = await get('?q=groningen&lang=nl&country=NL&limit=3');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');
    expect(first.headers.get('access-control-allow-origin')).toBeNull();
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const body = await first.json();
    expect(body.query).toBe('groningen');
    expect(body.results).toHaveLength(3);
    expect(body.results[0]).toMatchObject({
      entityId: 'https://signon.rug.nl/nidp/saml2/metadata',
      name: 'Rijksuniversiteit Groningen',
      match: 'word',
      ranges: [[18, 27]],
    });
    expect(
      (await get('?q=groningen&lang=nl&country=NL&limit=3', { headers: { 'if-none-match': etag } })).status,
    ).toBe(304);
    expect((await get('?q=groningen&lang=en&country=NL&limit=3')).headers.get('etag')).not.toBe(etag);
    const head = await get('?q=groningen&lang=nl&country=NL&limit=3', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('tells which remembered institutions the list still has', async () => {
    const body = await (
      await get('?recent=urn:mace:incommon:mit.edu&recent=https://gone.example/idp&lang=en')
    ).json();
    expect(body).toEqual({
      query: '',
      results: [],
      recent: [
        {
          entityId: 'urn:mace:incommon:mit.edu',
          name: 'Massachusetts Institute of Technology',
          country: 'US',
        },
      ],
    });
  });

  it.each([
    ['?q=' + 'x'.repeat(101), 'q is longer than 100 characters'],
    ['?q=a&limit=0', 'limit must be an integer from 1 to 50'],
    ['?q=a&limit=51', 'limit must be an integer from 1 to 50'],
    ['?q=a&limit=2.5', 'limit must be an integer from 1 to 50'],
    ['?q=a&lang=not a tag', 'lang must be a language tag such as en, nl or pt-BR'],
    ['?q=a&country=NLD', 'country must be a two-letter country code such as NL'],
    ['?q=a&q=b', 'give q once'],
    [
      '?' + Array.from({ length: 11 }, (_, i) => `recent=urn:x:${i}`).join('&'),
      'give at most 10 recent entityIDs',
    ],
  ])('400 with a clear JSON message: %s', async (query, message) => {
    const response = await get(query);
    expect(response.status).toBe(400);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ error: 'invalid_request', message });
  });

  it('refuses other methods, and allows CORS only for the origins given', async () => {
    const post = await get('?q=a', { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const cors = feed.searchHandler({
      allowOrigins: ['https://shop.example'],
      maxAgeSeconds: 0,
      maxLimit: 5,
    });
    const allowed = await cors(
      new Request('https://api.example/i?q=a', { headers: { origin: 'https://shop.example' } }),
    );
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(allowed.headers.get('vary')).toBe('Origin');
    expect(allowed.headers.get('cache-control')).toBe('no-cache');
    const other = await cors(
      new Request('https://api.example/i?q=a', { headers: { origin: 'https://evil.example' } }),
    );
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect((await cors(new Request('https://api.example/i?q=a&limit=6'))).status).toBe(400);
    expect(() => feed.searchHandler({ allowOrigins: ['https://shop.example/path'] })).toThrow(/allowOrigins/);
    expect(() => feed.searchHandler({ maxLimit: 0 })).toThrow(/maxLimit/);
  });
});
