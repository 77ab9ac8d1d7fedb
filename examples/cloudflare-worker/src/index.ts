/**
 * A shop on Cloudflare Workers: the SDK's start and callback routes, Web `Request` → `Response`.
 *
 * A Worker may not do I/O at the top of a module ("Disallowed operation called within global
 * scope"), and its configuration arrives with each request (`env`): the clients are made on the
 * first request, by discovery, and kept for the isolate's life. Made with `nodejs_compat` or
 * without it: the SDK needs only Web APIs here.
 */
import { AffiliationClient, CookieTransactionStore } from 'affiliation-validation';

/** The Worker's environment: `[vars]` in wrangler.toml, secrets with `wrangler secret put`. */
export interface Env {
  AV_ISSUER: string;
  AV_CLIENT_ID: string;
  /** Secret. */
  AV_CLIENT_SECRET: string;
  /** The callback URL registered with the service: this Worker's `/callback`. */
  AV_REDIRECT_URI: string;
  /** Secret, ≥ 32 bytes (`openssl rand -base64 32`): seals the transaction cookies. */
  AV_COOKIE_SECRET: string;
  /** `1` also offers the `id_token` flow (scheduled for deprecation by the service). */
  AV_ENABLE_ID_TOKEN_FLOW?: string;
}

interface Routes {
  start: (request: Request) => Promise<Response>;
  callback: (request: Request) => Promise<Response>;
}

let routes: Promise<Routes> | undefined;

/** The routes, made once per isolate; a failed discovery is tried again by the next request. */
function routesFor(env: Env): Promise<Routes> {
  routes ??= makeRoutes(env).catch((error: unknown) => {
    routes = undefined;
    throw error;
  });
  return routes;
}

async function makeRoutes(env: Env): Promise<Routes> {
  const options = {
    issuer: env.AV_ISSUER,
    clientId: env.AV_CLIENT_ID,
    clientSecret: env.AV_CLIENT_SECRET,
    redirectUri: env.AV_REDIRECT_URI,
    transactions: new CookieTransactionStore({
      secret: env.AV_COOKIE_SECRET,
      secure: new URL(env.AV_REDIRECT_URI).protocol === 'https:',
    }),
  };
  const code = await AffiliationClient.discover(options);
  const idToken: AffiliationClient | undefined =
    env.AV_ENABLE_ID_TOKEN_FLOW === '1'
      ? await AffiliationClient.discover({ ...options, responseType: 'id_token' })
      : undefined;
  return {
    // Only a same-origin POST of the form below starts a validation; 303 to the service.
    start: code.startHandler(idToken ? { flows: { code, id_token: idToken } } : {}),
    // Either client checks either flow's callback (the transaction records it). A real shop puts the
    // result into its session (e.g. Workers KV) under a new id and redirects.
    callback: code.callbackHandler({
      onSuccess: (result) => page(`Validated: <b id="affiliation">${result.affiliation}</b>`),
    }),
  };
}

function page(body: string, status = 200): Response {
  return new Response(
    `<!doctype html><html lang="en"><meta charset="utf-8"><title>Shop</title>${body}</html>\n`,
    {
      status,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    },
  );
}

const FORM = `<form method="post" action="/start">
<label>I am a <select name="affiliation"><option>student</option><option>employee</option></select></label>
<button>Validate</button></form>`;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === '/') return page(FORM);
    if (pathname === '/start') return (await routesFor(env)).start(request);
    if (pathname === '/callback') return (await routesFor(env)).callback(request);
    return page('Not found', 404);
  },
};
