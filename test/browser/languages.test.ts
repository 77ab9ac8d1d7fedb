/**
 * The shopper's language in real Chromium and Firefox, each started with German and with French as
 * the browser's language: the picker, the start route's refusal and the callback's error page speak
 * it. And a stale institution hint in a real browser: the first attempt ends on the error page, one
 * click starts again without the hint, and the shopper is validated.
 *
 * A shop on node:http with the SDK's handlers and default pages, a HintFeed read from feed files
 * over HTTP, the test provider as the service. No CSP bypass: the pages run as a shopper's browser
 * runs them. Screenshots: .tmp/screenshots/<browser>/lang-*.png and stale-*.png.
 */
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HintFeed } from '../../src/hints.js';
import { AffiliationClient, MemoryTransactionStore } from '../../src/index.js';
import { pickerModuleHandler } from '../../src/picker.js';
import { type RunningTestProvider, TestProvider } from '../../src/testing.js';
import { type FeedServer, startFeedServer } from '../hints/feed-server.js';
import { browsersUnderTest, launch, openPage, screenshot } from './browsers.js';
import { heading, INSTITUTIONS, listen, runWebHandler, submit, UNIVERSITY } from './flows.js';

/** An institution the shop's feed still lists but the service no longer resolves (renamed). */
const STALE = { entityId: 'https://idp.renamed.example/idp', name: 'Renamed University' };
const SECRET = 'languages-test-client-secret-5c1e';
/** The shop's pages' CSP. The start form's POST is redirected to the service: Chromium checks form-action there too. */
const csp = (service: string) =>
  `default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src data:; form-action 'self' ${service}; base-uri 'none'; frame-ancestors 'none'`;
const INPUT = 'institution-picker >>> input';

interface Shop {
  url: string;
  feed: HintFeed;
  close(): Promise<void>;
}

/** The shop's page: its language from the browser's first choice, as a shop with its own translations would. */
function page(lang: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title>
<script type="module" src="/assets/institution-picker.js"></script></head>
<body><main><h1>Shop</h1><form method="post" action="/start">
<institution-picker src="/institutions"><select name="institution" required><option value=""></option></select></institution-picker>
<button type="submit">OK</button></form></main></body></html>`;
}

async function startShop(op: RunningTestProvider, feeds: FeedServer): Promise<Shop> {
  feeds.route('/nl.json', {
    kind: 'json',
    body: Object.fromEntries([...INSTITUTIONS, STALE].map((i) => [i.entityId, { en: i.name }])),
  });
  const feed = new HintFeed({ sources: [{ url: feeds.url('/nl.json'), country: 'NL' }], retries: 0 });
  expect((await feed.refresh()).status).toBe('updated');
  let handlers: Record<string, (request: Request) => Promise<Response>> = {};
  const served = await listen((req, res) => {
    const url = new URL(req.url ?? '/', served.url);
    if (url.pathname === '/' && req.method === 'GET') {
      const lang = /^[a-z]{2}/.exec(req.headers['accept-language'] ?? '')?.[0] ?? 'en';
      const html = url.searchParams.has('nolang') ? page(lang).replace(` lang="${lang}"`, '') : page(lang);
      return void res
        .writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': csp(new URL(op.issuer).origin),
        })
        .end(html);
    }
    const handler = handlers[url.pathname];
    if (handler === undefined) return void res.writeHead(404).end();
    void runWebHandler(req, res, url, handler).catch(() => res.writeHead(500).end());
  });
  const redirectUri = `${served.url}/callback`;
  op.registerClient({ clientId: 'languages-shop', clientSecret: SECRET, redirectUris: [redirectUri] });
  const client = await AffiliationClient.discover({
    issuer: op.issuer,
    clientId: 'languages-shop',
    clientSecret: SECRET,
    redirectUri,
    hints: feed,
    transactions: new MemoryTransactionStore(),
  });
  handlers = {
    '/assets/institution-picker.js': pickerModuleHandler(),
    '/institutions': feed.searchHandler(),
    '/start': client.startHandler({ formFields: ['affiliation', 'institution'] }),
    '/callback': client.callbackHandler({
      onSuccess: (result) =>
        new Response(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Validated</title></head><body><h1>Validated</h1><p id="institution">${result.institution?.entityId ?? 'chosen at the service'}</p></body></html>`,
          { headers: { 'content-type': 'text/html; charset=utf-8' } },
        ),
    }),
  };
  return {
    url: served.url,
    feed,
    close: async () => {
      await served.close();
      await feed.close();
    },
  };
}

async function pickerText(page: Page, selector: string): Promise<string> {
  return page.$eval(`institution-picker >>> ${selector}`, (e) => e.textContent ?? '');
}

/** Type into the picker and choose the first option. */
async function choose(page: Page, query: string): Promise<void> {
  const input = (await page.waitForSelector(INPUT)) as ElementHandle<HTMLInputElement>;
  await input.focus();
  await page.keyboard.type(query);
  await expect
    .poll(() =>
      page.$$eval('institution-picker >>> li[role="option"]', (els) => els.map((e) => e.textContent)),
    )
    .toEqual([expect.stringMatching(/^Renamed University/)]);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

const EXPECTED = {
  de: {
    label: 'Einrichtung',
    placeholder: 'Name Ihrer Hochschule eingeben',
    found: /^\d+ Einrichtungen gefunden$/,
    required: 'Geben Sie den Namen Ihrer Einrichtung ein und wählen Sie sie aus der Liste',
    notStarted: 'Überprüfung nicht gestartet',
    refusal: 'Bitte starten Sie die Überprüfung erneut von der Seite des Shops aus.',
    failed: 'Überprüfung fehlgeschlagen',
    consent: 'Der Shop kann Ihre Zugehörigkeit nur mit Ihrer Einwilligung prüfen.',
    back: 'Zurück zum Shop',
    restart: 'Einrichtung erneut wählen',
    none: 'Keine Einrichtung gefunden',
    stale: 'Der Überprüfungsdienst hat die gewählte Einrichtung nicht erkannt.',
  },
  fr: {
    label: 'Établissement',
    placeholder: 'Saisissez le nom de votre université ou école',
    found: /^\d+ établissements trouvés$/,
    required: 'Saisissez le nom de votre établissement, puis choisissez-le dans la liste',
    notStarted: 'Vérification non démarrée',
    refusal: 'Veuillez recommencer la vérification depuis la page de la boutique.',
    failed: 'Échec de la vérification',
    consent: 'La boutique ne peut vérifier votre affiliation qu’avec votre consentement.',
    back: 'Retour à la boutique',
    restart: 'Choisir à nouveau votre établissement',
    none: 'Aucun établissement trouvé',
    stale: 'Le service de vérification n’a pas reconnu l’établissement choisi.',
  },
} as const;

let op: RunningTestProvider;
let feeds: FeedServer;
beforeAll(async () => {
  op = await TestProvider.start({ clients: [] });
  feeds = await startFeedServer();
}, 60_000);
afterAll(async () => {
  await op?.close();
  await feeds?.close();
});

describe.each(browsersUnderTest())('$name', (b) => {
  describe.each(['de', 'fr'] as const)('started in %s', (lang) => {
    const words = EXPECTED[lang];
    let browser: Browser;
    let shop: Shop;
    beforeAll(async () => {
      shop = await startShop(op, feeds);
      browser = await launch(b, { lang });
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await shop?.close();
    });

    it('the picker speaks the browser’s language: label, placeholder, announcements, its message', async () => {
      const { page, problems, close } = await openPage(browser);
      try {
        await page.setViewport({ width: 800, height: 640 });
        expect(await page.evaluate(() => navigator.language)).toMatch(new RegExp(`^${lang}`));
        // The page's own language (the shop's choice from Accept-Language), and without one the browser's.
        for (const path of ['/', '/?nolang']) {
          await page.goto(`${shop.url}${path}`);
          await page.waitForSelector(INPUT);
          expect(await pickerText(page, 'label')).toBe(words.label);
          expect(await page.$eval(INPUT, (i) => (i as HTMLInputElement).placeholder)).toBe(words.placeholder);
        }
        await page.goto(`${shop.url}/`);
        const input = (await page.waitForSelector(INPUT)) as ElementHandle<HTMLInputElement>;
        await input.focus();
        await page.keyboard.type('example');
        await expect.poll(() => pickerText(page, '[role="status"]')).toMatch(words.found);
        await screenshot(page, b.name, `lang-${lang}-picker`);
        await input.click({ count: 3 });
        await page.keyboard.press('Backspace');
        // The list closes once the empty field's search is due; then the button is in sight.
        await expect.poll(() => page.$eval(INPUT, (i) => i.getAttribute('aria-expanded'))).toBe('false');
        await page.click('button[type="submit"]');
        await expect.poll(() => pickerText(page, '#error')).toBe(words.required);
        await screenshot(page, b.name, `lang-${lang}-picker-required`);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }, 60_000);

    it('the start refusal and the error page speak it, with <html lang>', async () => {
      const { page, close } = await openPage(browser);
      try {
        await page.setViewport({ width: 800, height: 640 });
        // The start route takes a POST from the shop's own pages only: a typed address is refused.
        const refused = await page.goto(`${shop.url}/start`);
        expect(refused?.status()).toBe(405);
        expect(await page.$eval('html', (h) => h.lang)).toBe(lang);
        expect(await heading(page)).toBe(words.notStarted);
        expect(await page.$eval('main p', (p) => p.textContent)).toBe(words.refusal);
        await screenshot(page, b.name, `lang-${lang}-start-refused`);

        const failed = await page.goto(
          `${shop.url}/callback?error=access_denied&error_description=User%20Consent%20Denied`,
        );
        expect(failed?.status()).toBe(400);
        expect(await page.$eval('html', (h) => h.lang)).toBe(lang);
        expect(await page.title()).toBe(words.failed);
        expect(await page.$eval('main p', (p) => p.textContent)).toMatch(words.consent);
        expect(await page.$eval('main a', (a) => a.textContent)).toBe(words.back);
        await screenshot(page, b.name, `lang-${lang}-error`);
      } finally {
        await close();
      }
    }, 60_000);

    it('a stale hint: the first attempt ends on the page, one click later the shopper is validated', async () => {
      const { page, problems, close } = await openPage(browser);
      try {
        await page.setViewport({ width: 800, height: 640 });
        await page.goto(`${shop.url}/`);
        await choose(page, 'renamed');
        expect(await page.$eval('select[name="institution"]', (s) => (s as HTMLSelectElement).value)).toBe(
          STALE.entityId,
        );
        // The service does not resolve the hint (spec 7.2): back at the shop's error page.
        await submit(page, 'button[type="submit"]');
        expect(new URL(page.url()).pathname).toBe('/callback');
        expect(await page.title()).toBe(words.failed);
        expect(await page.$eval('main p', (p) => p.textContent)).toMatch(words.stale);
        expect(shop.feed.has(STALE.entityId)).toBe(false);
        await screenshot(page, b.name, `stale-${lang}-1-error`);

        // One click: the same validation again, without the hint, at the service's selection page.
        expect(await page.$eval('main form button', (button) => button.textContent)).toBe(words.restart);
        await submit(page, 'main form button');
        expect(await heading(page)).toBe('Select your institution');
        expect(new URL(page.url()).searchParams.has('aarc_idp_hint')).toBe(false);
        await page.select('select[name=entity_id]', UNIVERSITY.entityId);
        await submit(page);
        await submit(page); // log in
        await submit(page); // release the affiliation
        expect(await heading(page)).toBe('Validated');
        await screenshot(page, b.name, `stale-${lang}-2-validated`);

        // The picker no longer remembers the dead end, nor offers it to the next shopper.
        await page.goto(`${shop.url}/`);
        await expect
          .poll(() => page.evaluate(() => localStorage.getItem('institution-picker:recent') ?? ''))
          .not.toContain(STALE.entityId);
        // The error page answered 400 (the shopper saw it; Chromium logs the status); nothing else went wrong.
        expect(problems.filter((p) => !p.includes('status of 400'))).toEqual([
          expect.stringMatching(
            /^http 400: .*\/callback\?error=access_denied&error_description=entity_id%20error&/,
          ),
        ]);
        const next = await openPage(browser);
        await next.page.goto(`${shop.url}/`);
        const input = (await next.page.waitForSelector(INPUT)) as ElementHandle<HTMLInputElement>;
        await input.focus();
        await next.page.keyboard.type('renamed');
        await expect.poll(() => pickerText(next.page, '[role="status"]')).toBe(words.none);
        await next.close();
        await shop.feed.refresh(); // the next refresh confirms the feed's list: offered again
        expect(shop.feed.has(STALE.entityId)).toBe(true);
      } finally {
        await close();
      }
    }, 90_000);
  });
});
