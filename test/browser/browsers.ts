/**
 * Real browsers for tests: Debian's Chromium and Firefox ESR, driven by puppeteer-core (CDP for
 * Chromium, WebDriver BiDi for Firefox). No browser is downloaded: the executables come from the
 * system (`apt-get install chromium firefox-esr`, done by .ci/run), or from AV_CHROMIUM / AV_FIREFOX.
 *
 * Nothing here bypasses CSP or rewrites headers: pages run exactly as a shopper's browser runs them.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import puppeteer, { type Browser, type ConsoleMessage, type Page } from 'puppeteer-core';

export type BrowserName = 'chromium' | 'firefox';

export interface BrowserUnderTest {
  name: BrowserName;
  executablePath: string;
}

const CANDIDATES: Record<BrowserName, string[]> = {
  chromium: [process.env.AV_CHROMIUM ?? '', '/usr/bin/chromium', '/usr/bin/chromium-browser'],
  firefox: [process.env.AV_FIREFOX ?? '', '/usr/bin/firefox-esr', '/usr/bin/firefox'],
};

function find(name: BrowserName): string | undefined {
  return CANDIDATES[name].find((p) => p !== '' && existsSync(p));
}

/**
 * The browsers to test with. Both are required under CI (a missing one fails the run instead of
 * quietly testing less); locally, a missing one fails too, with a message saying how to install it.
 */
export function browsersUnderTest(): BrowserUnderTest[] {
  return (['chromium', 'firefox'] as const).map((name) => {
    const executablePath = find(name);
    if (executablePath === undefined) {
      throw new Error(
        `${name} is not installed: run \`apt-get install chromium firefox-esr\` (or set AV_${name === 'chromium' ? 'CHROMIUM' : 'FIREFOX'} to its executable)`,
      );
    }
    return { name, executablePath };
  });
}

/**
 * Start a browser; `lang` (`de`, `fr-FR`): the language a shopper set in it, for the pages
 * (`Accept-Language`) and for scripts (`navigator.languages`).
 */
export async function launch(b: BrowserUnderTest, options: { lang?: string } = {}): Promise<Browser> {
  const { lang } = options;
  const languages = lang === undefined ? [] : [`--lang=${lang}`, `--accept-lang=${lang}`];
  return puppeteer.launch({
    browser: b.name === 'chromium' ? 'chrome' : 'firefox',
    executablePath: b.executablePath,
    headless: true,
    // Chromium's sandbox needs user namespaces, which a root CI container does not give it.
    args: b.name === 'chromium' ? ['--no-sandbox', '--disable-dev-shm-usage', ...languages] : [],
    ...(b.name === 'firefox' && lang !== undefined
      ? { extraPrefsFirefox: { 'intl.accept_languages': lang } }
      : {}),
    // A fresh profile each launch: no cookies or storage carried between tests.
    protocolTimeout: 60_000,
  });
}

/**
 * How each browser reports a request the page itself cancelled (an aborted `fetch`, a navigation
 * away): Chromium's net error ERR_ABORTED, Firefox's NS_BINDING_ABORTED. Anything else failed.
 */
const CANCELLED = /^(?:net::ERR_ABORTED|NS_BINDING_ABORTED)$/;

/**
 * A page in a new incognito-like context, with everything the page logs to its console and every
 * failed request collected, so a test can assert that a flow ran without console errors. A request
 * the page cancelled is no failure: it goes to `cancelled`.
 */
export async function openPage(
  browser: Browser,
): Promise<{ page: Page; problems: string[]; cancelled: string[]; close(): Promise<void> }> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const problems: string[] = [];
  const cancelled: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'error' || m.type() === 'warn') problems.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${String(e)}`));
  page.on('requestfailed', (r) => {
    const why = r.failure()?.errorText ?? '';
    (CANCELLED.test(why) ? cancelled : problems).push(`requestfailed: ${r.url()} ${why}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`http ${r.status()}: ${r.url()}`);
  });
  return { page, problems, cancelled, close: () => context.close() };
}

/** Where screenshots go: .tmp/screenshots/<browser>/<name>.png (ignored by git). */
export async function screenshot(page: Page, b: BrowserName, name: string): Promise<string> {
  const dir = resolve('.tmp/screenshots', b);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.png`);
  await page.screenshot({ path: file as `${string}.png`, fullPage: true });
  return file;
}

/** The Cookie header the browser would send to `url` (what the shop receives). */
export async function cookieHeaderFor(page: Page, url: string): Promise<string> {
  const cookies = await page.browserContext().cookies();
  const target = new URL(url);
  return cookies
    .filter((c) => c.domain.replace(/^\./, '') === target.hostname && target.pathname.startsWith(c.path))
    .map((c) => `${c.name}=${c.value}`)
    .join('; ');
}
