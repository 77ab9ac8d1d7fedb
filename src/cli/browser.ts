/**
 * The CLI demo's shopper: walks a scripted {@link Browser} through the provider's pages and back to
 * the shop.
 */
import { type Browser, type BrowserPage, isRelayPage } from '../testing/browser.js';
import { stripTags } from '../testing/html-form.js';

/** Options of {@link walkToOrigin}. */
export interface WalkOptions {
  /** A value to pick in any `<select>` that offers it (e.g. the institution on a selection page). */
  choose?: string;
  /** Called before each form is submitted (with the page's `<h1>`) and before the relay runs. */
  onPage?: (event: { kind: 'form' | 'relay'; heading: string; page: BrowserPage }) => void;
  /** Most pages walked. Default 10. */
  maxPages?: number;
}

/** The text of a page's first `<h1>`. */
export function pageHeading(html: string): string {
  const m = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html);
  return stripTags(m?.[1] ?? '');
}

/**
 * Act as the shopper until the browser is back on `origin`: submit each page's only form with its
 * preselected answers (choosing `choose` where offered), and run the relay page when the answer
 * comes back in the fragment. Returns the first page on `origin` that is not a relay page, or the
 * page where the walk could not go on (an error page, a page with no or several forms).
 */
export async function walkToOrigin(
  browser: Browser,
  start: BrowserPage,
  origin: string,
  options: WalkOptions = {},
): Promise<BrowserPage> {
  const home = new URL(origin).origin;
  let page = start;
  for (let i = 0; i < (options.maxPages ?? 10); i++) {
    const here = new URL(page.url);
    if (here.origin === home && here.hash.length > 1 && isRelayPage(page)) {
      options.onPage?.({ kind: 'relay', heading: pageHeading(page.body), page });
      page = await browser.relay(page);
      continue;
    }
    const form = page.forms[0];
    if (here.origin === home || page.status !== 200 || page.forms.length !== 1 || !form) return page;
    const choices: Record<string, string> = {};
    for (const field of form.fields) {
      if (
        field.type === 'select' &&
        options.choose !== undefined &&
        field.options?.includes(options.choose)
      ) {
        choices[field.name] = options.choose;
      }
    }
    options.onPage?.({ kind: 'form', heading: pageHeading(page.body), page });
    page = await browser.submit(form, choices);
  }
  return page;
}
