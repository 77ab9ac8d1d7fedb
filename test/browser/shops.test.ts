/**
 * Every page and route the SDK ships or documents, in real Chromium and Firefox: the three example
 * shops and the demo's built-in shop (started by clicking the shop's own form), a minimal
 * Web-standard shop as the README writes it (startHandler + callbackHandler with the default error
 * page), the test provider's pages with a relying party that is not ours, a cross-site form POST to
 * a start route, and the Cookie header after many abandoned starts.
 *
 * No CSP bypass, no header rewriting: the pages run exactly as a shopper's browser runs them.
 * Screenshots of every page of the code flow go to .tmp/screenshots/<browser>/.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer as startExpress } from '../../examples/express/app.js';
import { startServer as startFastify } from '../../examples/fastify/app.js';
import { startServer as startHono } from '../../examples/hono/app.js';
import { startBuiltInShop } from '../../src/cli/demo-shop.js';
import { AffiliationClient, type TransactionStore } from '../../src/index.js';
import { type RunningTestProvider, TestProvider } from '../../src/testing.js';
import { browsersUnderTest, cookieHeaderFor, launch, openPage, screenshot } from './browsers.js';
import {
  COLLEGE,
  heading,
  INSTITUTIONS,
  listen,
  runWebHandler,
  shopperValidates,
  submit,
  text,
  UNIVERSITY,
} from './flows.js';

interface RunningShop {
  url: string;
  redirectUri: string;
  close(): Promise<void>;
}
interface ShopConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  institutions: { entityId: string; name: string }[];
  enableIdTokenFlow: true;
  log: (message: string) => void;
}

const SECRET = 'browser-test-client-secret-81d2f0';

/**
 * The README's shape on node:http: `client.startHandler()` and `client.callbackHandler()` with its
 * default error page, the default (memory) transaction store, a form page with
 * `Referrer-Policy: no-referrer` as every shop should send.
 */
async function startMinimalShop(
  config: ShopConfig & { transactions?: TransactionStore },
): Promise<RunningShop> {
  let handlers: { start(r: Request): Promise<Response>; callback(r: Request): Promise<Response> } | undefined;
  const served = await listen((req, res) => {
    void serveMinimal(req, res, served.url, handlers).catch(() => res.writeHead(500).end());
  });
  const redirectUri = `${served.url}/callback`;
  const client = await AffiliationClient.discover({
    issuer: config.issuer,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    redirectUri,
    ...(config.transactions ? { transactions: config.transactions } : {}),
  });
  handlers = {
    start: client.startHandler(),
    callback: client.callbackHandler({
      onSuccess: (result) =>
        new Response(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Validated</title></head><body><h1>Affiliation validated</h1><p id="affiliation">${result.affiliation}</p></body></html>`,
          { headers: { 'content-type': 'text/html; charset=utf-8' } },
        ),
    }),
  };
  return { url: served.url, redirectUri, close: served.close };
}

async function serveMinimal(
  req: IncomingMessage,
  res: ServerResponse,
  origin: string,
  handlers: { start(r: Request): Promise<Response>; callback(r: Request): Promise<Response> } | undefined,
): Promise<void> {
  const url = new URL(req.url ?? '/', origin);
  if (url.pathname === '/') {
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'none'; img-src data:; form-action 'self' http://127.0.0.1:*",
    });
    res.end(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Shop</title></head><body><h1>Student discount</h1>' +
        '<form method="post" action="/start"><label>I am a <select name="affiliation"><option>student</option><option>member</option></select></label>' +
        '<label>My institution <select name="institution"><option value="">Choose at the service</option>' +
        INSTITUTIONS.map((i) => `<option value="${i.entityId}">${i.name}</option>`).join('') +
        '</select></label><button type="submit">Validate my affiliation</button></form></body></html>',
    );
    return;
  }
  const handler =
    url.pathname === '/start'
      ? handlers?.start
      : url.pathname === '/callback'
        ? handlers?.callback
        : undefined;
  if (!handler) return void res.writeHead(404).end();
  await runWebHandler(req, res, url, handler);
}

const SHOPS: [string, (config: ShopConfig) => Promise<RunningShop>][] = [
  ['express', startExpress],
  ['fastify', startFastify],
  ['hono', startHono],
  ['demo', startBuiltInShop],
];

describe.each(browsersUnderTest())('$name', (b) => {
  let browser: Browser;
  let op: RunningTestProvider;
  const started: RunningShop[] = [];

  /** Start a shop and register it at the provider under its own client_id. */
  async function shop(
    name: string,
    start: (config: ShopConfig) => Promise<RunningShop>,
  ): Promise<RunningShop> {
    const clientId = `${name}-${b.name}-${randomBytes(4).toString('hex')}`;
    const running = await start({
      issuer: op.issuer,
      clientId,
      clientSecret: SECRET,
      institutions: INSTITUTIONS,
      enableIdTokenFlow: true,
      log: () => {},
    });
    started.push(running);
    op.registerClient({ clientId, clientSecret: SECRET, redirectUris: [running.redirectUri] });
    return running;
  }

  beforeAll(async () => {
    browser = await launch(b);
    op = await TestProvider.start({ clients: [] });
  });
  afterAll(async () => {
    await Promise.all(started.map((s) => s.close()));
    await browser?.close();
    await op?.close();
  });

  describe.each(SHOPS)('%s shop', (name, start) => {
    let running: RunningShop;
    beforeAll(async () => {
      running = await shop(name, start);
    });

    it.each([
      ['code', UNIVERSITY],
      ['id_token', COLLEGE],
    ] as const)(
      'validates with the %s flow and an institution hint, started from its own form',
      async (flow, institution) => {
        const { page, problems, close } = await openPage(browser);
        try {
          await shopperValidates(page, running.url, {
            browser: b.name,
            flow,
            hint: institution.entityId,
            shots: flow === 'code' ? `${name}-code-hint` : undefined,
          });
          expect(await heading(page)).toBe('Affiliation validated');
          expect(await text(page, 'affiliation')).toBe('student');
          expect(await text(page, 'institution')).toBe(institution.name);
          expect(problems).toEqual([]);
        } finally {
          await close();
        }
      },
    );
  });

  it('shows every page of the code flow with the institution chosen at the service (screenshots)', async () => {
    const running = await shop('express-pages', startExpress);
    const { page, problems, close } = await openPage(browser);
    try {
      await shopperValidates(page, running.url, {
        browser: b.name,
        affiliation: 'member',
        chooseAtService: COLLEGE.entityId,
        shots: 'code-flow',
      });
      expect(await text(page, 'affiliation')).toBe('member');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('shows the default callbackHandler error page when the shopper refuses consent', async () => {
    const running = await shop('minimal', startMinimalShop);
    const { page, problems, close } = await openPage(browser);
    try {
      await shopperValidates(page, running.url, { browser: b.name, consent: 'no', shots: 'minimal' });
      expect(await heading(page)).toBe('Validation failed');
      expect(await page.$eval('p', (p) => p.textContent)).toMatch(/\w/);
      // A way back to the shop, and the page's style applied under its CSP (allowed by hash).
      expect(await page.$eval('main a', (a) => a.getAttribute('href'))).toBe('/');
      expect(await page.$eval('body', (el) => getComputedStyle(el).maxWidth)).toBe('576px');
      await screenshot(page, b.name, 'callback-error-page');
      // The only problems are the page's own status (Chromium also logs it to the console).
      expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([`http 400: ${page.url()}`]);
    } finally {
      await close();
    }
  });

  it('walks the provider pages for a relying party that is not ours (a bare callback)', async () => {
    const seen: URL[] = [];
    const rp = await listen((req, res) => {
      seen.push(new URL(req.url ?? '/', 'http://rp'));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><html lang="en"><head><link rel="icon" href="data:,"><title>cb</title></head><body><h1>Recorded</h1></body></html>',
      );
    });
    try {
      const clientId = `bare-${b.name}`;
      op.registerClient({ clientId, clientSecret: SECRET, redirectUris: [`${rp.url}/cb`] });
      const verifier = randomBytes(32).toString('base64url');
      const authorize = new URL(op.endpoints.authorization);
      authorize.search = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: `${rp.url}/cb`,
        scope: 'openid student',
        state: 'state-from-a-foreign-rp',
        nonce: 'n-0123456789',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      }).toString();
      const { page, problems, close } = await openPage(browser);
      try {
        await page.goto(authorize.href, { waitUntil: 'load' });
        expect(await heading(page)).toBe('Select your institution');
        await submit(page);
        expect(await page.$eval('#username', (e) => e.getAttribute('autocomplete'))).toBe('username');
        expect(await page.$eval('#password', (e) => e.getAttribute('autocomplete'))).toBe('current-password');
        expect(await page.$$eval('label[for=username], label[for=password]', (l) => l.length)).toBe(2);
        await submit(page);
        await submit(page);
        expect(await heading(page)).toBe('Recorded');
        expect(seen).toHaveLength(1);
        expect(seen[0]?.pathname).toBe('/cb');
        expect(seen[0]?.searchParams.get('state')).toBe('state-from-a-foreign-rp');
        expect(seen[0]?.searchParams.get('code')).toMatch(/.{16,}/);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    } finally {
      await rp.close();
    }
  });

  it('refuses a cross-site form POST to the start route (a page on another origin auto-submits)', async () => {
    const running = await shop('express-csrf', startExpress);
    const attacker = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><head><link rel="icon" href="data:,"><title>Win a prize</title></head><body>` +
          `<form method="post" action="${running.url}/start"><input type="hidden" name="affiliation" value="student"></form>` +
          '<script>document.forms[0].submit()</script></body></html>',
      );
    });
    try {
      const { page, close } = await openPage(browser);
      try {
        // localhost and 127.0.0.1 are different sites: the form on localhost posts cross-site.
        const answer = page.waitForResponse((r) => r.url() === `${running.url}/start`);
        await page.goto(`http://localhost:${attacker.port}/`);
        const response = await answer;
        expect(response.status()).toBe(403);
        await page.waitForFunction(() => document.querySelector('h1') !== null && location.port !== '');
        expect(new URL(page.url()).pathname).toBe('/start');
        await screenshot(page, b.name, 'cross-site-start-refused');
        expect(await cookieHeaderFor(page, `${running.url}/callback`)).toBe('');
      } finally {
        await close();
      }
    } finally {
      await attacker.close();
    }
  });

  it.each([
    ['express', startExpress],
    ['minimal', startMinimalShop],
  ] as const)(
    'keeps the Cookie header under 4 KB after 25 abandoned starts, and the newest start validates (%s shop)',
    async (name, start) => {
      const running = await shop(`${name}-flood`, start);
      const { page, close } = await openPage(browser);
      try {
        for (let i = 0; i < 25; i++) {
          // The shop must still answer (Node refuses headers over 16 KB with 431).
          expect((await page.goto(`${running.url}/`, { waitUntil: 'load' }))?.status()).toBe(200);
          await submit(page, 'form[action="/start"] button');
          expect(await heading(page)).toBe('Select your institution');
        }
        expect((await page.goto(`${running.url}/`, { waitUntil: 'load' }))?.status()).toBe(200);
        await submit(page, 'form[action="/start"] button');
        await submit(page);
        await submit(page);
        const cookie = await cookieHeaderFor(page, running.redirectUri);
        process.stdout.write(
          `[${b.name}] ${name} shop: Cookie header after 26 starts: ${cookie.length} bytes\n`,
        );
        expect(cookie.length).toBeLessThan(4096);
        await submit(page);
        await page.waitForSelector('#affiliation');
        expect(await text(page, 'affiliation')).toBe('student');
      } finally {
        await close();
      }
    },
    // 52 page loads in a real browser: on a loaded 2-core CI machine this can take a minute.
    90_000,
  );
});
