/**
 * The shop's two validation routes, made on the first request and kept for the server's (or the
 * Edge isolate's) life. Never `await AffiliationClient.discover()` at the top of a module: discovery
 * would run at build time, and a Worker or an Edge function refuses I/O outside a request.
 */
import { AffiliationClient, CookieTransactionStore } from 'affiliation-validation';

export interface Routes {
  start: (request: Request) => Promise<Response>;
  callback: (request: Request) => Promise<Response>;
}

let routes: Promise<Routes> | undefined;

/** The routes; a failed discovery is tried again by the next request. */
export function validationRoutes(): Promise<Routes> {
  routes ??= makeRoutes().catch((error: unknown) => {
    routes = undefined;
    throw error;
  });
  return routes;
}

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

async function makeRoutes(): Promise<Routes> {
  const redirectUri = env('AV_REDIRECT_URI'); // this app's /callback, as registered with the service
  const options = {
    issuer: env('AV_ISSUER'),
    clientId: env('AV_CLIENT_ID'),
    clientSecret: env('AV_CLIENT_SECRET'),
    redirectUri,
    // ≥ 32 bytes (openssl rand -base64 32), the same on every instance.
    transactions: new CookieTransactionStore({
      secret: env('AV_COOKIE_SECRET'),
      secure: new URL(redirectUri).protocol === 'https:',
    }),
  };
  const code = await AffiliationClient.discover(options);
  const idToken =
    process.env.AV_ENABLE_ID_TOKEN_FLOW === '1'
      ? await AffiliationClient.discover({ ...options, responseType: 'id_token' })
      : undefined;
  return {
    // Only a same-origin POST of your page's form starts a validation: 303 to the service.
    start: code.startHandler(idToken ? { flows: { code, id_token: idToken } } : {}),
    // Either client checks either flow's callback (the transaction records it). A real shop puts
    // the result into its session under a new id and redirects (see docs/security.md).
    callback: code.callbackHandler({
      onSuccess: (result) =>
        new Response(
          `<!doctype html><html lang="en"><meta charset="utf-8"><title>Validated</title>Validated: <b id="affiliation">${result.affiliation}</b></html>\n`,
          { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } },
        ),
    }),
  };
}
