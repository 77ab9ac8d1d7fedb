/**
 * Express example: a shop page that asks the affiliation-validation service whether the shopper is
 * a student (or staff, employee, member), with the code flow (recommended), the deprecated
 * `id_token` flow through the fragment relay, and an institution picker (`aarc_idp_hint`).
 *
 * In your application import from 'affiliation-validation' instead of '../../src/index.js'.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { HintFeed } from '../../src/hints.js';
import {
  type Affiliation,
  AffiliationClient,
  AffiliationError,
  type AffiliationResult,
  CookieTransactionStore,
  fragmentRelayHtml,
  StartRequestError,
} from '../../src/index.js';
import { pickerModuleHandler } from '../../src/picker.js';

/** Configuration of the example shop. */
export interface ExampleConfig {
  /** The service's issuer, `{base_url}`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The callback URL registered with the service, e.g. `https://shop.example/callback`. */
  redirectUri: string;
  /**
   * Seals the transaction cookies (at least 32 bytes, the same for every instance of the shop).
   * Default: a random secret per process, which is fine for a single instance.
   */
  cookieSecret?: string;
  /** Institutions offered in the picker. In production, use a `HintFeed` refreshed nightly. */
  institutions?: { entityId: string; name: string }[];
  /**
   * A refreshed `HintFeed`: the page then offers the type-ahead `<institution-picker>` (its module and
   * its search endpoint are served by the shop: `/assets/institution-picker.js`, `/institutions`), with
   * `institutions` as the no-JavaScript fallback, and only the feed's institutions may be sent as hints.
   */
  hints?: HintFeed;
  /** Also offer the `id_token` flow (scheduled for deprecation by the service). Default `false`. */
  enableIdTokenFlow?: boolean;
  /** Where the shop logs failed validations (error codes only, never tokens). Default `console`. */
  log?: (message: string) => void;
  /** Fetch used to reach the service (tests). Default: the global fetch. */
  fetch?: typeof fetch;
}

const AFFILIATIONS: Affiliation[] = ['student', 'faculty+staff', 'employee', 'member'];
/** How long a validated affiliation stays in the shopper's session. */
const SESSION_TTL_MS = 30 * 60 * 1000;
/** The provider's error codes the shop shows as a reference; anything else is attacker-chosen text. */
const KNOWN_CODES =
  /^(access_denied|invalid_scope|invalid_request|unauthori[sz]ed_client|invalid_client|invalid_grant|invalid_token|server_error|temporarily_unavailable)$/;

/** What the shop keeps after a validation: the facts it needs, never tokens or raw claims. */
interface ValidatedSession {
  affiliation: Affiliation;
  institution?: string;
  transactionId: string;
  /** ms since the epoch; the session is forgotten afterwards. */
  until: number;
}

/** The code shown and logged for an error: the SDK's own codes, or a known provider code. */
function reference(error: AffiliationError): string {
  return error.name !== 'ProviderError' || KNOWN_CODES.test(error.code) ? error.code : 'provider_error';
}

/** The value of cookie `name` in a Cookie header. */
function readCookie(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The Web `Request` of an Express request, for the SDK's Web-standard handlers. The URL is built on
 * the shop's configured origin, never on the Host header; the body is streamed, unread.
 */
function webRequest(req: Request, origin: string): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, v);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new globalThis.Request(new URL(req.originalUrl, origin), {
    method: req.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
}

/** Send a Web `Response` through Express (one Set-Cookie header per cookie). */
async function sendWebResponse(res: Response, response: globalThis.Response): Promise<void> {
  res.status(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.set(name, value);
  });
  for (const cookie of response.headers.getSetCookie()) res.append('set-cookie', cookie);
  res.end(Buffer.from(await response.arrayBuffer()));
}

/** Runs a Web `Request → Response` handler of the SDK for an Express request. */
async function runWeb(
  handler: (request: globalThis.Request) => Promise<globalThis.Response>,
  req: Request,
  res: Response,
): Promise<void> {
  const response = await handler(webRequest(req, 'http://localhost'));
  return sendWebResponse(res, response);
}

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
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.5rem 0}</style>
</head><body><h1>${escapeHtml(title)}</h1>
${content}
</body></html>
`;
}

/**
 * Build the Express app. Discovers the service once (two clients when the `id_token` flow is on:
 * they share one transaction store, and either validates either kind of callback).
 */
export async function createApp(config: ExampleConfig): Promise<express.Express> {
  const redirect = new URL(config.redirectUri);
  const log = config.log ?? ((message: string) => console.warn(message));
  const institutions = config.institutions ?? [];
  // The type-ahead picker wraps the <select>: without JavaScript the <select> is the form field.
  const typeAhead = (select: string) =>
    config.hints
      ? `<script type="module" src="/assets/institution-picker.js"></script>
<institution-picker src="/institutions" label="My institution" placeholder="Name, abbreviation or e-mail address">${select}</institution-picker>`
      : select;
  const searchInstitutions = config.hints?.searchHandler();
  const pickerModule = pickerModuleHandler();
  // Transactions travel sealed in a cookie, so any instance of the shop can take the callback.
  const transactions = new CookieTransactionStore({
    secret: config.cookieSecret ?? randomBytes(32).toString('base64url'),
    // Secure cookies need https; plain http is only for a shop on 127.0.0.1 during development.
    secure: redirect.protocol === 'https:',
  });
  const common = {
    issuer: config.issuer,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    redirectUri: config.redirectUri,
    transactions,
    // Only institutions from the picker may be sent as aarc_idp_hint.
    ...(config.hints
      ? { hints: config.hints }
      : institutions.length
        ? { hints: { has: (id: string) => institutions.some((i) => i.entityId === id) } }
        : {}),
    ...(config.fetch ? { fetch: config.fetch } : {}),
  };
  const codeClient = await AffiliationClient.discover(common);
  const idTokenClient = config.enableIdTokenFlow
    ? await AffiliationClient.discover({ ...common, responseType: 'id_token' })
    : undefined;

  // The shopper's message, with one click to start again where that is the next step (the service did
  // not recognise the hinted institution: the restart form posts the same choices without it).
  const nextStep = (error: AffiliationError): string => {
    const { text, restart } = codeClient.shopperMessage(error, undefined, { startUrl: '/start' });
    return `<p>${escapeHtml(text)}</p>${restart?.html ?? ''}`;
  };
  const issuerOrigin = new URL(codeClient.metadata.authorization_endpoint).origin;
  // The shop's public origin, from configuration: behind a TLS-terminating proxy the request's own
  // protocol and Host are not to be trusted.
  const shopOrigin = redirect.origin;

  // The validated affiliation is bound to the browser that started the validation (the sealed
  // transaction cookie) and then to a NEW session (fresh id: no session fixation). This in-memory
  // map is for the example; in production use your session middleware with a shared store.
  const sessions = new Map<string, ValidatedSession>();
  const sessionCookie = redirect.protocol === 'https:' ? '__Host-shop_session' : 'shop_session';
  const sessionAttributes = `Path=/; HttpOnly; SameSite=Lax${redirect.protocol === 'https:' ? '; Secure' : ''}`;
  const openSession = (result: AffiliationResult): string => {
    const now = Date.now();
    for (const [id, s] of sessions) if (s.until <= now || sessions.size > 10_000) sessions.delete(id);
    const id = randomBytes(32).toString('base64url');
    sessions.set(id, {
      affiliation: result.affiliation,
      ...(result.institution ? { institution: result.institution.entityId } : {}),
      transactionId: result.transactionId,
      until: now + SESSION_TTL_MS,
    });
    return `${sessionCookie}=${id}; Max-Age=${SESSION_TTL_MS / 1000}; ${sessionAttributes}`;
  };
  const currentSession = (cookieHeader: string | undefined): ValidatedSession | undefined => {
    const id = readCookie(cookieHeader, sessionCookie);
    const session = id === undefined ? undefined : sessions.get(id);
    return session && session.until > Date.now() ? session : undefined;
  };

  const app = express();
  app.disable('x-powered-by');
  app.use((_req: Request, res: Response, next: NextFunction) => {
    res.set({
      'content-security-policy': `default-src 'none'; script-src 'self'; connect-src 'self'; img-src data:; style-src 'unsafe-inline'; form-action 'self' ${issuerOrigin}; frame-ancestors 'none'; base-uri 'none'`,
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    // Served over https (directly or through a TLS-terminating proxy): browsers must stay on https.
    if (redirect.protocol === 'https:') res.set('strict-transport-security', 'max-age=31536000');
    next();
  });

  // The picker's module and its search endpoint: the SDK's Web handlers, run for Express.
  app.get(
    '/assets/institution-picker.js',
    (req, res, next) => void runWeb(pickerModule, req, res).catch(next),
  );
  if (searchInstitutions) {
    app.get('/institutions', (req, res, next) => void runWeb(searchInstitutions, req, res).catch(next));
  }

  app.get('/', (_req, res) => {
    const options = AFFILIATIONS.map(
      (a) => `<option value="${escapeHtml(a)}">${escapeHtml(a)}</option>`,
    ).join('');
    const picker = institutions
      .map((i) => `<option value="${escapeHtml(i.entityId)}">${escapeHtml(i.name)}</option>`)
      .join('');
    const flows = idTokenClient
      ? `<label>Flow <select name="flow"><option value="code">code (recommended)</option><option value="id_token">id_token (deprecated)</option></select></label>`
      : '';
    res.type('html').send(
      page(
        'Student discount',
        `<form method="post" action="/start">
<label>I am a <select name="affiliation">${options}</select></label>
${typeAhead(`<label>My institution <select name="institution"><option value="">Choose at the service</option>${picker}</select></label>`)}
${flows}
<button type="submit">Validate my affiliation</button>
</form>`,
      ),
    );
  });

  // /start (form: affiliation, institution, flow): the SDK's start route, a Web `Request → Response`
  // handler. Only a POST from the shop's own page (Sec-Fetch-Site, else Origin) starts a validation,
  // so a cross-site page cannot start validations in the shopper's browser (login CSRF, cookie
  // flooding); the form's fields are checked; 303 with the transaction cookie. Refusals go to the
  // error handler below.
  const start = codeClient.startHandler({
    ...(idTokenClient ? { flows: { code: codeClient, id_token: idTokenClient } } : {}),
    onError: (error) => {
      throw error;
    },
  });
  app.all('/start', async (req, res, next) => {
    try {
      await sendWebResponse(res, await start(webRequest(req, shopOrigin)));
    } catch (error) {
      next(error);
    }
  });

  const callback = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    // A GET without parameters: the answer is in the fragment, which only the browser sees.
    if (req.method === 'GET' && Object.keys(req.query as object).length === 0) {
      const relay = fragmentRelayHtml();
      res.set(relay.headers).type('html').send(relay.html);
      return;
    }
    const params = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown> | undefined;
    const state = typeof params?.state === 'string' ? params.state : undefined;
    // The transaction cookie is single-use: drop it whatever the outcome.
    const cleared = state ? transactions.clearCookie(state, { cookie: req.headers.cookie }) : undefined;
    if (cleared) res.append('set-cookie', cleared);
    try {
      const result = await codeClient.validateCallback(req);
      // Post/Redirect/Get: the result goes into a fresh session, and the callback URL (code, state)
      // leaves the address bar, so reloading or sharing it shows nothing.
      res.append('set-cookie', openSession(result));
      res.redirect(303, '/discount');
    } catch (error) {
      next(error);
    }
  };
  app.get(redirect.pathname, callback);
  // The relay page posts the fragment's parameters as a form, like response_mode=form_post.
  app.post(redirect.pathname, express.urlencoded({ extended: false, limit: '16kb' }), callback);

  // The result page reads the session only: it shows nothing to another browser.
  app.get('/discount', (req, res) => {
    const session = currentSession(req.get('cookie'));
    if (!session) {
      res
        .status(403)
        .type('html')
        .send(
          page('No validated affiliation', '<p>Please <a href="/">validate your affiliation</a> first.</p>'),
        );
      return;
    }
    res.type('html').send(resultPage(session, institutions));
  });

  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (error instanceof AffiliationError) {
      log(`affiliation validation failed: ${error.name} ${reference(error)}`);
      if (error instanceof StartRequestError && error.status === 405) res.set('allow', 'POST');
      res
        .status(
          error instanceof StartRequestError ? error.status : error.name === 'TransportError' ? 502 : 400,
        )
        .type('html')
        .send(
          page(
            'Validation not completed',
            `${nextStep(error)}<p><small>Reference: ${escapeHtml(reference(error))}</small></p><p><a href="/">Try again</a></p>`,
          ),
        );
      return;
    }
    // Body-parser errors (too large, malformed) carry a 4xx status.
    const status = (error as { status?: unknown } | undefined)?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      res
        .status(status)
        .type('html')
        .send(page('Bad request', '<p>Please go back to the shop and try again.</p>'));
      return;
    }
    log(`unexpected error: ${error instanceof Error ? error.name : 'unknown'}`);
    res.status(500).type('html').send(page('Something went wrong', '<p>Please try again later.</p>'));
  });
  return app;
}

/** The session's facts, never tokens or raw claims: what the shop needs to grant the discount. */
function resultPage(session: ValidatedSession, institutions: { entityId: string; name: string }[]): string {
  const entityId = session.institution;
  const institution = entityId
    ? (institutions.find((i) => i.entityId === entityId)?.name ?? entityId)
    : 'chosen at the service (no hint sent, none asserted)';
  return page(
    'Affiliation validated',
    `<dl>
<dt>Affiliation</dt><dd id="affiliation">${escapeHtml(session.affiliation)}</dd>
<dt>Institution</dt><dd id="institution">${escapeHtml(institution)}</dd>
<dt>Transaction</dt><dd id="transaction">${escapeHtml(session.transactionId)}</dd>
<dt>Valid until</dt><dd id="expires">${escapeHtml(new Date(session.until).toISOString())}</dd>
</dl>
<p><a href="/">Start again</a></p>`,
  );
}

/** Options of {@link startServer}: the config, where to listen, and the callback path. */
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
  /** e.g. `http://127.0.0.1:54321` */
  url: string;
  redirectUri: string;
  close(): Promise<void>;
}

/** Listen first (so port 0 can be used), then build the app with the redirect URI on that port. */
export async function startServer(options: StartOptions): Promise<RunningExample> {
  const host = options.host ?? '127.0.0.1';
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const redirectUri = options.redirectUri ?? `${url}${options.callbackPath ?? '/callback'}`;
  try {
    const app = await createApp({ ...options, redirectUri });
    server.on('request', app);
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
