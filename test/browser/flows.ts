/**
 * Helpers for the real-browser tests: servers on 127.0.0.1 that stop by themselves, and the
 * shopper's clicks through the shop and the test provider's pages.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { Page } from 'puppeteer-core';
import { expect } from 'vitest';
import { DEFAULT_TEST_INSTITUTIONS } from '../../src/testing.js';
import { type BrowserName, screenshot } from './browsers.js';

/** The institutions the shops offer: every eduGAIN one of the test provider. */
export const INSTITUTIONS = DEFAULT_TEST_INSTITUTIONS.filter((i) => i.edugain !== false).map((i) => ({
  entityId: i.entityId,
  name: i.name,
}));
export const UNIVERSITY = INSTITUTIONS[0]!;
export const COLLEGE = INSTITUTIONS[1]!;

/** A node:http server on 127.0.0.1 and a free port. */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; url: string; port: number; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Click a submit button and wait until the browser has loaded the page the form led to. */
export async function submit(
  page: Page,
  selector = 'button[type=submit], button:not([type])',
): Promise<void> {
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click(selector)]);
}

export async function heading(page: Page): Promise<string> {
  return page.$eval('h1', (h) => h.textContent ?? '');
}

export interface ShopFlow {
  browser: BrowserName;
  /** Where to save screenshots, e.g. `express-code`; none when absent. */
  shots?: string;
  affiliation?: string;
  flow?: 'code' | 'id_token';
  /** entityID chosen in the shop's picker (sent as aarc_idp_hint); none: chosen at the service. */
  hint?: string;
  /** entityID chosen on the service's selection page. */
  chooseAtService?: string;
  /** Answer on the consent page. Default yes. */
  consent?: 'yes' | 'no';
}

async function shot(page: Page, plan: ShopFlow, name: string): Promise<void> {
  if (plan.shots) await screenshot(page, plan.browser, `${plan.shots}-${name}`);
}

/**
 * The shopper: open the shop, pick in its form, click, then go through the provider's pages by
 * clicking their buttons. Returns on the page the shop shows at the end.
 */
export async function shopperValidates(page: Page, shopUrl: string, plan: ShopFlow): Promise<void> {
  await page.goto(`${shopUrl}/`, { waitUntil: 'load' });
  await shot(page, plan, '1-shop');
  const form = 'form[action="/start"]';
  if (plan.affiliation) await page.select(`${form} select[name=affiliation]`, plan.affiliation);
  if (await page.$(`${form} select[name=institution]`)) {
    await page.select(`${form} select[name=institution]`, plan.hint ?? '');
  }
  if (plan.flow && (await page.$(`${form} select[name=flow]`))) {
    await page.select(`${form} select[name=flow]`, plan.flow);
  }
  await submit(page, `${form} button`);
  if (!plan.hint) {
    expect(await heading(page)).toBe('Select your institution');
    if (plan.chooseAtService) await page.select('select[name=entity_id]', plan.chooseAtService);
    await shot(page, plan, '2-select');
    await submit(page);
  }
  expect(await heading(page)).toMatch(/^Log in at /);
  await shot(page, plan, '3-login');
  await submit(page);
  expect(await heading(page)).toBe('Release your affiliation?');
  if (plan.consent === 'no') await page.click('input[name=consent][value=no]');
  await shot(page, plan, '4-consent');
  const origin = new URL(shopUrl).origin;
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('button[type=submit]')]);
  // The id_token flow: the relay page's script posts the fragment back; wait for the shop's answer.
  await page.waitForFunction(
    (o: string) =>
      location.origin === o &&
      (document.querySelector('#affiliation') !== null ||
        /Validation (failed|not completed)/.test(document.querySelector('h1')?.textContent ?? '')),
    { timeout: 15_000 },
    origin,
  );
  await page.waitForSelector('h1');
  await shot(page, plan, plan.consent === 'no' ? '5-error' : '5-result');
}

/** The text of `#id` on the page. */
export async function text(page: Page, id: string): Promise<string> {
  return page.$eval(`#${id}`, (e) => e.textContent ?? '');
}

/**
 * Answer a node:http request with one of the SDK's Web handlers (`Request → Response`): the body
 * streamed for a POST, one `Set-Cookie` header per cookie.
 */
export async function runWebHandler(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  handler: (request: Request) => Promise<Response>,
): Promise<void> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, v);
  }
  const response = await handler(
    new Request(url, {
      method: req.method ?? 'GET',
      headers,
      ...(req.method === 'POST'
        ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' }
        : {}),
    } as RequestInit),
  );
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  res.writeHead(response.status, out).end(Buffer.from(await response.arrayBuffer()));
}
