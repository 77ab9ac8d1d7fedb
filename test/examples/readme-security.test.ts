/**
 * The README's "Validate a shopper" snippet, run as written (only its package import is pointed at
 * the source) against the msw OP mock, checked for what a security reviewer signs off: the start
 * route refuses cross-site requests, a callback URL works only in the browser that started the
 * validation, and no answer about the shopper can be cached.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CLIENT_ID, CLIENT_SECRET } from '../helpers/op-mock.js';
import { useOp } from '../helpers/setup.js';

// README code passes no fetch: the SDK's default (undici's own fetch) is pointed at the global fetch,
// which msw intercepts.
vi.mock('../../src/http/dispatcher.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/http/dispatcher.js')>()),
  getDefaultFetch: async () => (input: string | URL | Request, init?: RequestInit) =>
    globalThis.fetch(input, init),
}));

const { op } = useOp();
const root = fileURLToPath(new URL('../../', import.meta.url));
const SHOP = 'https://shop.example.com';

interface Snippet {
  startValidation(request: Request): Promise<Response>;
  callback(request: Request): Promise<Response>;
}

async function loadSnippet(): Promise<Snippet> {
  const readme = await readFile(`${root}README.md`, 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Validate a shopper'));
  const code = section && /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('README: no ts example in "Validate a shopper"');
  const source = code.replace("'affiliation-validation'", JSON.stringify(`${root}src/index.ts`));
  const dir = `${root}.tmp/security-review`;
  await mkdir(dir, { recursive: true });
  const file = `${dir}/readme-snippet-${process.pid}-${Date.now()}.ts`;
  await writeFile(file, source);
  process.env.AV_CLIENT_ID = CLIENT_ID;
  process.env.AV_CLIENT_SECRET = CLIENT_SECRET;
  process.env.AV_TX_SECRET = 'readme-security-test-secret-0123456789abcdef';
  try {
    return (await import(pathToFileURL(file).href)) as Snippet;
  } finally {
    await rm(file, { force: true });
  }
}

const FORM = 'application/x-www-form-urlencoded';

/**
 * What Chromium and Firefox send when the shopper clicks "validate" on the shop's own page served
 * with Referrer-Policy: no-referrer (test/browser/ checks it in the real browsers).
 */
function sameOriginPost(): Request {
  return new Request(`${SHOP}/validate`, {
    method: 'POST',
    headers: { 'content-type': FORM, 'sec-fetch-site': 'same-origin', origin: 'null' },
    body: 'affiliation=student',
  });
}

function post(headers: Record<string, string>): Request {
  return new Request(`${SHOP}/validate`, {
    method: 'POST',
    headers: { 'content-type': FORM, ...headers },
    body: 'affiliation=student',
  });
}

function cookiePair(response: Response): string {
  return (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

describe('README snippet: security properties', () => {
  let snippet: Snippet;
  beforeAll(async () => {
    snippet = await loadSnippet();
  });

  it('starts a validation only on a same-origin POST (CSRF on the start route)', async () => {
    // A link or <img> on another site.
    const get = await snippet.startValidation(new Request(`${SHOP}/validate`));
    expect([get.status, get.headers.get('allow'), get.headers.get('set-cookie')]).toEqual([
      405,
      'POST',
      null,
    ]);
    const refused = [
      post({ 'sec-fetch-site': 'cross-site', origin: 'null' }), // another site's form, no-referrer
      post({ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }),
      post({ 'sec-fetch-site': 'same-site', origin: 'https://evil.shop.example.com' }),
      post({ origin: 'https://evil.example' }), // an older browser
      post({ origin: 'null' }),
      post({}),
    ];
    for (const request of refused) {
      const response = await snippet.startValidation(request);
      expect(response.status).toBe(403);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('set-cookie')).toBeNull();
    }
    const started = await snippet.startValidation(sameOriginPost());
    expect(started.status).toBe(303);
    expect(started.headers.get('location')).toMatch(/^https:\/\/op\.example\.org\/Service\/authorization\?/);
    const cookie = started.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^__Host-av_tx_[0-2]=/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=Lax/);
  });

  it('validates in the browser that started, never cached, and refuses the callback URL anywhere else', async () => {
    const started = await snippet.startValidation(sameOriginPost());
    const callbackUrl = await op.authorize(started.headers.get('location') ?? '');

    // The seller's / attacker's callback URL opened in another browser (no transaction cookie).
    const elsewhere = await snippet.callback(new Request(callbackUrl));
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.headers.get('cache-control')).toBe('no-store');
    expect(await elsewhere.text()).toContain('no longer valid');

    // That attempt consumed nothing: the same URL still succeeds in the browser that started.
    const back = await snippet.callback(
      new Request(callbackUrl, { headers: { cookie: cookiePair(started) } }),
    );
    expect(back.status).toBe(200);
    expect(back.headers.get('cache-control')).toBe('no-store');
    expect(await back.json()).toEqual({ affiliation: 'student', transactionId: expect.any(String) });
    // The transaction cookie is replaced with the answer by a small "used" marker (a reload is then
    // answered replayed_transaction by any app instance).
    expect(back.headers.get('set-cookie')).toMatch(/^__Host-av_tx_0=[A-Za-z0-9_-]{16}\.used; Max-Age=600;/);
  });

  it('refuses to replay a callback URL (the code is single-use)', async () => {
    const started = await snippet.startValidation(sameOriginPost());
    const callbackUrl = await op.authorize(started.headers.get('location') ?? '');
    const cookie = cookiePair(started);
    expect((await snippet.callback(new Request(callbackUrl, { headers: { cookie } }))).status).toBe(200);
    // Even with a copy of the cookie the browser has already deleted.
    const replay = await snippet.callback(new Request(callbackUrl, { headers: { cookie } }));
    expect(replay.status).toBe(400);
    expect(replay.headers.get('cache-control')).toBe('no-store');
  });
});
