/**
 * RP core benchmarks, each against a baseline measured in the same run:
 * (a) the code flow's callback — `validateCallback` (openid-client's `authorizationCodeGrant` with
 *     `enableNonRepudiationChecks` underneath, plus the SDK's checks, store and HTTP layer) against bare
 *     openid-client `authorizationCodeGrant` with `enableNonRepudiationChecks`, both against the
 *     package's test provider on 127.0.0.1 in a child process: CPU per validation and latency (guard:
 *     ours ≤ 1.35× of openid-client's CPU, the median of the batches' ratios); (a') the same with Node's global fetch injected,
 *     openid-client's own transport, to show the transport's share; (a'') bare openid-client with the
 *     SDK's HTTP layer (`HttpClient`, its default transport) as `customFetch`, as the engine calls it:
 *     the HTTP layer's share, and what the SDK's rules and store add on top of it;
 * (b) `createAuthorizationRequest` vs openid-client `buildAuthorizationUrl` plus PKCE generation;
 * (c) `MemoryTransactionStore` put+take with an empty store and with a full one (10,000 held and
 *     10,000 remembered states), against a bare `Map` set+delete behind the same awaits.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import * as oidc from 'openid-client';
import { HttpClient } from '../src/http/client.js';
import { AffiliationClient } from '../src/rp/client.js';
import { MemoryTransactionStore } from '../src/rp/transactions/index.js';
import type { Transaction } from '../src/rp/types.js';
import { DEFAULT_TEST_CLIENT } from '../src/testing/options.js';
import { fmt, percentile, report } from './util.js';

const ISSUER = 'https://op.bench.example';
const CLIENT_ID = 'bench-client';
const REDIRECT_URI = 'https://shop.bench.example/callback';

async function setup() {
  const metadata = {
    issuer: ISSUER,
    authorization_endpoint: `${ISSUER}/Service/authorization`,
    token_endpoint: `${ISSUER}/Service/token`,
    jwks_uri: `${ISSUER}/Service/jwks`,
    response_types_supported: ['code', 'id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    code_challenge_methods_supported: ['S256'],
  };
  // An in-process OP for discovery: no network in benchmarks (b).
  const fetch = async (input: string | URL | Request) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.endsWith('/.well-known/openid-configuration')) return Response.json(metadata);
    return new Response('not found', { status: 404 });
  };
  return { metadata, fetch: fetch as typeof globalThis.fetch };
}

/** Wall time and CPU time (all threads: WebCrypto verifies on libuv's pool) of `fn`, in ms. */
async function measure(fn: () => Promise<void>): Promise<{ wall: number; cpu: number }> {
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  await fn();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

/** The test provider in a child process; `authorize(url)` logs in and gives the callback URL. */
export async function startProvider(): Promise<{
  issuer: string;
  authorize(url: string): Promise<string>;
  stop(): void;
}> {
  const child: ChildProcess = fork(fileURLToPath(new URL('./code-flow-provider.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, { resolve(callback: string): void; reject(error: Error): void }>();
  let next = 0;
  const issuer = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('message', (m: { issuer: string }) => resolve(m.issuer));
  });
  child.on('message', (m: { id?: number; callback?: string; error?: string }) => {
    if (m.id === undefined) return;
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.callback !== undefined) w?.resolve(m.callback);
    else w?.reject(new Error(m.error ?? 'authorize failed'));
  });
  return {
    issuer,
    authorize: (url) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        child.send({ id, url });
      }),
    stop: () => child.disconnect(),
  };
}

const FLOW_BATCH = 20;
const FLOW_BATCHES = 40;
/** Issue 30: the callback's CPU stays within this factor of bare openid-client's (a guard, not a target). */
const CPU_GUARD = 1.35;

/**
 * (a) The code flow's callback against the same provider: ours and openid-client's, in batches
 * prepared just before they are timed (the logins are not timed), alternating which side goes
 * first (A B, B A), warm-up batches discarded.
 */
export async function benchCodeFlow(): Promise<void> {
  const op = await startProvider();
  const { clientId, clientSecret } = DEFAULT_TEST_CLIENT;
  const redirectUri = DEFAULT_TEST_CLIENT.redirectUris[0] as string;
  try {
    const options = { issuer: op.issuer, clientId, clientSecret: clientSecret as string, redirectUri };
    const client = await AffiliationClient.discover(options);
    // The same with Node's built-in global fetch injected (the transport openid-client uses)
    // instead of the default (undici's own fetch with the SDK's agent): the transport's share.
    const plainFetchClient = await AffiliationClient.discover({ ...options, fetch: globalThis.fetch });
    const config = await oidc.discovery(new URL(op.issuer), clientId, clientSecret, undefined, {
      execute: [oidc.allowInsecureRequests],
    });
    oidc.enableNonRepudiationChecks(config);
    // As the engine calls the HTTP layer: without openid-client's signal (the layer times requests).
    const http = new HttpClient();
    const httpConfig = await oidc.discovery(new URL(op.issuer), clientId, clientSecret, undefined, {
      execute: [oidc.allowInsecureRequests],
      [oidc.customFetch]: (url, { signal: _signal, ...init }) => http.fetch(url, init as RequestInit),
    });
    oidc.enableNonRepudiationChecks(httpConfig);

    const prepare = (rp: AffiliationClient) => async () => {
      const { url, setCookie } = await rp.createAuthorizationRequest({ affiliation: 'student' });
      const callback = await op.authorize(url);
      const cookie = (setCookie ?? '').split(';')[0] as string;
      return () => rp.validateCallback(callback, { cookie });
    };
    const prepareTheirs = (config: oidc.Configuration) => async () => {
      const pkceCodeVerifier = oidc.randomPKCECodeVerifier();
      const expectedState = oidc.randomState();
      const expectedNonce = oidc.randomNonce();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid student',
        code_challenge: await oidc.calculatePKCECodeChallenge(pkceCodeVerifier),
        code_challenge_method: 'S256',
        state: expectedState,
        nonce: expectedNonce,
      });
      const callback = new URL(await op.authorize(url.href));
      return () =>
        oidc.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier,
          expectedState,
          expectedNonce,
          idTokenExpected: true,
        });
    };
    const sides = {
      ours: prepare(client),
      oursFetch: prepare(plainFetchClient),
      theirs: prepareTheirs(config),
      theirsHttp: prepareTheirs(httpConfig),
    };
    const cpu: Record<string, number[]> = { ours: [], oursFetch: [], theirs: [], theirsHttp: [] };
    const latency: Record<string, number[]> = { ours: [], oursFetch: [], theirs: [], theirsHttp: [] };
    const names = Object.keys(sides) as (keyof typeof sides)[];
    for (let batch = 0; batch < FLOW_BATCHES + 2; batch++) {
      for (const name of batch % 2 === 0 ? names : [...names].reverse()) {
        const calls: (() => Promise<unknown>)[] = [];
        for (let i = 0; i < FLOW_BATCH; i++) calls.push(await sides[name]());
        const cpu0 = process.cpuUsage();
        const times: number[] = [];
        for (const call of calls) {
          const start = performance.now();
          await call();
          times.push(performance.now() - start);
        }
        const used = process.cpuUsage(cpu0);
        // The first two batches warm up (keys fetched, JIT, connections).
        if (batch < 2) continue;
        cpu[name]?.push((used.user + used.system) / 1000);
        latency[name]?.push(...times);
      }
    }
    const n = FLOW_BATCH * FLOW_BATCHES;
    const perCall = (name: string) => (cpu[name] ?? []).reduce((a, b) => a + b, 0) / n;
    const ratio = perCall('ours') / perCall('theirs');
    // A collection of the heap lands in one batch or another: the median of the batches' own ratios
    // (each batch beside the other side's batch of the same round) is the steadier figure.
    const theirs = cpu.theirs ?? [];
    const batchRatio = percentile(
      (cpu.ours ?? []).map((ms, i) => ms / (theirs[i] ?? Number.NaN)),
      50,
    );
    report('(a) openid-client authorizationCodeGrant, CPU (baseline)', perCall('theirs'), 'ms/validation');
    report('(a) validateCallback, code flow, CPU', perCall('ours'), 'ms/validation');
    report('(a) ratio ours / openid-client, CPU, all batches', `${fmt(ratio, 3)}x`);
    report(`(a) same, median of the batches' ratios (guard <= ${CPU_GUARD})`, `${fmt(batchRatio, 3)}x`);
    report("(a') validateCallback, global fetch injected, CPU", perCall('oursFetch'), 'ms/validation');
    report(
      "(a') ratio, global fetch injected / openid-client, CPU",
      `${fmt(perCall('oursFetch') / perCall('theirs'), 3)}x`,
    );
    report("(a'') openid-client over the SDK's HTTP layer, CPU", perCall('theirsHttp'), 'ms/validation');
    report(
      "(a'') ratio to openid-client / validateCallback to it",
      `${fmt(perCall('theirsHttp') / perCall('theirs'), 3)}x / ${fmt(perCall('ours') / perCall('theirsHttp'), 3)}x`,
    );
    const label = {
      theirs: 'openid-client',
      ours: 'validateCallback',
      oursFetch: "validateCallback (a')",
      theirsHttp: "openid-client (a'')",
    };
    for (const name of ['theirs', 'ours', 'oursFetch', 'theirsHttp'] as const) {
      const l = latency[name] ?? [];
      report(
        `(a) latency ${label[name]}, p50 / p95`,
        `${fmt(percentile(l, 50), 3)} / ${fmt(percentile(l, 95), 3)} ms`,
      );
    }
    report(
      `(a) guard <= ${CPU_GUARD} held (CPU, median of batches)`,
      `${batchRatio <= CPU_GUARD ? 'yes' : 'NO'} (${n} validations each, load ${loadAverage()})`,
    );
  } finally {
    op.stop();
  }
}

function loadAverage(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

/**
 * Interleave rounds of `iterations` calls of several functions, alternating their order; returns
 * ops/s by wall time and by CPU time (all threads) per function.
 */
async function interleaved(
  fns: Record<string, () => unknown>,
  rounds = 16,
  iterations = 300,
): Promise<Record<string, { wall: number; cpu: number }>> {
  const total: Record<string, { wall: number; cpu: number }> = {};
  for (const name of Object.keys(fns)) total[name] = { wall: 0, cpu: 0 };
  const entries = Object.entries(fns);
  for (let r = 0; r < rounds + 2; r++) {
    for (const [name, fn] of r % 2 === 0 ? entries : [...entries].reverse()) {
      const t = await measure(async () => {
        for (let i = 0; i < iterations; i++) await fn();
      });
      const sum = total[name] as { wall: number; cpu: number };
      // The first two rounds warm up.
      if (r >= 2) total[name] = { wall: sum.wall + t.wall, cpu: sum.cpu + t.cpu };
    }
  }
  const out: Record<string, { wall: number; cpu: number }> = {};
  for (const [name, t] of Object.entries(total)) {
    out[name] = { wall: (rounds * iterations * 1000) / t.wall, cpu: (rounds * iterations * 1000) / t.cpu };
  }
  return out;
}

export async function benchAuthorizationRequest(): Promise<void> {
  const { metadata, fetch } = await setup();
  const options = {
    issuer: ISSUER,
    clientId: CLIENT_ID,
    clientSecret: 'bench-secret-value',
    redirectUri: REDIRECT_URI,
    fetch,
  };
  // As users get it: the default store (bounded at 10 000, so the run reaches its steady state).
  const client = await AffiliationClient.discover(options);
  // A store that keeps nothing: the request building alone.
  const discarding = await AffiliationClient.discover({
    ...options,
    transactions: { put: async () => undefined, take: async () => undefined },
  });
  const config = new oidc.Configuration(metadata, CLIENT_ID, 'bench-secret-value');
  const build = async () => {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const challenge = await oidc.calculatePKCECodeChallenge(verifier);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid student',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url, state, nonce, verifier };
  };
  // What an openid-client user must add: keep state, nonce and verifier until the callback.
  const kept = new Map<string, unknown>();
  const buildAndKeep = async () => {
    const r = await build();
    kept.set(r.state, r);
    if (kept.size > 10_000) kept.delete(kept.keys().next().value as string);
  };
  const ops = await interleaved({
    baseline: build,
    baselineKeep: buildAndKeep,
    ours: () => client.createAuthorizationRequest({ affiliation: 'student' }),
    oursNoStore: () => discarding.createAuthorizationRequest({ affiliation: 'student' }),
  });
  const none = { wall: Number.NaN, cpu: Number.NaN };
  const { baseline = none, baselineKeep = none, ours = none, oursNoStore = none } = ops;
  report('(b) openid-client buildAuthorizationUrl + PKCE', baseline.wall, 'ops/s');
  report('(b) createAuthorizationRequest (default store)', ours.wall, 'ops/s');
  // No target: issue 2's ">= 1.0" was met with a pool of pre-made secrets, which issue 18 removed
  // with the other microsecond targets.
  report('(b) ratio, wall time', `${fmt(ours.wall / baseline.wall, 3)}x`);
  report('(b) ratio, CPU time of all threads', `${fmt(ours.cpu / baseline.cpu, 3)}x`);
  report(
    "(b') same, neither side storing (wall / CPU)",
    `${fmt(oursNoStore.wall / baseline.wall, 3)}x / ${fmt(oursNoStore.cpu / baseline.cpu, 3)}x`,
  );
  report(
    "(b'') same, both sides storing (wall / CPU)",
    `${fmt(ours.wall / baselineKeep.wall, 3)}x / ${fmt(ours.cpu / baselineKeep.cpu, 3)}x`,
  );
}

/** (c) put+take throughput of the memory store, empty and full, interleaved with a bare Map. */
export async function benchTransactionStore(): Promise<void> {
  const FULL = 10_000;
  const PER_ROUND = 20_000;
  const ROUNDS = 8;
  const template: Omit<Transaction, 'state' | 'expiresAt'> = {
    nonce: 'bench-nonce',
    codeVerifier: 'bench-verifier',
    responseType: 'code',
    affiliation: 'student',
    scopes: ['openid', 'student'],
    redirectUri: REDIRECT_URI,
    createdAt: Date.now(),
  };
  const batch = (n: number): Transaction[] => {
    const expiresAt = Date.now() + 10 * 60_000;
    const out: Transaction[] = [];
    for (let i = 0; i < n; i++)
      out.push({ ...template, state: randomBytes(32).toString('base64url'), expiresAt });
    return out;
  };
  // The store's own bookkeeping, without the browser binding (whose take needs the callback's
  // cookies, and which the code flow's figure (a) includes): what the Map baseline compares with.
  const empty = new MemoryTransactionStore({ bindToBrowser: false });
  const full = new MemoryTransactionStore({ maxEntries: FULL, bindToBrowser: false });
  // Fill: FULL remembered (taken) states, then FULL held ones. Every put then evicts the oldest
  // held transaction and every take the oldest remembered state: the steady state of a busy shop.
  for (const tx of batch(FULL)) {
    await full.put(tx);
    await full.take(tx.state);
  }
  for (const tx of batch(FULL)) await full.put(tx);
  const map = new Map<string, Transaction>();
  const sides: Record<string, (tx: Transaction) => Promise<unknown>> = {
    map: async (tx) => {
      await Promise.resolve(map.set(tx.state, tx));
      await Promise.resolve(map.delete(tx.state));
    },
    empty: async (tx) => {
      await empty.put(tx);
      await empty.take(tx.state);
    },
    full: async (tx) => {
      await full.put(tx);
      await full.take(tx.state);
    },
  };
  const time: Record<string, number> = { map: 0, empty: 0, full: 0 };
  const names = Object.keys(sides);
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const txs = batch(PER_ROUND);
      const fn = sides[name] as (tx: Transaction) => Promise<unknown>;
      const start = performance.now();
      for (const tx of txs) await fn(tx);
      // The first round warms up.
      if (round > 0) time[name] = (time[name] ?? 0) + performance.now() - start;
    }
  }
  const ops = (name: string) => (ROUNDS * PER_ROUND * 1000) / (time[name] ?? Number.NaN);
  report('(c) bare Map set+delete, same awaits (baseline)', ops('map'), 'ops/s');
  report('(c) MemoryTransactionStore put+take, empty', ops('empty'), 'ops/s');
  report('(c) same, full (10,000 held + 10,000 remembered)', ops('full'), 'ops/s');
  report('(c) full / empty', `${fmt(ops('full') / ops('empty'), 3)}x`);
  // After each put+take the full store is back to FULL - 1 held (the put evicted the oldest).
  if (full.size !== FULL - 1) throw new Error(`the full store holds ${full.size}, not ${FULL - 1}`);
}

export default async function run(): Promise<void> {
  await benchCodeFlow();
  await benchAuthorizationRequest();
  await benchTransactionStore();
}
