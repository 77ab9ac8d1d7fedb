import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Shop, startShop } from '../picker/shop.js';
import { type BrowserName, browsersUnderTest, launch, openPage, screenshot } from './browsers.js';

const RUG = 'https://signon.rug.nl/nidp/saml2/metadata';
/**
 * Runs what submits the form and waits for the shop's answer to the POST (its page with `#posted`).
 * Not `waitForNavigation()`: the picker keeps a choice in the history entry (`history.replaceState`),
 * a same-document navigation whose event can arrive late and pass for the submission.
 */
async function submitted(page: Page, action: Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForSelector('#posted'), action]);
}

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

/** What the screen shows (not the whole page): .tmp/screenshots/<browser>/<name>.png. */
async function viewShot(page: Page, b: BrowserName, name: string): Promise<void> {
  const dir = resolve('.tmp/screenshots', b);
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) as `${string}.png` });
}

/** The picker's message beside the field, as shown ('' while hidden). */
async function errorShown(page: Page): Promise<string> {
  return page.$eval('institution-picker >>> #error', (e) =>
    (e as HTMLElement).hidden ? '' : (e.textContent ?? ''),
  );
}

/** Where the keyboard is: the focused element of the page, and inside the picker's shadow root. */
async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const picker = document.querySelector('institution-picker');
    const inner = picker?.shadowRoot?.activeElement;
    const outer = document.activeElement;
    return inner ? `${outer?.localName} >>> ${inner.localName}#${inner.id}` : (outer?.localName ?? '');
  });
}

/** Tab forward until `what` (a focused() answer) has the focus, as a keyboard user does. */
async function tabTo(page: Page, what: string): Promise<void> {
  for (let i = 0; i < 5 && (await focused(page)) !== what; i++) await page.keyboard.press('Tab');
  expect(await focused(page)).toBe(what);
}

const DEFAULT_ERROR = 'Type the name of your institution, then choose it from the list';

/** axe-core, injected through the automation protocol (not an inline script: the page's CSP stays as it is). */
async function axe(page: Page): Promise<{ id: string; nodes: string[] }[]> {
  const injected = await page.evaluate('typeof window.axe');
  if (injected === 'undefined') await page.evaluate(axeSource);
  return page.evaluate(async () => {
    // Label in Name (WCAG 2.5.3) is switched on by name, whatever axe's release makes of it.
    // biome-ignore lint/suspicious/noExplicitAny: axe is a global injected above.
    const result = await (window as any).axe.run(document, {
      resultTypes: ['violations'],
      rules: { 'label-content-name-mismatch': { enabled: true } },
    });
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
      expect((await options(page))[0]).toBe('University of GroningenNetherlands');
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
      await expect.poll(() => options(page)).toContain('University of GroningenNetherlands');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');

      // Submitting posts the entityID as a plain form field.
      await submitted(page, page.click('button[type="submit"]'));
      expect(shop.posts.at(-1)).toEqual({ institution: RUG });

      // Reload: the choice is remembered and offered on focus, before typing.
      await page.goto(`${shop.origin}/`);
      const again = (await page.waitForSelector(INPUT)) as ElementHandle<HTMLInputElement>;
      await again.focus();
      await expect.poll(() => options(page)).toEqual(['University of GroningenNetherlands']);
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
      await expect.poll(() => options(page)).toEqual(['University of Groningensignon.rug.nl · Netherlands']);
      await input.click({ count: 3 });
      await page.keyboard.type('UvA');
      await expect
        .poll(async () => (await options(page))[0])
        .toBe('University of Amsterdamlogin.uva.nl · Netherlands');
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
      // Label in Name checked every option: each one's accessible name holds its visible text, so a
      // speech-input user can say what they see.
      const labelInName = await page.evaluate(async () => {
        // biome-ignore lint/suspicious/noExplicitAny: axe is a global injected above.
        const result = await (window as any).axe.run(document, { runOnly: ['label-content-name-mismatch'] });
        return { passes: result.passes[0]?.nodes.length ?? 0, failed: result.violations.length };
      });
      expect(labelInName).toEqual({ passes: (await options(page)).length, failed: 0 });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('a search the picker cancels is not a failure; a search that fails is', async () => {
    const { page, problems, cancelled, close } = await openPage(browser);
    try {
      await page.goto(`${shop.origin}/`);
      const input = (await page.waitForSelector(INPUT)) as ElementHandle<HTMLInputElement>;
      await input.focus();
      // The endpoint holds its answers: the search for "gro" is still on its way when "gron" starts.
      let release!: () => void;
      shop.searchGate = new Promise((r) => (release = r));
      const before = shop.searches;
      await page.keyboard.type('gro');
      await expect.poll(() => shop.searches).toBe(before + 1);
      await page.keyboard.type('n');
      await expect.poll(() => shop.searches).toBe(before + 2);
      release();
      shop.searchGate = undefined;
      await expect.poll(() => firstMark(page)).toBe('Gron');
      expect(cancelled).toEqual([
        expect.stringMatching(/\/institutions\?q=gro&.* (net::ERR_ABORTED|NS_BINDING_ABORTED)$/),
      ]);
      expect(problems).toEqual([]);

      // A connection dropped without an answer is a failure, and the picker says it found nothing.
      await input.click({ count: 3 });
      await page.keyboard.type('unanswered');
      await expect
        .poll(() => problems.filter((p) => p.startsWith('requestfailed:')))
        .toEqual([
          expect.stringMatching(/\/institutions\?q=unanswered&.* net::ERR_EMPTY_RESPONSE|NS_ERROR_NET_/),
        ]);
      // Chromium also logs it to the console ("Failed to load resource"); nothing else went wrong.
      for (const p of problems)
        expect(p).toMatch(/unanswered|^console\.error: Failed to load resource: net::ERR_EMPTY_RESPONSE$/);
      await expect.poll(() => status(page)).toBe('No institution found');
      expect(cancelled).toHaveLength(1);
    } finally {
      await close();
    }
  }, 60_000);

  it('"Verify" before choosing: says why beside the field, marks it invalid for assistive technology, moves the focus there, posts nothing, logs nothing', async () => {
    const { page, problems, close } = await openPage(browser);
    try {
      await page.setViewport({ width: 800, height: 640 });
      await page.goto(`${shop.origin}/`);
      await page.waitForSelector(INPUT);
      const posted = shop.posts.length;
      // Nothing is said before the shopper tries.
      expect(await errorShown(page)).toBe('');
      expect(await attr(page, INPUT, 'aria-invalid')).toBeNull();

      await tabTo(page, 'button');
      await page.keyboard.press('Enter');
      await expect.poll(() => errorShown(page)).toBe(DEFAULT_ERROR);
      expect(await focused(page)).toBe('institution-picker >>> input#input');
      expect(await attr(page, INPUT, 'aria-invalid')).toBe('true');
      // The message is the field's description (both in the picker's shadow root).
      const describedBy = await attr(page, INPUT, 'aria-describedby');
      expect(describedBy).toBe('error');
      expect(await page.$eval(`institution-picker >>> #${describedBy}`, (e) => e.textContent)).toBe(
        DEFAULT_ERROR,
      );
      // Beside the field: between its label and the field, on screen.
      const box = await page.evaluate(() => {
        const root = document.querySelector('institution-picker')!.shadowRoot!;
        const rect = (sel: string) => root.querySelector(sel)!.getBoundingClientRect().toJSON();
        return { label: rect('label'), error: rect('#error'), input: rect('input') };
      });
      expect(box.error.top).toBeGreaterThanOrEqual(box.label.bottom - 1);
      expect(box.error.bottom).toBeLessThanOrEqual(box.input.top + 1);
      expect(box.error.height).toBeGreaterThan(0);
      // The form holds the element's validity: it is the invalid control the browser reports.
      expect(
        await page.evaluate(() => {
          const form = document.querySelector('form')!;
          return [...form.elements].filter((e) => e.matches(':invalid')).map((e) => e.localName);
        }),
      ).toEqual(['institution-picker', 'select']);
      await viewShot(page, b.name, 'picker-required');
      expect(await axe(page)).toEqual([]);
      expect(shop.posts.length).toBe(posted);

      // Choosing clears the message; Enter in the closed field then submits.
      await page.keyboard.type('gron');
      await expect.poll(() => firstMark(page)).toBe('Gron');
      expect(await errorShown(page)).toBe(DEFAULT_ERROR); // still said while nothing is chosen
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      expect(await errorShown(page)).toBe('');
      expect(await attr(page, INPUT, 'aria-invalid')).toBeNull();
      expect(await attr(page, INPUT, 'aria-describedby')).toBeNull();
      await submitted(page, page.keyboard.press('Enter'));
      expect(shop.posts.slice(posted)).toEqual([{ institution: RUG }]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('Enter picks from the open list without submitting, and submits the closed field like a text field', async () => {
    const { page, problems, close } = await openPage(browser);
    try {
      await page.goto(`${shop.origin}/`);
      await page.waitForSelector(INPUT);
      const posted = shop.posts.length;
      await tabTo(page, 'institution-picker >>> input#input');
      // Nothing chosen: Enter tries to submit, and the form says why it cannot.
      await page.keyboard.press('Enter');
      await expect.poll(() => errorShown(page)).toBe(DEFAULT_ERROR);
      expect(await focused(page)).toBe('institution-picker >>> input#input');
      await page.keyboard.type('gron');
      await expect.poll(() => firstMark(page)).toBe('Gron');
      // Open list, nothing highlighted: Enter neither submits nor closes the list.
      await page.keyboard.press('Enter');
      expect(await attr(page, INPUT, 'aria-expanded')).toBe('true');
      // Open list, an option highlighted: Enter picks it and does not submit.
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      expect(await attr(page, INPUT, 'aria-expanded')).toBe('false');
      expect(await page.$eval('select[name="institution"]', (s) => (s as HTMLSelectElement).value)).toBe(RUG);
      expect(await page.evaluate(() => location.pathname)).toBe('/');
      expect(shop.posts.length).toBe(posted);
      // Closed list: Enter submits the form through its submit button, as a native field does (the
      // submit event's submitter; kept in sessionStorage, which outlives the page it is sent from).
      await page.evaluate(() =>
        document.addEventListener('submit', (e) =>
          sessionStorage.setItem('submitter', (e as SubmitEvent).submitter?.textContent ?? 'none'),
        ),
      );
      await page.keyboard.press('Enter');
      await page.waitForSelector('#posted');
      expect(await page.evaluate(() => sessionStorage.getItem('submitter'))).toBe('Verify my student status');
      expect(shop.posts.slice(posted)).toEqual([{ institution: RUG }]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('Back after a validation (no-store: the page is loaded again) shows the last choice, and "Verify" works at once', async () => {
    const { page, problems, close } = await openPage(browser);
    try {
      await page.setViewport({ width: 800, height: 640 });
      await page.goto(`${shop.origin}/`);
      await page.waitForSelector(INPUT);
      await tabTo(page, 'institution-picker >>> input#input');
      // An institution the fallback <select> does not list: the browser alone could not restore it.
      await page.keyboard.type('bologna');
      await expect.poll(async () => (await options(page))[0]).toMatch(/^University of Bologna/);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      const chosen = await page.$eval('select[name="institution"]', (s) => (s as HTMLSelectElement).value);
      expect(chosen).toMatch(/^https:\/\//);
      expect(await page.$$eval('select[name="institution"] option', (o) => o.length)).toBe(4);
      await tabTo(page, 'button');
      await submitted(page, page.keyboard.press('Enter'));
      expect(shop.posts.at(-1)).toEqual({ institution: chosen });

      const loads = shop.pageLoads;
      await page.goBack();
      await page.waitForSelector(INPUT);
      // Loaded anew from the shop, not restored from the back/forward cache.
      expect(shop.pageLoads).toBe(loads + 1);
      expect(
        await page.evaluate(
          () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).type,
        ),
      ).toBe('back_forward');
      // Shown without focusing the field first.
      await expect
        .poll(() => page.$eval(INPUT, (i) => (i as HTMLInputElement).value))
        .toBe('University of Bologna');
      expect(await page.$eval('select[name="institution"]', (s) => (s as HTMLSelectElement).value)).toBe(
        chosen,
      );
      expect(await attr(page, INPUT, 'aria-expanded')).toBe('false');
      expect(await errorShown(page)).toBe('');
      await viewShot(page, b.name, 'picker-back');
      expect(await axe(page)).toEqual([]);

      // "Verify" at once, from the keyboard.
      await tabTo(page, 'button');
      await submitted(page, page.keyboard.press('Enter'));
      expect(shop.posts.at(-1)).toEqual({ institution: chosen });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('names each option with the country in words, in the page language (what a screen reader reads)', async () => {
    const { page, problems, close } = await openPage(browser);
    try {
      for (const [path, query, name] of [
        ['/', 'gron', 'University of Groningen, Netherlands'],
        ['/', 'jan@student.rug.nl', 'University of Groningen, signon.rug.nl, Netherlands'],
        ['/nl', 'gron', 'Rijksuniversiteit Groningen, Nederland'], // the Dutch name, from the feed
      ] as const) {
        await page.goto(`${shop.origin}${path}`);
        const input = (await page.waitForSelector(INPUT)) as ElementHandle<HTMLInputElement>;
        await input.focus();
        await page.keyboard.type(query);
        await expect
          .poll(() => options(page), { timeout: 5000 })
          .toContain(name.replace(', ', '').replace(', ', ' · '));
        // The browser's own accessible name (its accessibility tree, asked from inside the shadow root).
        const list = (await page.$('institution-picker >>> ul')) as ElementHandle<HTMLUListElement>;
        const option = await list.$(`aria/${name}[role="option"]`);
        expect(option, `${path} ${query}: an option named "${name}"`).not.toBeNull();
        expect(await option!.evaluate((o) => o.id)).toMatch(/^option-\d+$/);
        // No option shows or says a bare country code.
        const texts = await page.$$eval('institution-picker >>> li[role="option"]', (els) =>
          els.flatMap((e) => [e.textContent ?? '', e.getAttribute('aria-label') ?? '']),
        );
        for (const text of texts) expect(text).not.toMatch(/(^|[\s·,])[A-Z]{2}$/);
      }
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('on a phone screen, the open list ends on the screen and every option scrolls fully into view', async () => {
    const { page, problems, close } = await openPage(browser);
    try {
      await page.setViewport({
        width: 360,
        height: 640,
        deviceScaleFactor: 1,
        isMobile: true,
        hasTouch: true,
      });
      // 5 paragraphs: less room below the field than the list's usual height; 8: the field at the very
      // bottom of the screen.
      for (const intro of [5, 8]) {
        await page.goto(`${shop.origin}/?intro=${intro}`);
        await page.waitForSelector(INPUT);
        await tabTo(page, 'institution-picker >>> input#input');
        await page.keyboard.type('univ');
        await expect.poll(() => firstMark(page)).toBe('Univ');
        const count = (await options(page)).length;
        expect(count).toBe(8);
        const geometry = () =>
          page.evaluate(() => {
            const list = document.querySelector('institution-picker')!.shadowRoot!.querySelector('ul')!;
            const active = list.querySelector('[aria-selected="true"]');
            return {
              view: window.visualViewport!.height,
              list: list.getBoundingClientRect().toJSON() as DOMRect,
              inner: { top: list.getBoundingClientRect().top + list.clientTop, height: list.clientHeight },
              active: active ? (active.getBoundingClientRect().toJSON() as DOMRect) : undefined,
            };
          });
        const open = await geometry();
        expect(open.list.top).toBeGreaterThanOrEqual(0);
        expect(open.list.bottom).toBeLessThanOrEqual(open.view + 0.5);
        expect(open.list.height).toBeGreaterThanOrEqual(140); // a few options at least
        for (let i = 0; i < count; i++) {
          await page.keyboard.press('ArrowDown');
          const g = await geometry();
          expect(g.active, `option ${i}`).toBeDefined();
          expect(g.active!.top).toBeGreaterThanOrEqual(g.inner.top - 0.5);
          expect(g.active!.bottom).toBeLessThanOrEqual(g.inner.top + g.inner.height + 0.5);
          expect(g.active!.bottom).toBeLessThanOrEqual(g.view + 0.5);
        }
        await viewShot(page, b.name, `picker-phone-intro-${intro}`);
      }
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('follows its form: a reset clears the field and its message, a disabled fieldset disables it', async () => {
    const { page, problems, close } = await openPage(browser);
    try {
      await page.goto(`${shop.origin}/`);
      await page.waitForSelector(INPUT);
      await tabTo(page, 'institution-picker >>> input#input');
      await page.keyboard.press('Enter');
      await expect.poll(() => errorShown(page)).toBe(DEFAULT_ERROR);
      await page.keyboard.type('gron');
      await expect.poll(() => firstMark(page)).toBe('Gron');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      expect(await page.$eval('select[name="institution"]', (s) => (s as HTMLSelectElement).value)).toBe(RUG);
      await page.$eval('form', (f) => (f as HTMLFormElement).reset());
      await expect.poll(() => page.$eval(INPUT, (i) => (i as HTMLInputElement).value)).toBe('');
      expect(await page.$eval('select[name="institution"]', (s) => (s as HTMLSelectElement).value)).toBe('');
      expect(await errorShown(page)).toBe('');
      expect(await attr(page, INPUT, 'aria-invalid')).toBeNull();
      // Back would not bring the reset choice again.
      expect(await page.evaluate(() => JSON.stringify(history.state))).not.toContain(RUG);

      await page.$eval('form', (f) => {
        const fieldset = document.createElement('fieldset');
        fieldset.disabled = true;
        fieldset.append(...f.childNodes);
        f.append(fieldset);
      });
      await expect.poll(() => page.$eval(INPUT, (i) => (i as HTMLInputElement).disabled)).toBe(true);
      await page.$eval('fieldset', (f) => {
        (f as HTMLFieldSetElement).disabled = false;
      });
      await expect.poll(() => page.$eval(INPUT, (i) => (i as HTMLInputElement).disabled)).toBe(false);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('works without JavaScript: the plain <select> is the field, checked and posted by the browser', async () => {
    // Chromium turns scripts off per page; Firefox over WebDriver BiDi only through its preference.
    const noScript =
      b.name === 'chromium'
        ? browser
        : await puppeteer.launch({
            browser: 'firefox',
            executablePath: b.executablePath,
            headless: true,
            extraPrefsFirefox: { 'javascript.enabled': false },
            protocolTimeout: 60_000,
          });
    const { page, problems, close } = await openPage(noScript);
    try {
      if (b.name === 'chromium') await page.setJavaScriptEnabled(false);
      await page.goto(`${shop.origin}/`);
      expect(await page.$eval('institution-picker', (p) => p.shadowRoot)).toBeNull();
      const posted = shop.posts.length;
      const selectFocused = () =>
        page.$eval('select[name="institution"]', (s) => document.activeElement === s);
      await page.keyboard.press('Tab');
      expect(await selectFocused()).toBe(true);
      // Nothing chosen: the browser's own validation keeps the form and focuses the <select>.
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await expect.poll(selectFocused).toBe(true);
      expect(shop.posts.length).toBe(posted);
      // Chosen with the keyboard, posted.
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Tab');
      // No script runs here (no picker, no history.replaceState): the navigation is the POST's.
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      expect(shop.posts.slice(posted)).toEqual([{ institution: RUG }]);
      expect(problems).toEqual([]);
    } finally {
      await close();
      if (noScript !== browser) await noScript.close();
    }
  }, 60_000);
});
