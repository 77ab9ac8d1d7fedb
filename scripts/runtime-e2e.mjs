// One full validation in both flows against the package's test provider: discovery, a start through
// startHandler(), the test provider's pages, the callback through callbackHandler() (code flow), and
// the id_token flow's callback through the relay page and its form POST. Uses the build (`dist/`).
//
// Run directly (CI: Bun and Deno; `node scripts/runtime-e2e.mjs` works too) it validates in this
// process. `validateBothFlows()` drives a shop anywhere else the same way: scripts/runtimes.mjs
// gives it a shop in workerd or in a Next.js server, reached over HTTP. Prints one line per step;
// throws (exits 1) on the first failure.
import { fileURLToPath } from 'node:url';

function runtimeName() {
  return typeof globalThis.Bun !== 'undefined'
    ? `Bun ${globalThis.Bun.version}`
    : typeof globalThis.Deno !== 'undefined'
      ? `Deno ${globalThis.Deno.version.deno}`
      : `Node ${process.versions.node}`;
}

/**
 * Both flows through `shop` (`Request → Response`, redirects not followed), a shop whose start route
 * is `${origin}/start` (offering `flow=id_token` too) and whose callback route is `redirectUri`;
 * `success(response, text)` says whether the callback's answer shows the validated affiliation.
 */
export async function validateBothFlows({ op, shop, redirectUri, label, success }) {
  const origin = new URL(redirectUri).origin;
  const check = (condition, what, detail = '') => {
    if (!condition) throw new Error(`runtime-e2e (${label}): ${what}${detail}`);
    console.log(`  ok  ${what}`);
  };
  const start = async (flow) => {
    const response = await shop(
      new Request(`${origin}/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
        body: `affiliation=student${flow === 'code' ? '' : `&flow=${flow}`}`,
      }),
    );
    const location = response.headers.get('location') ?? '';
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0];
    check(
      response.status === 303 && location.startsWith(`${op.issuer}/`),
      `${flow} flow: the start route answers 303 to the provider`,
      `: ${response.status} ${location || (await response.text()).slice(0, 300)}`,
    );
    return { location, cookie };
  };

  // Code flow: start → the provider's pages → the callback.
  const code = await start('code');
  const callback = await op.authorize(code.location);
  const answer = await shop(new Request(callback, { headers: { cookie: code.cookie } }));
  const text = await answer.text();
  check(success(answer, text), `code flow: the callback validates (${answer.status})`);

  // id_token flow: the provider answers in the fragment; the relay page posts it back as a form.
  const implicit = await start('id_token');
  const fragment = new URL(await op.authorize(implicit.location)).hash.slice(1);
  const relay = await shop(new Request(redirectUri, { headers: { cookie: implicit.cookie } }));
  await relay.text();
  check(
    relay.status === 200 && (relay.headers.get('content-type') ?? '').startsWith('text/html'),
    'id_token flow: the callback route serves the relay page',
  );
  const posted = await shop(
    new Request(redirectUri, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: implicit.cookie,
        origin,
        'sec-fetch-site': 'same-origin',
      },
      body: fragment,
    }),
  );
  const postedText = await posted.text();
  check(
    success(posted, postedText),
    "id_token flow: the relay's form POST validates",
    `: ${posted.status} ${postedText.slice(0, 300)}`,
  );
}

async function inThisProcess() {
  const { AffiliationClient, MemoryTransactionStore } = await import('../dist/index.js');
  const { DEFAULT_TEST_CLIENT, TestProvider } = await import('../dist/testing.js');
  const runtime = runtimeName();
  const redirectUri = DEFAULT_TEST_CLIENT.redirectUris[0];
  const op = await TestProvider.start();
  try {
    const options = {
      issuer: op.issuer,
      clientId: DEFAULT_TEST_CLIENT.clientId,
      clientSecret: DEFAULT_TEST_CLIENT.clientSecret,
      redirectUri,
      transactions: new MemoryTransactionStore(), // both clients: either checks either flow's callback
    };
    const code = await AffiliationClient.discover(options);
    const idToken = await AffiliationClient.discover({ ...options, responseType: 'id_token' });
    const start = code.startHandler({ flows: { code, id_token: idToken } });
    const callback = code.callbackHandler({
      onSuccess: (result) => new Response(result.affiliation),
      onError: (error) => new Response(`${error.code}: ${error.message}`, { status: 400 }),
    });
    await validateBothFlows({
      op,
      label: runtime,
      redirectUri,
      shop: (request) => (new URL(request.url).pathname === '/start' ? start(request) : callback(request)),
      success: (response, text) => response.status === 200 && text === 'student',
    });
    console.log(`runtime-e2e: ${runtime}: all steps passed`);
  } finally {
    await op.close();
  }
}

const main = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (main) await inThisProcess();
