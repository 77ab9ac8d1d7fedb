/**
 * The README's "Validate a shopper" snippet, run as written in Chromium and Firefox: its code is taken
 * from README.md, and only its package import and its two addresses (the service, the shop) are
 * pointed at the local test provider and a node:http server on 127.0.0.1. The shop's page is the
 * form the snippet's comment describes, served with `Referrer-Policy: no-referrer` (so the browsers
 * send `Origin: null` with the POST).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningTestProvider, TestProvider } from '../../src/testing.js';
import { browsersUnderTest, cookieHeaderFor, launch, openPage, screenshot } from './browsers.js';
import { heading, INSTITUTIONS, listen, runWebHandler, submit, UNIVERSITY } from './flows.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Snippet {
  startValidation(request: Request): Promise<Response>;
  callback(request: Request): Promise<Response>;
}

async function readmeSnippet(): Promise<string> {
  const readme = await readFile(`${root}README.md`, 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Validate a shopper'));
  const code = section && /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('README: no ts example in "Validate a shopper"');
  return code;
}

/** Import the snippet with its import and addresses pointed at the local servers. */
async function loadSnippet(issuer: string, shop: string): Promise<Snippet> {
  const code = await readmeSnippet();
  for (const literal of [
    "'affiliation-validation'",
    "'https://op.example.org'",
    "'https://shop.example.com'",
  ]) {
    expect(code, `the README snippet names ${literal}`).toContain(literal);
  }
  const source = code
    .replace("'affiliation-validation'", JSON.stringify(`${root}src/index.ts`))
    .replace("'https://op.example.org'", JSON.stringify(issuer))
    .replace("'https://shop.example.com'", JSON.stringify(shop));
  const dir = `${root}.tmp/browser`;
  await mkdir(dir, { recursive: true });
  const file = `${dir}/readme-snippet-${process.pid}-${randomBytes(4).toString('hex')}.ts`;
  await writeFile(file, source);
  try {
    return (await import(pathToFileURL(file).href)) as Snippet;
  } finally {
    await rm(file, { force: true });
  }
}

const PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Shop</title></head>' +
  '<body><h1>Student discount</h1><form method="post" action="/validate">' +
  '<label>I am a <select name="affiliation"><option>student</option><option>member</option></select></label> ' +
  '<label>My institution <select name="institution"><option value="">Choose at the service</option>' +
  INSTITUTIONS.map((i) => `<option value="${i.entityId}">${i.name}</option>`).join('') +
  '</select></label> <button>Validate</button></form></body></html>';

/** node:http → the snippet's Web handlers: `/` is the form, `/validate` and `/callback` its routes. */
async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
  snippet: Snippet | undefined,
) {
  const url = new URL(req.url ?? '/', origin);
  // A shop serves its icon: a page without one (the JSON answer of onSuccess) makes the browser ask.
  if (url.pathname === '/favicon.ico') return void res.writeHead(204).end();
  if (url.pathname === '/') {
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'none'; img-src data:; form-action 'self' http://127.0.0.1:*",
    });
    res.end(PAGE);
    return;
  }
  const handler =
    url.pathname === '/validate'
      ? snippet?.startValidation
      : url.pathname === '/callback'
        ? snippet?.callback
        : undefined;
  if (!handler) return void res.writeHead(404).end();
  await runWebHandler(req, res, url, handler);
}

describe.each(browsersUnderTest())('README snippet in $name', (b) => {
  let browser: Browser;
  let op: RunningTestProvider;
  let shop: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    browser = await launch(b);
    op = await TestProvider.start({ clients: [] });
    let snippet: Snippet | undefined;
    shop = await listen((req, res) => {
      void serve(req, res, shop.url, snippet).catch(() => res.writeHead(500).end());
    });
    const clientId = `readme-${b.name}`;
    const clientSecret = 'readme-browser-client-secret-0f3a';
    op.registerClient({ clientId, clientSecret, redirectUris: [`${shop.url}/callback`] });
    process.env.AV_CLIENT_ID = clientId;
    process.env.AV_CLIENT_SECRET = clientSecret;
    process.env.AV_TX_SECRET = randomBytes(32).toString('base64url');
    snippet = await loadSnippet(op.issuer, shop.url);
  });
  afterAll(async () => {
    await shop?.close();
    await browser?.close();
    await op?.close();
  });

  it('starts from its own page, validates with an institution hint, and stays under 4 KB of cookies after 25 starts', async () => {
    const { page, problems, close } = await openPage(browser);
    try {
      // 25 abandoned starts: the shopper clicks, goes back, clicks again.
      for (let i = 0; i < 25; i++) {
        await page.goto(`${shop.url}/`, { waitUntil: 'load' });
        await submit(page, 'form[action="/validate"] button');
        expect(await heading(page)).toBe('Select your institution');
      }
      expect((await cookieHeaderFor(page, `${shop.url}/callback`)).length).toBeLessThan(4096);

      await page.goto(`${shop.url}/`, { waitUntil: 'load' });
      await page.select('select[name=institution]', UNIVERSITY.entityId);
      await screenshot(page, b.name, 'readme-1-shop');
      await submit(page, 'form[action="/validate"] button');
      expect(await heading(page)).toMatch(/^Log in at /);
      await submit(page);
      expect(await heading(page)).toBe('Release your affiliation?');
      await submit(page, 'button[type=submit]');
      // onSuccess answers JSON: the browser shows it as the page's text (what a person sees, so
      // innerText, not textContent).
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is asserted
      const body = JSON.parse(await page.evaluate(() => document.body.innerText)) as Record<string, unknown>;
      expect(body).toEqual({
        affiliation: 'student',
        transactionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expect(new URL(page.url()).pathname).toBe('/callback');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
    // 55 page loads in a real browser: on a loaded 2-core CI machine this can take a minute (as the
    // flood test in shops.test.ts).
  }, 90_000);
});
