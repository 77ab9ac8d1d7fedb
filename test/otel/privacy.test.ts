/**
 * Nothing secret or personal reaches the tracing channels. Every flow — code and id_token
 * successes with persistent subjects and reuse_detection, and each kind of failure — a hint refresh
 * and docs-site calls with an application password run while a subscriber records everything
 * published on every channel (each event, each context, as JSON), and OpenTelemetry records the same
 * run through `instrument()`, with a failed start inside the shop's request span (its event). Then
 * each secret or personal value the run handled is looked for in what was published and in every
 * span, span event and metric point recorded.
 */
import { trace } from '@opentelemetry/api';
import { HttpResponse, http } from 'msw';
import { fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DocsSiteError } from '../../src/docs-site.js';
import { HintFeed } from '../../src/hints.js';
import { AffiliationClient, CookieTransactionStore, ScopeError } from '../../src/index.js';
import { DEFAULT_TEST_CLIENT, type RunningTestProvider, TestProvider } from '../../src/testing.js';
import { client as docsClient, PASSWORD, ROOT, useServer } from '../docs-site/helpers.js';
import { type FeedServer, startFeedServer } from '../hints/feed-server.js';
import { recordChannels, startTelemetry, type Telemetry } from './harness.js';

const REDIRECT_URI = DEFAULT_TEST_CLIENT.redirectUris[0] as string;
const CLIENT_SECRET = DEFAULT_TEST_CLIENT.clientSecret as string;
const UNIVERSITY = 'https://idp.university.example/idp/shibboleth';
const SHOPPER_IP = '203.0.113.77';
const COOKIE_SECRET = 'privacy-test-cookie-secret-0123456789abcdef';

const site = useServer();
let op: RunningTestProvider;
let feeds: FeedServer;
let telemetry: Telemetry;
beforeAll(async () => {
  telemetry = startTelemetry();
  op = await TestProvider.start();
  feeds = await startFeedServer();
});
afterAll(async () => {
  await op.close();
  await feeds.close();
  await telemetry.close();
});

/** Every value the run handled that must never be published, with what it is. */
const secrets = new Map<string, string>();
function secret(what: string, value: unknown): void {
  if (typeof value === 'string' && value.length >= 6) secrets.set(value, what);
}

/** A fetch that notes the secrets on the wire: the PKCE verifier, the code, the tokens. */
const spyingFetch: typeof globalThis.fetch = async (input, init) => {
  const url = input instanceof Request ? input.url : String(input);
  if (url === op.endpoints.token) {
    const body = new URLSearchParams(String(init?.body ?? ''));
    secret('PKCE verifier', body.get('code_verifier'));
    secret('authorization code', body.get('code'));
  }
  // undici's own fetch: the docs site is emulated by msw (the global fetch), the provider is real.
  const response = (await undiciFetch(input as string, init as never)) as unknown as Response;
  if (url === op.endpoints.token && response.ok) {
    const tokens = (await response.clone().json()) as Record<string, unknown>;
    secret('access token', tokens.access_token);
    secret('ID token', tokens.id_token);
    secret('ID token signature', String(tokens.id_token).split('.')[2]);
  }
  return response;
};

async function rp(responseType: 'code' | 'id_token', provider = op) {
  return AffiliationClient.discover({
    issuer: provider.issuer,
    clientId: DEFAULT_TEST_CLIENT.clientId,
    clientSecret: CLIENT_SECRET,
    redirectUri: REDIRECT_URI,
    responseType,
    transactions: new CookieTransactionStore({ secret: COOKIE_SECRET }),
    fetch: spyingFetch,
  });
}

/** One validation the way a browser does it: the start's cookie and the shopper's address on the callback. */
async function validate(
  client: AffiliationClient,
  provider: RunningTestProvider,
  claims: 'both' | 'id_token' | 'none' = 'both',
) {
  const start = await client.createAuthorizationRequest(
    {
      affiliation: 'student',
      identifier: 'persistent',
      idpHint: UNIVERSITY,
      ...(claims === 'both'
        ? { claims: { id_token: { reuse_detection: null }, userinfo: { reuse_detection: null } } }
        : {}),
      ...(claims === 'id_token' ? { claims: { id_token: { reuse_detection: null } } } : {}),
    },
    { cookie: '' },
  );
  const authorization = new URL(start.url);
  secret('state', start.state);
  secret('nonce', authorization.searchParams.get('nonce'));
  const cookie = (start.setCookie ?? '').split(';', 1)[0] ?? '';
  secret('transaction cookie', cookie.slice(cookie.indexOf('=') + 1));
  const callback = await provider.authorize(start.url, { fetch: undiciFetch as unknown as typeof fetch });
  const answer = new URL(callback.replace('#', '?'));
  secret('authorization code', answer.searchParams.get('code'));
  secret('ID token', answer.searchParams.get('id_token'));
  const headers = { cookie, 'x-forwarded-for': SHOPPER_IP, 'x-real-ip': SHOPPER_IP };
  const [address, fragment] = callback.split('#');
  // The id_token flow's answer is in the fragment: the relay page posts it back as a form.
  const request =
    fragment === undefined
      ? new Request(callback, { headers })
      : new Request(address ?? REDIRECT_URI, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          body: fragment,
        });
  return client.validateCallback(request).then(
    (result) => {
      secret('subject', result.subject);
      for (const value of result.reuseDetection ?? []) secret('reuse_detection', value);
      return result;
    },
    (error: unknown) => error,
  );
}

it('no secret or personal value is published on any channel, in any event, by any flow', async () => {
  secret('client secret', CLIENT_SECRET);
  secret('cookie secret', COOKIE_SECRET);
  secret('application password', PASSWORD);
  secret('Basic credentials', Buffer.from(`editor:${PASSWORD}`).toString('base64'));
  const recorder = recordChannels();
  let refused: unknown;
  try {
    // Successes: both flows, persistent subject, reuse_detection in the ID token and userinfo.
    const code = await rp('code');
    const ok = await validate(code, op);
    expect(ok).toMatchObject({ affiliation: 'student', identifier: 'persistent' });
    expect((ok as { reuseDetection?: string[] }).reuseDetection?.length).toBeGreaterThan(0);
    expect(await validate(await rp('id_token'), op, 'id_token')).toMatchObject({ affiliation: 'student' });

    // Failures: refused by the service, a replayed callback, claims the RP rejects, a token endpoint down.
    op.scriptLogin({ consent: false });
    expect(await validate(code, op)).toMatchObject({ code: 'access_denied' });
    const bad = await TestProvider.start({ idTokenClaims: (c) => ({ ...c, transaction_id: 'nope' }) });
    try {
      expect(await validate(await rp('code', bad), bad, 'none')).toMatchObject({
        code: 'transaction_id_invalid',
      });
    } finally {
      await bad.close();
    }
    const forged = new Request(`${REDIRECT_URI}?code=c0de-from-nowhere&state=st4te-from-nowhere`, {
      headers: { cookie: 'unrelated=1', 'x-forwarded-for': SHOPPER_IP },
    });
    expect(await code.validateCallback(forged).catch((e) => e)).toMatchObject({ code: 'unknown_state' });
    secret('authorization code', 'c0de-from-nowhere');
    secret('state', 'st4te-from-nowhere');

    // A start refused inside the shop's request span: the one start that leaves an event there.
    refused = await trace.getTracer('shop').startActiveSpan('POST /shop/validate', async (span) => {
      try {
        return await code
          .createAuthorizationRequest(
            {
              affiliation: 'student',
              identifier: 'persistent',
              scopes: ['employee'],
              idpHint: UNIVERSITY,
              claims: { id_token: { reuse_detection: null } },
            },
            { cookie: `av_tx=${COOKIE_SECRET}-earlier-validation` },
          )
          .catch((e: unknown) => e);
      } finally {
        span.end();
      }
    });
    expect(refused).toBeInstanceOf(ScopeError);
    secret('transaction cookie', `${COOKIE_SECRET}-earlier-validation`);

    // A hint refresh and docs-site calls with an application password, one failing.
    feeds.route('/nl.json', { kind: 'json', body: { [UNIVERSITY]: { en: 'Example University' } } });
    expect((await new HintFeed({ sources: [feeds.url('/nl.json')] }).refresh()).status).toBe('updated');
    site.use(
      http.get(`${ROOT}/cms/v2/posts`, () => HttpResponse.json([])),
      http.post(`${ROOT}/cms/v2/posts`, () =>
        HttpResponse.json(
          { code: 'rest_cannot_create', message: 'No.', data: { status: 401 } },
          { status: 401 },
        ),
      ),
    );
    const docs = docsClient();
    await docs.request('GET', '/cms/v2/posts');
    expect(
      await docs.request('POST', '/cms/v2/posts', { body: { title: 'x' } }).catch((e) => e),
    ).toBeInstanceOf(DocsSiteError);
  } finally {
    recorder.stop();
  }

  const spans = telemetry.spans().map((s) => ({
    name: s.name,
    attributes: s.attributes,
    status: s.status,
    events: s.events.map((e) => ({ name: e.name, attributes: e.attributes })),
  }));
  const recorded = [
    ...recorder.messages,
    JSON.stringify(spans),
    JSON.stringify(await telemetry.points()),
  ].join('\n');
  // The recorder saw every channel, so finding nothing below means something.
  for (const channel of [
    'validation.start',
    'validation.callback',
    'oidc.token',
    'oidc.keys',
    'hints.refresh',
    'docs-site.request',
  ]) {
    expect(recorded).toContain(`affiliation-validation:${channel}:asyncEnd`);
  }
  expect(recorded).toContain('"error":{"name":"ProviderError","code":"access_denied"}');
  // What OpenTelemetry recorded is in the text: spans of each kind, the failed start's event, metrics.
  for (const span of [
    'affiliation-validation callback',
    'POST',
    'GET',
    'affiliation-validation hints refresh',
  ]) {
    expect(spans.map((s) => s.name)).toContain(span);
  }
  expect(spans.find((s) => s.name === 'POST /shop/validate')?.events).toEqual([
    {
      name: 'affiliation_validation.start',
      attributes: expect.objectContaining({ 'error.type': (refused as ScopeError).code }),
    },
  ]);
  expect(recorded).toContain('"http.response.status_code":401');
  expect(secrets.size).toBeGreaterThanOrEqual(15);
  const leaked = [...secrets].filter(([value]) => recorded.includes(value)).map(([, what]) => what);
  expect(leaked).toEqual([]);
  expect(recorded).not.toContain(SHOPPER_IP);
});
