/**
 * The built-in demo shop starts validations only from a same-origin form POST (docs/security.md
 * 3.2), as the examples do: a GET or another site's form gets no authorization URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningShop, startBuiltInShop } from '../../src/cli/demo-shop.js';
import { type RunningTestProvider, TestProvider } from '../../src/testing/provider.js';

let op: RunningTestProvider;
let shop: RunningShop;
const form = 'affiliation=student&institution=&flow=code';

beforeAll(async () => {
  op = await TestProvider.start({ clients: [] });
  shop = await startBuiltInShop({
    issuer: op.issuer,
    clientId: 'shop',
    clientSecret: 'shop-secret-0123456789abcdef',
    institutions: [],
    enableIdTokenFlow: true,
  });
  op.registerClient({
    clientId: 'shop',
    clientSecret: 'shop-secret-0123456789abcdef',
    redirectUris: [shop.redirectUri],
  });
});
afterAll(async () => {
  await shop?.close();
  await op?.close();
});

function start(method: string, headers: Record<string, string>, body?: string) {
  return fetch(`${shop.url}/start${method === 'GET' ? `?${form}` : ''}`, {
    method,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
    redirect: 'manual',
  });
}

describe('the built-in demo shop start route', () => {
  it('serves its start form as a POST form', async () => {
    const html = await (await fetch(shop.url)).text();
    expect(html).toContain('<form method="post" action="/start">');
  });

  it('starts from a same-origin POST: a redirect to the service and a transaction cookie', async () => {
    const response = await start('POST', { origin: shop.url }, form);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(new RegExp(`^${op.issuer}`));
    expect(response.headers.get('set-cookie')).toMatch(/^av_tx_/);
    const fetchMetadata = await start('POST', { 'sec-fetch-site': 'same-origin' }, form);
    expect(fetchMetadata.status).toBe(303);
  });

  it('refuses a GET (405) and a POST from another origin or without any origin signal (403)', async () => {
    const get = await start('GET', {});
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(get.headers.get('location')).toBeNull();
    for (const headers of [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      {},
    ] as Record<string, string>[]) {
      const response = await start('POST', headers, form);
      expect(response.status).toBe(403);
      expect(response.headers.get('set-cookie')).toBeNull();
    }
  });
});
