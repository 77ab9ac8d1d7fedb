/**
 * One failure contract on every channel: each failure publishes the `error` event with `error` =
 * `{ name, code }`, and OpenTelemetry records that code as `error.type`, a code docs/errors.md
 * documents (the documentation site's errors keep the site's own code). Real HTTP throughout: the
 * SDK's test provider, a feed server, the real OpenTelemetry SDK.
 */

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { DocsSiteClient } from '../../src/docs-site.js';
import { HintFeed } from '../../src/hints.js';
import { AffiliationClient, CHANNELS, MemoryTransactionStore } from '../../src/index.js';
import { DEFAULT_TEST_CLIENT, type RunningTestProvider, TestProvider } from '../../src/testing.js';
import { type FeedServer, startFeedServer } from '../hints/feed-server.js';
import { startTelemetry, type Telemetry } from './harness.js';

const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
/** The codes in the first column of docs/errors.md's tables. */
const documented = new Set(
  [...doc.matchAll(/^\|([^|\n]+)\|/gm)].flatMap((row) =>
    [...(row[1] ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]),
  ),
);

let telemetry: Telemetry;
let op: RunningTestProvider;
let feeds: FeedServer;
/** Per channel, the `error` of each error event published. */
let errors: Map<string, unknown[]>;
const listeners = Object.values(CHANNELS).map((name) => {
  const listener = (message: unknown) => {
    errors.set(name, [...(errors.get(name) ?? []), structuredClone((message as { error?: unknown }).error)]);
  };
  return [`tracing:${name}:error`, listener] as const;
});

beforeAll(async () => {
  telemetry = startTelemetry();
  op = await TestProvider.start();
  feeds = await startFeedServer();
  for (const [name, listener] of listeners) subscribe(name, listener);
});
afterAll(async () => {
  for (const [name, listener] of listeners) unsubscribe(name, listener);
  await feeds.close();
  await op.close();
  await telemetry.close();
});
beforeEach(() => {
  errors = new Map();
  telemetry.resetSpans();
});

/** A client whose requests to `endpoint` get `answer` instead of the service's. */
function client(endpoint?: string, answer?: () => Response) {
  return AffiliationClient.discover({
    issuer: op.issuer,
    clientId: DEFAULT_TEST_CLIENT.clientId,
    clientSecret: DEFAULT_TEST_CLIENT.clientSecret as string,
    redirectUri: DEFAULT_TEST_CLIENT.redirectUris[0] as string,
    transactions: new MemoryTransactionStore({ bindToBrowser: false }),
    fetch: (input, init) =>
      answer && String(input instanceof Request ? input.url : input) === endpoint
        ? Promise.resolve(answer())
        : globalThis.fetch(input, init),
  });
}

async function failedCallback(rp: AffiliationClient): Promise<unknown> {
  const { url } = await rp.createAuthorizationRequest({ affiliation: 'student' });
  return rp.validateCallback(await op.authorize(url)).catch((e: unknown) => e);
}

/** The `error.type` and status of the spans named `name`. */
const failedSpans = (name: string) =>
  telemetry
    .spans()
    .filter((s) => s.name === name)
    .map((s) => [s.attributes['error.type'], s.status.code]);

it('a token endpoint 400 is the documented code of its OAuth error, on the channel and the span', async () => {
  const rp = await client(op.endpoints.token, () =>
    Response.json({ error: 'invalid_grant', error_description: 'code used' }, { status: 400 }),
  );
  const error = await failedCallback(rp);
  expect(errors.get(CHANNELS.token)).toEqual([{ name: 'ProviderError', code: 'invalid_grant' }]);
  expect(failedSpans('POST')).toEqual([['invalid_grant', 2]]);
  // The callback reports it as what it means for the shop (docs/errors.md: invalid_grant).
  const code = (error as { code: string }).code;
  expect(errors.get(CHANNELS.validationCallback)).toEqual([{ name: 'ValidationError', code }]);
  expect(documented.has('invalid_grant') && documented.has(code)).toBe(true);
});

it.each([
  ['a 503 page', () => new Response('<h1>down</h1>', { status: 503 }), 'TransportError', 'http_status'],
  ['a 401 without a body', () => new Response(null, { status: 401 }), 'ProviderError', 'invalid_client'],
  [
    'a 200 that is not JSON',
    () => new Response('<html>', { status: 200 }),
    'TransportError',
    'invalid_response',
  ],
])('a token endpoint answering %s: %s %s', async (_what, answer, name, code) => {
  const rp = await client(op.endpoints.token, answer);
  await failedCallback(rp);
  expect(errors.get(CHANNELS.token)).toEqual([{ name, code }]);
  expect(failedSpans('POST')).toEqual([[code, 2]]);
  expect(documented.has(code)).toBe(true);
});

it('a key fetch that fails publishes its error, and the callback its own', async () => {
  const rp = await client(op.endpoints.jwks, () => new Response('oops', { status: 500 }));
  const error = await failedCallback(rp);
  expect(errors.get(CHANNELS.keys)).toEqual([{ name: 'TransportError', code: 'http_status' }]);
  expect(failedSpans('GET')).toEqual([['http_status', 2]]);
  expect(errors.get(CHANNELS.validationCallback)).toEqual([
    { name: 'TransportError', code: (error as { code: string }).code },
  ]);
});

it('a refused start and an unknown state publish theirs', async () => {
  const rp = await client();
  await rp
    .createAuthorizationRequest({ affiliation: 'student', scopes: ['employee'] })
    .catch(() => undefined);
  await rp
    .validateCallback(`${DEFAULT_TEST_CLIENT.redirectUris[0]}?code=x&state=never`)
    .catch(() => undefined);
  expect(errors.get(CHANNELS.validationStart)).toEqual([{ name: 'ScopeError', code: 'invalid_scope' }]);
  expect(errors.get(CHANNELS.validationCallback)).toEqual([
    { name: 'ValidationError', code: 'unknown_state' },
  ]);
  expect(failedSpans('affiliation-validation callback')).toEqual([['unknown_state', 2]]);
});

it('a failed hint refresh publishes its error: the refresh resolves, the channel says it failed', async () => {
  feeds.route('/down.json', { kind: 'status', status: 404 });
  const feed = new HintFeed({ sources: [feeds.url('/down.json')], retries: 0 });
  const result = await feed.refresh();
  expect(result.status).toBe('failed');
  const code = result.error?.code;
  expect(errors.get(CHANNELS.hintsRefresh)).toEqual([{ name: 'HintFeedError', code }]);
  expect(failedSpans('affiliation-validation hints refresh')).toEqual([[code, 2]]);
  expect(documented.has(code as string)).toBe(true);
  await feed.close();
});

it("a documentation-site error publishes the site's own code", async () => {
  const docs = new DocsSiteClient({
    baseUrl: 'https://docs.example.org',
    contentNamespace: 'wp/v2',
    retries: 0,
    fetch: async () =>
      Response.json(
        { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } },
        { status: 404 },
      ),
  });
  await docs.request('GET', '/wp/v2/pages/7').catch(() => undefined);
  expect(errors.get(CHANNELS.docsSiteRequest)).toEqual([
    { name: 'DocsSiteError', code: 'rest_post_invalid_id' },
  ]);
  expect(failedSpans('GET /wp/v2/pages/{id}')).toEqual([['rest_post_invalid_id', 2]]);
});

it('an error that is not the SDK’s is `_OTHER`, never its own code', async () => {
  const rp = await AffiliationClient.discover({
    issuer: op.issuer,
    clientId: DEFAULT_TEST_CLIENT.clientId,
    clientSecret: DEFAULT_TEST_CLIENT.clientSecret as string,
    redirectUri: DEFAULT_TEST_CLIENT.redirectUris[0] as string,
    transactions: new MemoryTransactionStore({ bindToBrowser: false }),
    hints: {
      has: () => {
        throw Object.assign(new Error('lookup down'), { code: 'ECONNRESET' });
      },
    },
  });
  await rp
    .createAuthorizationRequest({ affiliation: 'student', idpHint: 'https://idp.example/x' })
    .catch(() => undefined);
  expect(errors.get(CHANNELS.validationStart)).toEqual([{ name: 'Error', code: undefined }]);
  const starts = await telemetry.points('affiliation_validation.starts');
  expect(starts.map((p) => p.attributes['error.type'])).toContain('_OTHER');
  expect(starts.map((p) => p.attributes['error.type'])).not.toContain('ECONNRESET');
});
