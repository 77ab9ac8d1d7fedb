import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browsersUnderTest, launch, openPage } from './browsers.js';

// The harness itself: each browser starts, loads a page from a server on 127.0.0.1, runs its script
// under a nonce CSP, and reports console errors to the test.
describe.each(browsersUnderTest())('$name', (b) => {
  let server: ReturnType<typeof createServer>;
  let origin: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/favicon.ico') return void res.writeHead(204).end();
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': "default-src 'none'; script-src 'nonce-abc'",
      });
      res.end(
        '<!doctype html><title>t</title><p id="out">no script</p>' +
          '<script nonce="abc">document.getElementById("out").textContent = "ran"</script>' +
          '<script>console.log("blocked inline script ran")</script>',
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('runs a nonce script, blocks a script without the nonce, and reports the CSP violation', async () => {
    const browser = await launch(b);
    try {
      const { page, problems, close } = await openPage(browser);
      await page.goto(`${origin}/`);
      expect(await page.$eval('#out', (e) => e.textContent)).toBe('ran');
      await expect.poll(() => problems.some((p) => /Content.Security.Policy|script-src/i.test(p))).toBe(true);
      await close();
    } finally {
      await browser.close();
    }
  });
});
