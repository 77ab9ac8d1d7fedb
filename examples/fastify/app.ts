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
import {
  type Affiliation,
  AffiliationClient,
  AffiliationError,
  type AffiliationResult,
  CookieTransactionStore,
  fragmentRelayHtml,
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
  /** Fastify's server factory, to serve on an existing Node server (see {@link startServer}). */
  serverFactory?: (handler: (req: IncomingMessage, res: ServerResponse) => void) => Server;
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

/** Build the Fastify app (not listening). */
export async function createApp(config: ExampleConfig): Promise<FastifyInstance> {
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
        `default-src 'none'; form-action 'self' ${issuerOrigin}; frame-ancestors 'none'; base-uri 'none'`,
      );
    }
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cache-control', 'no-store');
  });

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
        `<form method="get" action="/start">
<label>I am a <select name="affiliation">${options}</select></label>
<label>My institution <select name="institution"><option value="">Choose at the service</option>${picker}</select></label>
${flows}
<button type="submit">Validate my affiliation</button>
</form>`,
      ),
    );
  });

  app.get<{ Querystring: Record<string, string | string[] | undefined> }>('/start', async (req, reply) => {
    const affiliation = typeof req.query.affiliation === 'string' ? req.query.affiliation : 'student';
    const institution = typeof req.query.institution === 'string' ? req.query.institution : '';
    if (!AFFILIATIONS.includes(affiliation as Affiliation)) {
      return reply
        .code(400)
        .type('text/html; charset=utf-8')
        .send(page('Not possible', '<p>Please choose one of the offered affiliations.</p>'));
    }
    const client = req.query.flow === 'id_token' && idTokenClient ? idTokenClient : codeClient;
    const { url, setCookie } = await client.createAuthorizationRequest({
      affiliation: affiliation as Affiliation,
      ...(institution ? { idpHint: institution } : {}),
    });
    if (setCookie) reply.header('set-cookie', setCookie);
    return reply.redirect(url, 303);
  });

  const callback = async (req: FastifyRequest, reply: FastifyReply) => {
    const query = req.query as Record<string, unknown>;
    if (req.method === 'GET' && Object.keys(query).length === 0) {
      const relay = fragmentRelayHtml();
      return reply.headers(relay.headers).type('text/html; charset=utf-8').send(relay.html);
    }
    const body = typeof req.body === 'string' ? req.body : undefined;
    const state = req.method === 'POST' ? new URLSearchParams(body ?? '').get('state') : query.state;
    if (typeof state === 'string' && state) reply.header('set-cookie', transactions.clearCookie(state));
    const result = await codeClient.validateCallback(req.raw, body === undefined ? undefined : { body });
    return reply.type('text/html; charset=utf-8').send(resultPage(result, institutions));
  };
  app.get(redirect.pathname, callback);
  app.post(redirect.pathname, callback);

  app.setErrorHandler(async (error: unknown, _req, reply) => {
    if (error instanceof AffiliationError) {
      log(`affiliation validation failed: ${error.name} ${error.code}`);
      return reply
        .code(error.name === 'TransportError' ? 502 : 400)
        .type('text/html; charset=utf-8')
        .send(
          page(
            'Validation not completed',
            `<p>${escapeHtml(error.userMessage)}</p><p><small>Reference: ${escapeHtml(error.code)}</small></p><p><a href="/">Try again</a></p>`,
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
