/**
 * The demo: a local test provider and a shop on 127.0.0.1, and a scripted shopper who goes through
 * a complete validation the way a browser does — once with the code flow, once with the `id_token`
 * flow through the fragment relay. Every HTTP step is printed with secrets redacted.
 */
import { randomBytes } from 'node:crypto';
import { AffiliationError } from '../core/errors.js';
import { Browser, type BrowserPage, type BrowserStep, isRelayPage } from '../testing/browser.js';
import { stripTags } from '../testing/html-form.js';
import { DEFAULT_TEST_INSTITUTIONS } from '../testing/options.js';
import { TestProvider } from '../testing/provider.js';
import type { RunningShop, StartShop } from './demo-shop.js';

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** Starts the shop (the Express example for `npm run demo`, the built-in shop for the CLI). */
  startShop: StartShop;
  /** How the shop is called in the printout. */
  shopName: string;
  /** Where the narration goes, line by line. */
  write: (line: string) => void;
}

/** One validated flow, as the shop showed it. */
export interface DemoResult {
  flow: 'code' | 'id_token';
  affiliation: string;
  institution: string;
  transactionId: string;
  validUntil: string;
}

/** Raised when a flow does not end on the shop's result page. */
export class DemoError extends AffiliationError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: 'demo_failed', cause: options.cause });
  }
}

function text(html: string, id: string): string | undefined {
  const m = new RegExp(`<dd id="${id}">([^<]*)</dd>`).exec(html);
  return m?.[1] === undefined ? undefined : stripTags(m[1]);
}

function formatStep(step: BrowserStep): string {
  const arrow = step.location ? ` → ${step.location}` : '';
  // Browsers never send the fragment; say so where it would look as if they did.
  const note = step.url.includes('#') ? '  (the fragment stays in the browser)' : '';
  return `    ${step.method.padEnd(4)} ${step.url}  ${step.status}${arrow}${note}`;
}

/** Start the test provider and the shop on 127.0.0.1 and register the shop as a client. */
async function startServers(options: DemoOptions) {
  const institutions = DEFAULT_TEST_INSTITUTIONS.filter((i) => i.edugain !== false).map((i) => ({
    entityId: i.entityId,
    name: i.name,
  }));
  const clientId = 'demo-shop';
  // A fresh secret per run, known only to this process; it is never printed.
  const clientSecret = randomBytes(24).toString('base64url');
  const op = await TestProvider.start({ clients: [] });
  let shop: RunningShop;
  try {
    shop = await options.startShop({
      issuer: op.issuer,
      clientId,
      clientSecret,
      institutions,
      enableIdTokenFlow: true,
      log: () => {},
    });
  } catch (error) {
    await op.close();
    throw error;
  }
  op.registerClient({ clientId, clientSecret, redirectUris: [shop.redirectUri] });
  return {
    op,
    shop,
    institutions,
    close: async () => {
      await shop.close();
      await op.close();
    },
  };
}

/**
 * Run both flows and return what the shop validated. Throws {@link DemoError} when a flow does not
 * end with a validated affiliation. Starts and stops everything it uses.
 */
export async function runDemo(options: DemoOptions): Promise<DemoResult[]> {
  const { write } = options;
  write('affiliation-validation demo: a complete validation on 127.0.0.1 — no network, no credentials.');
  write('');
  const servers = await startServers(options);
  const { op, shop, institutions } = servers;
  try {
    write(`Test provider (the service, simulated): ${op.issuer}`);
    write(`Shop (${options.shopName}): ${shop.url}, callback ${shop.redirectUri}`);
    write('Registered the shop at the provider as client "demo-shop".');

    const [university, college] = institutions;
    write('');
    write('1. Code flow (recommended): the shopper picks the institution at the service.');
    const code = { flow: 'code', affiliation: 'student', chooseAtService: university!.entityId } as const;
    const results = [await walk(shop.url, code, write)];
    write('');
    write('2. id_token flow (scheduled for deprecation): the shop sends an institution hint,');
    write('   the answer comes back in the URL fragment and the relay page posts it to the shop.');
    const idToken = { flow: 'id_token', affiliation: 'student', hint: college!.entityId } as const;
    results.push(await walk(shop.url, idToken, write));
    write('');
    write(`Done: ${results.length} validations completed.`);
    return results;
  } finally {
    await servers.close();
  }
}

/**
 * `demo --serve`: keep the test provider and the shop running for a person's own browser, print the
 * shop's URL, and stop both when `stop` resolves (the CLI passes SIGINT/SIGTERM).
 */
export async function serveDemo(options: DemoOptions & { stop: Promise<unknown> }): Promise<void> {
  const { write } = options;
  const servers = await startServers(options);
  try {
    write('affiliation-validation demo --serve: a shop and the test provider on 127.0.0.1.');
    write(`Test provider (the service, simulated): ${servers.op.issuer}`);
    write(`Shop (${options.shopName}): ${servers.shop.url}/`);
    write('');
    write('Open the shop in your browser and validate with either flow; at the test provider any');
    write('username logs in. Press Ctrl-C to stop.');
    await options.stop;
    write('Stopping.');
  } finally {
    await servers.close();
  }
}

/** Resolves on the first SIGINT or SIGTERM (and stops listening for them). */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

interface WalkPlan {
  flow: 'code' | 'id_token';
  affiliation: string;
  /** The entityID the shopper picks on the service's selection page. */
  chooseAtService?: string;
  /** The entityID the shop sends as `aarc_idp_hint`. */
  hint?: string;
}

async function walk(shopUrl: string, plan: WalkPlan, write: (line: string) => void): Promise<DemoResult> {
  // A new browser per flow: its own cookies, like a fresh shopper.
  const browser = new Browser({ onStep: (step) => write(formatStep(step)) });
  const shopOrigin = new URL(shopUrl).origin;

  write('  The shopper opens the shop.');
  let page: BrowserPage = await browser.open(`${shopUrl}/`);
  const start = page.forms[0];
  if (!start) throw new DemoError('the shop page has no form');
  write(
    `  The shopper asks for a ${plan.affiliation} validation${plan.hint ? ' and picks the institution in the shop' : ''}.`,
  );
  page = await browser.submit(start, {
    affiliation: plan.affiliation,
    institution: plan.hint ?? '',
    flow: plan.flow,
  });

  page = await walkToOrigin(browser, page, shopOrigin, {
    ...(plan.chooseAtService ? { choose: plan.chooseAtService } : {}),
    onPage: ({ kind, heading }) =>
      write(
        kind === 'relay'
          ? '  The shop serves the relay page; the browser does its job: it posts the fragment as a form.'
          : `  At the service: "${heading}" — the shopper submits the form.`,
      ),
  });

  const affiliation = text(page.body, 'affiliation');
  if (page.status !== 200 || !affiliation) {
    throw new DemoError(`the ${plan.flow} flow ended on "${pageHeading(page.body)}" (HTTP ${page.status})`);
  }
  const result: DemoResult = {
    flow: plan.flow,
    affiliation,
    institution: text(page.body, 'institution') ?? '',
    transactionId: text(page.body, 'transaction') ?? '',
    validUntil: text(page.body, 'expires') ?? '',
  };
  write(`  ✓ Validated by the shop: affiliation ${result.affiliation}`);
  write(`      institution  ${result.institution}`);
  write(`      transaction  ${result.transactionId}`);
  write(`      valid until  ${result.validUntil}`);
  return result;
}

/** Options of {@link walkToOrigin}. */
export interface WalkOptions {
  /** A value to pick in any `<select>` that offers it (e.g. the institution on a selection page). */
  choose?: string;
  /** Called before each form is submitted (with the page's `<h1>`) and before the relay runs. */
  onPage?: (event: { kind: 'form' | 'relay'; heading: string; page: BrowserPage }) => void;
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
 * page where the walk could not go on (an error page, a page with no or several forms, ten pages walked).
 */
export async function walkToOrigin(
  browser: Browser,
  start: BrowserPage,
  origin: string,
  options: WalkOptions = {},
): Promise<BrowserPage> {
  const home = new URL(origin).origin;
  let page = start;
  for (let i = 0; i < 10; i++) {
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
