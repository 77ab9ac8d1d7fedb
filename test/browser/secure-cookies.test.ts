/**
 * What docs/getting-started.md says about plain-http development, checked in the real browsers:
 * a `Secure` (and `__Host-`) cookie set over `http:` is kept on localhost, *.localhost and
 * 127.0.0.1, and dropped on any other host name (here `shop.test`, resolved to 127.0.0.1 by the
 * browser's own host mapping — no header is rewritten).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browsersUnderTest } from './browsers.js';

const COOKIES = [
  '__Host-av_tx_0=1; Path=/; Secure; HttpOnly; SameSite=Lax',
  'av_tx_1=1; Path=/; Secure; HttpOnly; SameSite=Lax',
  'plain=1; Path=/; HttpOnly; SameSite=Lax',
];

describe.each(browsersUnderTest())(
  '$name keeps Secure cookies over plain http only on localhost-class hosts',
  (b) => {
    let server: ReturnType<typeof createServer>;
    let port: number;
    beforeAll(async () => {
      server = createServer((req, res) => {
        if (req.url === '/set') res.writeHead(200, { 'set-cookie': COOKIES, 'content-type': 'text/plain' });
        else res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(req.url === '/set' ? 'set' : `cookie: ${req.headers.cookie ?? ''}`);
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('localhost, shop.localhost and 127.0.0.1 keep them; shop.test drops them', async () => {
      const browser = await puppeteer.launch({
        browser: b.name === 'chromium' ? 'chrome' : 'firefox',
        executablePath: b.executablePath,
        headless: true,
        args:
          b.name === 'chromium'
            ? ['--no-sandbox', '--disable-dev-shm-usage', '--host-resolver-rules=MAP shop.test 127.0.0.1']
            : [],
        extraPrefsFirefox: { 'network.dns.localDomains': 'shop.test,shop.localhost' },
      });
      try {
        const seen: Record<string, string> = {};
        for (const host of ['localhost', 'shop.localhost', '127.0.0.1', 'shop.test']) {
          const context = await browser.createBrowserContext();
          const page = await context.newPage();
          await page.goto(`http://${host}:${port}/set`);
          await page.goto(`http://${host}:${port}/echo`);
          seen[host] = (await page.evaluate(() => document.body.textContent)) ?? '';
          await context.close();
        }
        for (const host of ['localhost', 'shop.localhost', '127.0.0.1']) {
          expect(seen[host]).toBe('cookie: __Host-av_tx_0=1; av_tx_1=1; plain=1');
        }
        expect(seen['shop.test']).toBe('cookie: plain=1');
      } finally {
        await browser.close();
      }
    }, 60_000);
  },
);
