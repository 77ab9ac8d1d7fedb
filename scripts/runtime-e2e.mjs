// One short end-to-end validation against the package's test provider, on whatever runtime runs
// this file (CI: Bun and Deno; `node scripts/runtime-e2e.mjs` works too). Uses the build (`dist/`):
// discovery, a start through startHandler(), the test provider's login, the callback through
// callbackHandler() (code flow), and the id_token flow's callback through the relay's form POST.
// Prints one line per step; exits 1 on the first failure.
import { AffiliationClient } from '../dist/index.js';
import { DEFAULT_TEST_CLIENT, TestProvider } from '../dist/testing.js';

const runtime =
  typeof globalThis.Bun !== 'undefined'
    ? `Bun ${globalThis.Bun.version}`
    : typeof globalThis.Deno !== 'undefined'
      ? `Deno ${globalThis.Deno.version.deno}`
      : `Node ${process.versions.node}`;
const redirectUri = DEFAULT_TEST_CLIENT.redirectUris[0];
const shop = new URL(redirectUri).origin;

function check(condition, what) {
  if (!condition) throw new Error(`runtime-e2e (${runtime}): ${what}`);
  console.log(`  ok  ${what}`);
}

/** The shopper's browser: a POST of the start form, same-origin. */
async function start(client) {
  const response = await client.startHandler()(
    new Request(`${shop}/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: 'affiliation=student',
    }),
  );
  const location = response.headers.get('location') ?? '';
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0];
  check(
    response.status === 303 && location.startsWith('http://127.0.0.1:'),
    'startHandler answers 303 to the provider',
  );
  return { location, cookie };
}

const op = await TestProvider.start();
try {
  const options = {
    issuer: op.issuer,
    clientId: DEFAULT_TEST_CLIENT.clientId,
    clientSecret: DEFAULT_TEST_CLIENT.clientSecret,
    redirectUri,
  };
  const client = await AffiliationClient.discover(options);
  check(client.issuer === op.issuer, 'discovery');

  // Code flow: start → login → callback handler.
  const code = await start(client);
  const callback = await op.authorize(code.location);
  let result;
  const handle = client.callbackHandler({
    onSuccess: (r) => {
      result = r;
      return new Response('ok');
    },
    onError: (error) => new Response(`${error.code}: ${error.message}`, { status: 400 }),
  });
  const answer = await handle(new Request(callback, { headers: { cookie: code.cookie } }));
  check(
    answer.status === 200 && result?.affiliation === 'student',
    `code flow callback (${await answer.text()})`,
  );

  // id_token flow: the provider answers in the fragment; the relay posts it back as a form.
  const implicit = await AffiliationClient.discover({ ...options, responseType: 'id_token' });
  const flow = await start(implicit);
  const fragment = new URL(await op.authorize(flow.location)).hash.slice(1);
  const relay = await implicit.callbackHandler({ onSuccess: () => new Response('ok') })(
    new Request(redirectUri, { headers: { cookie: flow.cookie } }),
  );
  check(
    relay.status === 200 && (relay.headers.get('content-type') ?? '').startsWith('text/html'),
    'relay page',
  );
  const posted = await implicit.callbackHandler({
    onSuccess: (r) => new Response(r.affiliation),
    onError: (error) => new Response(`${error.code}: ${error.message}`, { status: 400 }),
  })(
    new Request(redirectUri, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: flow.cookie,
        origin: shop,
        'sec-fetch-site': 'same-origin',
      },
      body: fragment,
    }),
  );
  check(
    posted.status === 200 && (await posted.text()) === 'student',
    'id_token flow callback (relay form POST)',
  );
  console.log(`runtime-e2e: ${runtime}: all steps passed`);
} finally {
  await op.close();
}
