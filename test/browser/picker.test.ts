import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Shop, startShop } from '../picker/shop.js';
import { browsersUnderTest, launch, openPage, screenshot } from './browsers.js';

const RUG = 'https://signon.rug.nl/nidp/saml2/metadata';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const INPUT = 'institution-picker >>> input';

async function attr(page: Page, selector: string, name: string): Promise<string | null> {
  return page.$eval(selector, (el, n) => el.getAttribute(n), name);
}

/** Every option's text, in order. */
async function options(page: Page): Promise<string[]> {
  return page.$$eval('institution-picker >>> li[role="option"]', (els) =>
    els.map((e) => e.textContent ?? ''),
  );
}

/** The first option's highlighted match: says which query the list answers. */
async function firstMark(page: Page): Promise<string | null> {
  return page.$eval('institution-picker >>> li[role="option"] mark', (m) => m.textContent);
}

async function status(page: Page): Promise<string> {
  return page.$eval('institution-picker >>> [role="status"]', (e) => e.textContent ?? '');
}

/** axe-core, injected through the automation protocol (not an inline script: the page's CSP stays as it is). */
async function axe(page: Page): Promise<{ id: string; nodes: string[] }[]> {
  const injected = await page.evaluate('typeof window.axe');
  if (injected === 'undefined') await page.evaluate(axeSource);
  return page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is a global injected above.
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v: { id: string; nodes: { target: unknown }[] }) => ({
      id: v.id,
      nodes: v.nodes.map((n) => JSON.stringify(n.target)),
    }));
  });
}

describe.each(browsersUnderTest())('<institution-picker> in $name', (b) => {
  let shop: Shop;
  let browser: Browser;
  beforeAll(async () => {
    shop = await startShop();
    browser = await launch(b);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
  });

  it('types, ranks, announces, picks with the keyboard, posts the entityID and remembers it across a reload, under a strict CSP', async () => {
    const { page, problems, close } = await openPage(browser);
    try {
      await page.setViewport({ width: 800, height: 640 });
      await page.goto(`${shop.origin}/`);
      const input = (await page.waitForSelector(INPUT)) as ElementHandle<HTMLInputElement>;
      // Upgraded: the combobox is there and the fallback <select> is not rendered (it stays in the form).
      expect(await attr(page, INPUT, 'role')).toBe('combobox');
      expect(await attr(page, INPUT, 'aria-expanded')).toBe('false');
      expect(await attr(page, INPUT, 'aria-controls')).toBe('listbox');
      expect(
        await page.$eval('select[name="institution"]', (s) => (s as HTMLSelectElement).offsetParent),
      ).toBeNull();
      await screenshot(page, b.name, 'picker-empty');

      await input.focus();
      await page.keyboard.type('gron', { delay: 20 });
      await screenshot(page, b.name, 'picker-typing');
      // Wait for the answer to the whole query, not to "g", "gr" or "gro" (typing is faster than the
      // answers; the highlighted match says which query the list shows). The match is highlighted.
      await expect.poll(() => firstMark(page), { timeout: 5000 }).toBe('Gron');
      expect((await options(page))[0]).toBe('University of GroningenNL');
      expect(await attr(page, INPUT, 'aria-expanded')).toBe('true');
      await expect.poll(() => status(page)).toMatch(/^\d+ institutions found$/);
      await screenshot(page, b.name, 'picker-results');

      // Keyboard: Down, End, Home, then Enter chooses.
      await page.keyboard.press('ArrowDown');
      expect(await attr(page, INPUT, 'aria-activedescendant')).toBe('option-0');
      expect(await attr(page, 'institution-picker >>> #option-0', 'aria-selected')).toBe('true');
      const count = (await options(page)).length;
      await page.keyboard.press('End');
      expect(await attr(page, INPUT, 'aria-activedescendant')).toBe(`option-${count - 1}`);
      await page.keyboard.press('Home');
      expect(await attr(page, INPUT, 'aria-activedescendant')).toBe('option-0');
      await page.keyboard.press('ArrowUp');
      expect(await attr(page, INPUT, 'aria-activedescendant')).toBe(`option-${count - 1}`);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      expect(await page.$eval(INPUT, (i) => (i as HTMLInputElement).value)).toBe('University of Groningen');
      expect(await attr(page, INPUT, 'aria-expanded')).toBe('false');
      expect(await page.$eval('select[name="institution"]', (s) => (s as HTMLSelectElement).value)).toBe(RUG);
      await screenshot(page, b.name, 'picker-chosen');

      // Escape closes an open list; the input keeps what was typed.
      await page.keyboard.press('Backspace');
      await expect.poll(() => attr(page, INPUT, 'aria-expanded')).toBe('true');
      await page.keyboard.press('Escape');
      expect(await attr(page, INPUT, 'aria-expanded')).toBe('false');
      expect(await page.$eval(INPUT, (i) => (i as HTMLInputElement).value)).toBe('University of Groninge');
      // Editing the text drops the choice: the form posts nothing stale.
      expect(await page.$eval('select[name="institution"]', (s) => (s as HTMLSelectElement).value)).toBe('');
      await page.keyboard.type('n');
      // The list was closed: it opens again only when the new answer is shown.
      await expect.poll(() => attr(page, INPUT, 'aria-expanded')).toBe('true');
      await expect.poll(() => options(page)).toContain('University of GroningenNL');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');

      // Submitting posts the entityID as a plain form field.
      await Promise.all([page.waitForNavigation(), page.click('button[type="submit"]')]);
      expect(shop.posts.at(-1)).toEqual({ institution: RUG });

      // Reload: the choice is remembered and offered on focus, before typing.
      await page.goto(`${shop.origin}/`);
      const again = (await page.waitForSelector(INPUT)) as ElementHandle<HTMLInputElement>;
      await again.focus();
      await expect.poll(() => options(page)).toEqual(['University of GroningenNL']);
      expect(await page.$eval('institution-picker >>> li[role="presentation"]', (e) => e.textContent)).toBe(
        'Recently chosen',
      );
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('forgets remembered institutions that the list no longer has', async () => {
    const { page, problems, close } = await openPage(browser);
    try {
      await page.goto(`${shop.origin}/`);
      await page.waitForSelector(INPUT);
      await page.evaluate((rug) => {
        localStorage.setItem(
          'institution-picker:recent',
          JSON.stringify([
            { entityId: 'https://idp.gone.example/idp', name: 'Closed College' },
            { entityId: rug, name: 'Old name' },
          ]),
        );
      }, RUG);
      await page.reload();
      await page.waitForSelector(INPUT);
      await expect
        .poll(() => page.evaluate(() => localStorage.getItem('institution-picker:recent')))
        .toBe(JSON.stringify([{ entityId: RUG, name: 'University of Groningen', country: 'NL' }]));
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('finds by e-mail address and acronym, and fits a 360 px phone screen', async () => {
    const { page, problems, close } = await openPage(browser);
    try {
      await page.setViewport({
        width: 360,
        height: 640,
        deviceScaleFactor: 1,
        isMobile: true,
        hasTouch: true,
      });
      await page.goto(`${shop.origin}/`);
      const input = (await page.waitForSelector(INPUT)) as ElementHandle<HTMLInputElement>;
      await input.focus();
      await page.keyboard.type('jan@student.rug.nl');
      await expect.poll(() => options(page)).toEqual(['University of Groningensignon.rug.nl · NL']);
      await input.click({ count: 3 });
      await page.keyboard.type('UvA');
      await expect
        .poll(async () => (await options(page))[0])
        .toBe('University of Amsterdamlogin.uva.nl · NL');
      await screenshot(page, b.name, 'picker-phone');
      // Nothing wider than the screen.
      const widths = await page.evaluate(() => {
        const picker = document.querySelector('institution-picker')!;
        const list = picker.shadowRoot!.querySelector('ul')!.getBoundingClientRect();
        return { doc: document.documentElement.scrollWidth, list: list.right, view: window.innerWidth };
      });
      expect(widths.doc).toBeLessThanOrEqual(widths.view);
      expect(widths.list).toBeLessThanOrEqual(widths.view);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('passes an axe-core scan closed and open', async () => {
    const { page, problems, close } = await openPage(browser);
    try {
      await page.goto(`${shop.origin}/`);
      const input = (await page.waitForSelector(INPUT)) as ElementHandle<HTMLInputElement>;
      expect(await axe(page)).toEqual([]);
      await input.focus();
      await page.keyboard.type('zur');
      await expect.poll(() => firstMark(page)).toMatch(/^z[uü]r$/i);
      expect((await options(page)).length).toBeGreaterThan(1);
      await page.keyboard.press('ArrowDown');
      expect(await axe(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);
});
