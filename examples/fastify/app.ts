/**
 * Fastify example: the same shop as the Express example, on Fastify. The callback hands Node's
 * `IncomingMessage` (`request.raw`) to `validateCallback`, with the relay's form body read as a
 * string by a small content-type parser (no extra plugin needed).
 *
 * In your application import from 'affiliation-validation' instead of '../../src/index.js'.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
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
  /** The callback URL registered with the service. */
  redirectUri: string;
  /** Seals the transaction cookies (≥ 32 bytes, shared by all instances). Default: random per process. */
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
  /** Where the shop logs failed validations (error codes only). Default `console.warn`. */
  log?: (message: string) => void;
  /** Fetch used to reach the service (tests). Default: the global fetch. */
  fetch?: typeof fetch;
  /** Fastify's server factory, to serve on an existing Node server (see {@link startServer}). */
  serverFactory?: (handler: (req: IncomingMessage, res: ServerResponse) => void) => Server;
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

/** Runs a Web `Request → Response` handler of the SDK for a Fastify request (GET, no body). */
async function runWeb(
  handler: (request: Request) => Promise<Response>,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === 'string') headers.set(name, value);
  const response = await handler(
    new Request(new URL(req.url, 'http://localhost'), { method: req.method, headers }),
  );
  return reply
    .code(response.status)
    .headers(Object.fromEntries(response.headers))
    .send(Buffer.from(await response.arrayBuffer()));
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
</head>
<body><h1>${escapeHtml(title)}</h1>
${content}
</body></html>
`;
}

/** Build the Fastify app (not listening). */
export async function createApp(config: ExampleConfig): Promise<FastifyInstance> {
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
  // The shop's public origin, from configuration (not from Host / X-Forwarded-* headers).
  const shopOrigin = redirect.origin;

  // The result is bound to the browser that started the validation (the sealed transaction
  // cookie), then kept in a NEW session (fresh id: no fixation). In production use
  // @fastify/session (or your own) with a shared store instead of this map.
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

  // Fastify's own logger is off: request logs would hold callback URLs (codes, states).
  const app = Fastify({
    logger: false,
    ...(config.serverFactory ? { serverFactory: config.serverFactory } : {}),
  });
  // The relay posts a small urlencoded form; keep it as a string and let the SDK parse it.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_req, body, done) => done(null, body),
  );
  app.addHook('onSend', async (_req, reply) => {
    if (!reply.hasHeader('content-security-policy')) {
      reply.header(
        'content-security-policy',
        `default-src 'none'; script-src 'self'; connect-src 'self'; img-src data:; style-src 'unsafe-inline'; form-action 'self' ${issuerOrigin}; frame-ancestors 'none'; base-uri 'none'`,
      );
    }
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-content-type-options', 'nosniff');
    // The picker's module and search answers carry their own (ETag-backed) cache headers.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    // Served over https (directly or through a TLS-terminating proxy): browsers must stay on https.
    if (redirect.protocol === 'https:') reply.header('strict-transport-security', 'max-age=31536000');
  });

  // The picker's module and its search endpoint: the SDK's Web handlers, run for Fastify.
  app.get('/assets/institution-picker.js', (req, reply) => runWeb(pickerModule, req, reply));
  if (searchInstitutions) app.get('/institutions', (req, reply) => runWeb(searchInstitutions, req, reply));

  app.get('/', async (_req, reply) => {
    const options = AFFILIATIONS.map(
      (a) => `<option value="${escapeHtml(a)}">${escapeHtml(a)}</option>`,
    ).join('');
    const picker = institutions
      .map((i) => `<option value="${escapeHtml(i.entityId)}">${escapeHtml(i.name)}</option>`)
      .join('');
    const flows = idTokenClient
      ? `<label>Flow <select name="flow"><option value="code">code (recommended)</option><option value="id_token">id_token (deprecated)</option></select></label>`
      : '';
    return reply.type('text/html; charset=utf-8').send(
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

  // /start: the SDK's start route, a Web `Request → Response` handler. Only a POST from the shop's
  // own page (Sec-Fetch-Site, else Origin) starts a validation, so a cross-site page cannot start
  // validations in the shopper's browser (login CSRF, cookie flooding); the form's fields are
  // checked; 303 with the transaction cookie. Refusals go to the error handler below.
  const start = codeClient.startHandler({
    ...(idTokenClient ? { flows: { code: codeClient, id_token: idTokenClient } } : {}),
    onError: (error) => {
      throw error;
    },
  });
  app.all('/start', async (req, reply) => {
    // The URL is built on the configured origin, never on the Host header. The form body is the
    // string the content-type parser above kept.
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
        headers.append(name, v);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const response = await start(
      new Request(new URL(req.url, shopOrigin), {
        method: req.method,
        headers,
        ...(hasBody ? { body: typeof req.body === 'string' ? req.body : '' } : {}),
      }),
    );
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') reply.header(name, value);
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    return reply.send(Buffer.from(await response.arrayBuffer()));
  });

  const callback = async (req: FastifyRequest, reply: FastifyReply) => {
    const query = req.query as Record<string, unknown>;
    if (req.method === 'GET' && Object.keys(query).length === 0) {
      const relay = fragmentRelayHtml();
      return reply.headers(relay.headers).type('text/html; charset=utf-8').send(relay.html);
    }
    const body = typeof req.body === 'string' ? req.body : undefined;
    const state = req.method === 'POST' ? new URLSearchParams(body ?? '').get('state') : query.state;
    const cleared =
      typeof state === 'string' && state
        ? transactions.clearCookie(state, { cookie: req.headers.cookie })
        : undefined;
    if (cleared) reply.header('set-cookie', cleared);
    const result = await codeClient.validateCallback(req.raw, body === undefined ? undefined : { body });
    // Post/Redirect/Get: the result goes into a fresh session; the callback URL leaves the address bar.
    reply.header('set-cookie', openSession(result));
    return reply.redirect('/discount', 303);
  };
  app.get(redirect.pathname, callback);
  app.post(redirect.pathname, callback);

  // The result page reads the session only: it shows nothing to another browser.
  app.get('/discount', async (req, reply) => {
    const session = currentSession(req.headers.cookie);
    if (!session) {
      return reply
        .code(403)
        .type('text/html; charset=utf-8')
        .send(
          page('No validated affiliation', '<p>Please <a href="/">validate your affiliation</a> first.</p>'),
        );
    }
    return reply.type('text/html; charset=utf-8').send(resultPage(session, institutions));
  });

  app.setErrorHandler(async (error: unknown, _req, reply) => {
    if (error instanceof AffiliationError) {
      log(`affiliation validation failed: ${error.name} ${reference(error)}`);
      if (error instanceof StartRequestError && error.status === 405) reply.header('allow', 'POST');
      return reply
        .code(error instanceof StartRequestError ? error.status : error.name === 'TransportError' ? 502 : 400)
        .type('text/html; charset=utf-8')
        .send(
          page(
            'Validation not completed',
            `${nextStep(error)}<p><small>Reference: ${escapeHtml(reference(error))}</small></p><p><a href="/">Try again</a></p>`,
          ),
        );
    }
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return reply
        .code(status)
        .type('text/html; charset=utf-8')
        .send(page('Bad request', '<p>Please try again.</p>'));
    }
    log(`unexpected error: ${error instanceof Error ? error.name : 'unknown'}`);
    return reply
      .code(500)
      .type('text/html; charset=utf-8')
      .send(page('Something went wrong', '<p>Please try again later.</p>'));
  });
  return app;
}

/** The session's facts, never tokens or raw claims. */
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

/** Options of {@link startServer}. */
export type StartOptions = Omit<ExampleConfig, 'redirectUri' | 'serverFactory'> & {
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
  let app: FastifyInstance;
  try {
    app = await createApp({
      ...options,
      redirectUri,
      serverFactory: (handler) => {
        server.on('request', handler);
        return server;
      },
    });
    await app.ready();
  } catch (error) {
    server.close();
    throw error;
  }
  return {
    url,
    redirectUri,
    close: async () => {
      server.closeAllConnections();
      await app.close();
    },
  };
}
