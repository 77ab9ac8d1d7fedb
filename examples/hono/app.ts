/**
 * Hono example: Web `Request` → `Response` all the way. The callback route is one line: the
 * SDK's `callbackHandler` serves the fragment relay page, validates GET and relay POST callbacks,
 * clears the transaction cookie, and calls `onSuccess` / `onError`.
 *
 * In your application import from 'affiliation-validation' instead of '../../src/index.js'.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import {
  type Affiliation,
  AffiliationClient,
  AffiliationError,
  type AffiliationResult,
  CookieTransactionStore,
} from '../../src/index.js';

/** Configuration of the example shop. */
export interface ExampleConfig {
  /** The service's issuer, `{base_url}`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The callback URL registered with the service. */
  redirectUri: string;
  /** Seals the transaction cookies (≥ 32 bytes, shared by all instances). Default: random per process. */
  cookieSecret?: string;
  /** Institutions offered in the picker. In production, use a `HintFeed` refreshed nightly. */
  institutions?: { entityId: string; name: string }[];
  /** Also offer the `id_token` flow (scheduled for deprecation by the service). Default `false`. */
  enableIdTokenFlow?: boolean;
  /** Where the shop logs failed validations (error codes only). Default `console.warn`. */
  log?: (message: string) => void;
  /** Fetch used to reach the service (tests). Default: the global fetch. */
  fetch?: typeof fetch;
}

const AFFILIATIONS: Affiliation[] = ['student', 'faculty+staff', 'employee', 'member'];

function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body><h1>${escapeHtml(title)}</h1>
${content}
</body></html>
`;
}

/** Build the Hono app; serve it with `app.fetch` on any runtime. */
export async function createApp(config: ExampleConfig): Promise<Hono> {
  const redirect = new URL(config.redirectUri);
  const log = config.log ?? ((message: string) => console.warn(message));
  const institutions = config.institutions ?? [];
  const transactions = new CookieTransactionStore({
    secret: config.cookieSecret ?? randomBytes(32).toString('base64url'),
    secure: redirect.protocol === 'https:',
  });
  const common = {
    issuer: config.issuer,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    redirectUri: config.redirectUri,
    transactions,
    ...(institutions.length
      ? { hints: { has: (id: string) => institutions.some((i) => i.entityId === id) } }
      : {}),
    ...(config.fetch ? { fetch: config.fetch } : {}),
  };
  const codeClient = await AffiliationClient.discover(common);
  const idTokenClient = config.enableIdTokenFlow
    ? await AffiliationClient.discover({ ...common, responseType: 'id_token' })
    : undefined;
  const issuerOrigin = new URL(codeClient.metadata.authorization_endpoint).origin;

  const html = (body: string, status = 200): Response =>
    new Response(body, {
      status,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': `default-src 'none'; form-action 'self' ${issuerOrigin}; frame-ancestors 'none'; base-uri 'none'`,
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
      },
    });

  const app = new Hono();

  app.get('/', () => {
    const options = AFFILIATIONS.map(
      (a) => `<option value="${escapeHtml(a)}">${escapeHtml(a)}</option>`,
    ).join('');
    const picker = institutions
      .map((i) => `<option value="${escapeHtml(i.entityId)}">${escapeHtml(i.name)}</option>`)
      .join('');
    const flows = idTokenClient
      ? `<label>Flow <select name="flow"><option value="code">code (recommended)</option><option value="id_token">id_token (deprecated)</option></select></label>`
      : '';
    return html(
      page(
        'Student discount',
        `<form method="get" action="/start">
<label>I am a <select name="affiliation">${options}</select></label>
<label>My institution <select name="institution"><option value="">Choose at the service</option>${picker}</select></label>
${flows}
<button type="submit">Validate my affiliation</button>
</form>`,
      ),
    );
  });

  const errorPage = (error: AffiliationError): Response => {
    log(`affiliation validation failed: ${error.name} ${error.code}`);
    return html(
      page(
        'Validation not completed',
        `<p>${escapeHtml(error.userMessage)}</p><p><small>Reference: ${escapeHtml(error.code)}</small></p><p><a href="/">Try again</a></p>`,
      ),
      error.name === 'TransportError' ? 502 : 400,
    );
  };

  app.get('/start', async (c) => {
    const affiliation = c.req.query('affiliation') ?? 'student';
    const institution = c.req.query('institution') ?? '';
    if (!AFFILIATIONS.includes(affiliation as Affiliation)) {
      return html(page('Not possible', '<p>Please choose one of the offered affiliations.</p>'), 400);
    }
    const client = c.req.query('flow') === 'id_token' && idTokenClient ? idTokenClient : codeClient;
    try {
      const { url, setCookie } = await client.createAuthorizationRequest({
        affiliation: affiliation as Affiliation,
        ...(institution ? { idpHint: institution } : {}),
      });
      const headers = new Headers({
        location: url,
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      });
      if (setCookie) headers.append('set-cookie', setCookie);
      return new Response(null, { status: 303, headers });
    } catch (error) {
      if (error instanceof AffiliationError) return errorPage(error);
      throw error;
    }
  });

  // Either client validates either kind of callback: the transaction records its response type.
  const callback = codeClient.callbackHandler({
    onSuccess: (result) => html(resultPage(result, institutions)),
    onError: errorPage,
  });
  app.on(['GET', 'POST'], redirect.pathname, (c) => callback(c.req.raw));

  app.onError((error) => {
    log(`unexpected error: ${error.name}`);
    return html(page('Something went wrong', '<p>Please try again later.</p>'), 500);
  });
  return app;
}

/** The result without tokens or raw claims. */
function resultPage(result: AffiliationResult, institutions: { entityId: string; name: string }[]): string {
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

/** Options of {@link startServer}. */
export type StartOptions = Omit<ExampleConfig, 'redirectUri'> & {
  /** Default `http://<host>:<port><callbackPath>` once the port is known. */
  redirectUri?: string;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default `0` (a free port). */
  port?: number;
  /** Default `/callback`. */
  callbackPath?: string;
};

/** A running example shop. */
export interface RunningExample {
  url: string;
  redirectUri: string;
  close(): Promise<void>;
}

/** Listen first (so port 0 can be used), then build the app with the redirect URI on that port. */
export async function startServer(options: StartOptions): Promise<RunningExample> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const redirectUri = options.redirectUri ?? `${url}${options.callbackPath ?? '/callback'}`;
  try {
    const app = await createApp({ ...options, redirectUri });
    server.on('request', getRequestListener(app.fetch));
  } catch (error) {
    server.close();
    throw error;
  }
  return {
    url,
    redirectUri,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
