/**
 * The Cookie header a shop receives after many abandoned starts, measured in a real Chromium (Debian's
 * package, no download) against the Express example with the test provider: a shopper who clicks
 * "Validate", goes back, and clicks again, 25 times, then validates. Baseline of the same run: the
 * header after one start. Target: ≤ 4 KB after 25 starts (nginx refuses 8 KB by default, many CDNs
 * 4 KB; Node answers 431 above 16 KB), and the shop still answers.
 */
import { startServer } from '../examples/express/app.js';
import { TestProvider } from '../src/testing.js';
import { browsersUnderTest, cookieHeaderFor, launch } from '../test/browser/browsers.js';
import { report } from './util.js';

const STARTS = 25;
const SECRET = 'bench-cookie-client-secret-0b7e2c';

export default async function bench(): Promise<void> {
  const chromium = browsersUnderTest().find((b) => b.name === 'chromium');
  if (!chromium) throw new Error('chromium is not installed');
  const op = await TestProvider.start({ clients: [] });
  const shop = await startServer({
    issuer: op.issuer,
    clientId: 'bench-shop',
    clientSecret: SECRET,
    institutions: [{ entityId: 'https://idp.university.example/idp/shibboleth', name: 'Example University' }],
    log: () => {},
  });
  op.registerClient({ clientId: 'bench-shop', clientSecret: SECRET, redirectUris: [shop.redirectUri] });
  const browser = await launch(chromium);
  try {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const sizes: number[] = [];
    let lastStatus = 0;
    for (let i = 1; i <= STARTS; i++) {
      const home = await page.goto(`${shop.url}/`, { waitUntil: 'load' });
      lastStatus = home?.status() ?? 0;
      if (lastStatus !== 200) break;
      await Promise.all([
        page.waitForNavigation({ waitUntil: 'load' }),
        page.click('form[action="/start"] button'),
      ]);
      sizes.push(Buffer.byteLength(await cookieHeaderFor(page, shop.redirectUri)));
    }
    const after = await page.goto(`${shop.url}/`, { waitUntil: 'load' });
    const cookies = (await context.cookies()).filter((c) => new URL(shop.url).hostname === c.domain);
    report(
      `Chromium ${(await browser.version()).replace(/^\D+/, '')}: Cookie header after 1 start (baseline)`,
      sizes[0] ?? 0,
      'bytes',
    );
    for (const n of [5, 10, STARTS]) {
      if (sizes[n - 1] !== undefined) report(`Cookie header after ${n} starts`, sizes[n - 1]!, 'bytes');
    }
    report(`ratio after ${sizes.length} starts / after 1`, (sizes.at(-1) ?? 0) / (sizes[0] || 1), '×');
    report('cookies sent to 127.0.0.1 (shop + provider)', cookies.length);
    report(
      `shop's answer to its home page after ${sizes.length} starts`,
      `HTTP ${after?.status() ?? 'none'}`,
    );
    const ok = (sizes.at(-1) ?? Infinity) <= 4096 && after?.status() === 200;
    report('target: ≤ 4096 bytes and the shop still answers', ok ? 'met' : 'NOT met');
    await context.close();
  } finally {
    await browser.close();
    await shop.close();
    await op.close();
  }
}
