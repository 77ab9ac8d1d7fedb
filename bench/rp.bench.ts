/**
 * RP core benchmarks, each against a baseline measured in the same run:
 * (a) `validateCallback` on the `id_token` path with warm keys vs bare `jose.jwtVerify` of the same
 *     tokens (target ≥ 0.85: all our checks and the transaction store cost ≤ 15 %);
 * (b) `createAuthorizationRequest` vs openid-client `buildAuthorizationUrl` plus PKCE generation
 *     (target ≥ 1.0);
 * (c) `MemoryTransactionStore` put+take with an empty store and with a full one (10,000 held and
 *     10,000 remembered states), against a bare `Map` set+delete behind the same awaits.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import type { CryptoKey } from 'jose';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import * as oidc from 'openid-client';
import { AffiliationClient } from '../src/rp/client.js';
import { MemoryTransactionStore } from '../src/rp/transactions/index.js';
import type { Transaction } from '../src/rp/types.js';
import { fmt, report } from './util.js';

const ISSUER = 'https://op.bench.example';
const CLIENT_ID = 'bench-client';
const REDIRECT_URI = 'https://shop.bench.example/callback';
const TOKENS = 4000;
const WARMUP = 300;
const BATCH = 50;

async function setup() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench-1', alg: 'RS256', use: 'sig' };
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
  // An in-process OP for discovery and keys: no network in benchmarks.
  const fetch = async (input: string | URL | Request) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.endsWith('/.well-known/openid-configuration')) return Response.json(metadata);
    if (url === metadata.jwks_uri) return Response.json({ keys: [jwk] });
    return new Response('not found', { status: 404 });
  };
  return { privateKey, publicKey, metadata, fetch: fetch as typeof globalThis.fetch };
}

async function mint(
  privateKey: CryptoKey,
  authorizationUrl: string,
): Promise<{ callback: string; token: string }> {
  const params = new URL(authorizationUrl).searchParams;
  const now = Math.floor(Date.now() / 1000);
  const scope = (params.get('scope') ?? '').split(' ');
  const token = await new SignJWT({
    nonce: params.get('nonce'),
    auth_time: now,
    requested_scopes: { values: scope },
    returned_scopes: { values: ['openid', 'student', 'transient'] },
    transaction_id: randomUUID(),
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'bench-1' })
    .setIssuer(ISSUER)
    .setAudience(CLIENT_ID)
    .setSubject(`t-${randomUUID()}`)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(privateKey);
  const fragment = new URLSearchParams({ id_token: token, state: params.get('state') ?? '' });
  return { callback: `${REDIRECT_URI}#${fragment}`, token };
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

/**
 * (a) Warm keys, the `id_token` path: our whole callback validation (parsing the callback URL,
 * taking the transaction from the store, signature and every claim check, the result) against
 * bare `jose.jwtVerify` of the very same tokens with the same key and `algorithms` pinned.
 */
export async function benchValidateCallback(): Promise<void> {
  const { privateKey, publicKey, fetch } = await setup();
  const client = await AffiliationClient.discover({
    issuer: ISSUER,
    clientId: CLIENT_ID,
    clientSecret: 'bench-secret-value',
    redirectUri: REDIRECT_URI,
    responseType: 'id_token',
    transactions: new MemoryTransactionStore(),
    fetch,
  });
  const pinned = { algorithms: ['RS256'] };
  /** Start `n` validations and mint the OP's answers (not timed). */
  const prepare = async (n: number) => {
    // Each callback with the cookies of the browser that started it (a fresh one each time).
    const callbacks: [string, { cookie: string }][] = [];
    const tokens: string[] = [];
    for (let i = 0; i < n; i++) {
      const { url, setCookie } = await client.createAuthorizationRequest(
        { affiliation: 'student' },
        { cookie: '' },
      );
      const minted = await mint(privateKey, url);
      callbacks.push([minted.callback, { cookie: (setCookie ?? '').split(';')[0] ?? '' }]);
      tokens.push(minted.token);
    }
    return { callbacks, tokens };
  };
  // Warm up both paths (keys fetched and imported, JIT warm) outside the measurement.
  const warm = await prepare(WARMUP);
  for (const [cb, cookie] of warm.callbacks) await client.validateCallback(cb, cookie);
  for (const t of warm.tokens) await jwtVerify(t, publicKey, pinned);

  // Small batches, prepared just before they are timed: the store holds about one batch of open
  // transactions, like a shop with that many shoppers at the service at once. The baseline verifies
  // the very same tokens. Consecutive batches swap which side goes first (A B, B A: ABBA), so load
  // from other processes, GC and position effects hit both sides alike.
  let ours = { wall: 0, cpu: 0 };
  let jose = { wall: 0, cpu: 0 };
  const ratios: number[] = [];
  for (let batch = 0; batch * BATCH < TOKENS; batch++) {
    const { callbacks, tokens } = await prepare(BATCH);
    const runJose = () =>
      measure(async () => {
        for (const t of tokens) await jwtVerify(t, publicKey, pinned);
      });
    const runOurs = () =>
      measure(async () => {
        for (const [cb, cookie] of callbacks) await client.validateCallback(cb, cookie);
      });
    const joseBefore = batch % 2 === 0 ? await runJose() : undefined;
    const oursTime = await runOurs();
    const joseTime = joseBefore ?? (await runJose());
    jose = { wall: jose.wall + joseTime.wall, cpu: jose.cpu + joseTime.cpu };
    ours = { wall: ours.wall + oursTime.wall, cpu: ours.cpu + oursTime.cpu };
    ratios.push(joseTime.wall / oursTime.wall);
  }
  ratios.sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)] ?? Number.NaN;
  const wallRatio = jose.wall / ours.wall;
  const cpuRatio = jose.cpu / ours.cpu;
  report('(a) jose.jwtVerify, algorithms pinned (baseline)', (TOKENS * 1000) / jose.wall, 'ops/s');
  report('(a) validateCallback, id_token path, warm keys', (TOKENS * 1000) / ours.wall, 'ops/s');
  report('(a) ratio, wall time (target >= 0.85)', `${fmt(wallRatio, 3)}x`);
  report('(a) ratio, median of the batches', `${fmt(median, 3)}x`);
  report('(a) ratio, CPU time of all threads', `${fmt(cpuRatio, 3)}x`);
  report(
    '(a) target >= 0.85 met (wall / CPU)',
    `${wallRatio >= 0.85 ? 'yes' : 'NO'} / ${cpuRatio >= 0.85 ? 'yes' : 'NO'} (load ${loadAverage()})`,
  );
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
  report('(b) ratio, wall time (target >= 1.0)', `${fmt(ours.wall / baseline.wall, 3)}x`);
  report('(b) target >= 1.0 met (wall)', ours.wall / baseline.wall >= 1 ? 'yes' : 'NO');
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
  const empty = new MemoryTransactionStore();
  const full = new MemoryTransactionStore({ maxEntries: FULL });
  // Fill: FULL remembered (taken) states, then FULL held ones. Every put then evicts the oldest
  // held transaction and every take the oldest remembered state: the steady state of a busy shop.
  /** put + take, the take with the binding cookie the put set (each from its own browser). */
  const putTake = async (store: MemoryTransactionStore, tx: Transaction) => {
    const set = await store.put(tx, { cookie: '' });
    await store.take(tx.state, { cookie: (set ?? '').split(';')[0] ?? '' });
  };
  for (const tx of batch(FULL)) await putTake(full, tx);
  for (const tx of batch(FULL)) await full.put(tx);
  const map = new Map<string, Transaction>();
  const sides: Record<string, (tx: Transaction) => Promise<unknown>> = {
    map: async (tx) => {
      await Promise.resolve(map.set(tx.state, tx));
      await Promise.resolve(map.delete(tx.state));
    },
    empty: (tx) => putTake(empty, tx),
    full: (tx) => putTake(full, tx),
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
  await benchValidateCallback();
  await benchAuthorizationRequest();
  await benchTransactionStore();
}
