/**
 * The demo's built-in shop: the smallest correct relying party on plain `node:http`, for the
 * `affiliation-validation demo` command (the installed package has no Express). `npm run demo`
 * uses the Express example instead; both serve the same pages.
 */
import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../core/html.js';
import { AFFILIATIONS } from '../core/scope-values.js';
import { AffiliationClient } from '../rp/client.js';
import { StartRequestError } from '../rp/start.js';
import { CookieTransactionStore } from '../rp/transactions/index.js';
import type { AffiliationResult } from '../rp/types.js';
import { closeServer, listen } from '../testing/server.js';

/** What the demo needs from a shop: start it on 127.0.0.1, learn its URLs, stop it. */
export interface DemoShopOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  institutions: { entityId: string; name: string }[];
  /** Must offer the id_token flow too. */
  enableIdTokenFlow: true;
  log?: (message: string) => void;
}

/** A running shop. */
export interface RunningShop {
  url: string;
  redirectUri: string;
  close(): Promise<void>;
}

/**
 * Start a shop: listen first on 127.0.0.1 port 0, then discover the provider with the redirect
 * URI on that port. The caller registers the redirect URI with the provider before any request.
 */
export type StartShop = (options: DemoShopOptions) => Promise<RunningShop>;

function page(title: string, content: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.5rem 0}</style></head>\n<body><h1>${escapeHtml(title)}</h1>\n${content}\n</body></html>\n`;
}

const CSP =
  "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";

function html(status: number, body: string): Response {
  return new Response(body, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'content-security-policy': CSP,
    },
  });
}

/** The built-in node:http shop: the SDK's start and callback handlers on the test provider's server. */
export const startBuiltInShop: StartShop = async (options) => {
  const server = await listen('127.0.0.1', 0);
  const url = server.origin;
  const redirectUri = `${url}/callback`;
  const close = () => closeServer(server.server);
  const transactions = new CookieTransactionStore({ secret: randomBytes(32), secure: false });
  const common = {
    issuer: options.issuer,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    redirectUri,
    transactions,
    hints: { has: (id: string) => options.institutions.some((i) => i.entityId === id) },
  };
  let codeClient: AffiliationClient;
  let idTokenClient: AffiliationClient;
  try {
    codeClient = await AffiliationClient.discover(common);
    idTokenClient = await AffiliationClient.discover({ ...common, responseType: 'id_token' });
  } catch (error) {
    await close();
    throw error;
  }
  const log = options.log ?? (() => {});
  const start = codeClient.startHandler({
    flows: { code: codeClient, id_token: idTokenClient },
    onError: (error) => {
      log(`validation not started: ${error.code}`);
      const status = error instanceof StartRequestError ? error.status : 400;
      const title = status === 405 || status === 403 ? 'Not possible' : 'Validation not started';
      const response = html(status, page(title, `<p>${escapeHtml(error.userMessage)}</p>`));
      if (status === 405) response.headers.set('allow', 'POST');
      return response;
    },
  });
  // Either client validates either kind of callback: the transaction records its response type.
  const callback = codeClient.callbackHandler({
    onSuccess: (result) => html(200, resultPage(result, options.institutions)),
    onError: (error) => {
      log(`validation failed: ${error.code}`);
      return html(
        error.name === 'TransportError' ? 502 : 400,
        page(
          'Validation not completed',
          `<p>${escapeHtml(error.userMessage)}</p><p><small>Reference: ${escapeHtml(error.code)}</small></p>`,
        ),
      );
    },
  });
  const picker = options.institutions
    .map((i) => `<option value="${escapeHtml(i.entityId)}">${escapeHtml(i.name)}</option>`)
    .join('');
  const home = page(
    'Student discount',
    `<form method="post" action="/start">
<label>I am a <select name="affiliation">${AFFILIATIONS.map((a) => `<option>${escapeHtml(a)}</option>`).join('')}</select></label>
<label>My institution <select name="institution"><option value="">Choose at the service</option>${picker}</select></label>
<label>Flow <select name="flow"><option value="code">code</option><option value="id_token">id_token</option></select></label>
<button type="submit">Validate my affiliation</button>
</form>`,
  );

  server.handler = async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/' && request.method === 'GET') return html(200, home);
    // The SDK's start route: only a same-origin form POST starts a validation (docs/security.md,
    // section 3.2); the form's fields are checked; 303 with the transaction cookie.
    if (pathname === '/start') return start(request);
    // The relay page for a GET without parameters; the transaction's cookie cleared on every answer.
    if (pathname === '/callback' && (request.method === 'GET' || request.method === 'POST')) {
      return callback(request);
    }
    return html(404, page('Not found', '<p>No such page.</p>'));
  };
  return { url, redirectUri, close };
};

/** The result without tokens or raw claims. */
export function resultPage(
  result: AffiliationResult,
  institutions: { entityId: string; name: string }[],
): string {
  const institution = result.institution
    ? (institutions.find((i) => i.entityId === result.institution?.entityId)?.name ??
      result.institution.entityId)
    : 'chosen at the service (no hint sent, none asserted)';
  return page(
    'Affiliation validated',
    `<dl>
<dt>Affiliation</dt><dd id="affiliation">${escapeHtml(result.affiliation)}</dd>
<dt>Institution</dt><dd id="institution">${escapeHtml(institution)}</dd>
<dt>Transaction</dt><dd id="transaction">${escapeHtml(result.transactionId)}</dd>
<dt>Valid until</dt><dd id="expires">${escapeHtml(result.expiresAt.toISOString())}</dd>
</dl>
<p><a href="/">Start again</a></p>`,
  );
}
