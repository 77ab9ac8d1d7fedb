/**
 * RP core benchmarks, each against a baseline measured in the same run:
 * (a) `validateCallback` on the `id_token` path with warm keys vs bare `jose.jwtVerify` of the same
 *     tokens (target ≥ 0.85: all our checks and the transaction store cost ≤ 15 %);
 * (b) `createAuthorizationRequest` vs openid-client `buildAuthorizationUrl` plus PKCE generation
 *     (target ≥ 1.0).
 */
import { randomUUID } from 'node:crypto';
import type { CryptoKey } from 'jose';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import * as oidc from 'openid-client';
import { AffiliationClient } from '../src/rp/client.js';
import { MemoryTransactionStore } from '../src/rp/transactions/index.js';
import { fmt, opsPerSecond, report } from './util.js';

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

async function benchValidateCallback(): Promise<void> {
  const { privateKey, publicKey, fetch } = await setup();
  const client = await AffiliationClient.discover({
    issuer: ISSUER,
    clientId: CLIENT_ID,
    clientSecret: 'bench-secret-value',
    redirectUri: REDIRECT_URI,
    responseType: 'id_token',
    transactions: new MemoryTransactionStore({ maxEntries: 4 * TOKENS }),
    fetch,
  });
  const callbacks: string[] = [];
  const tokens: string[] = [];
  for (let i = 0; i < TOKENS + WARMUP; i++) {
    const { url } = await client.createAuthorizationRequest({ affiliation: 'student' });
    const minted = await mint(privateKey, url);
    callbacks.push(minted.callback);
    tokens.push(minted.token);
  }
  // Warm up both paths (keys fetched and imported, JIT warm) with tokens outside the measurement.
  for (const cb of callbacks.splice(0, WARMUP)) await client.validateCallback(cb);
  for (const t of tokens.splice(0, WARMUP)) await jwtVerify(t, publicKey);

  // Interleave small batches so that load from other processes, GC and CPU frequency changes hit
  // both sides alike; each batch of ours uses fresh callbacks (a transaction is taken once), the
  // baseline verifies the very same tokens.
  let oursMs = 0;
  let joseMs = 0;
  const ratios: number[] = [];
  for (let from = 0; from < TOKENS; from += BATCH) {
    const batchTokens = tokens.slice(from, from + BATCH);
    const batchCallbacks = callbacks.slice(from, from + BATCH);
    const runJose = async () => {
      const start = performance.now();
      for (const t of batchTokens) await jwtVerify(t, publicKey);
      return performance.now() - start;
    };
    const runOurs = async () => {
      const start = performance.now();
      for (const cb of batchCallbacks) await client.validateCallback(cb);
      return performance.now() - start;
    };
    // ABBA: alternate which side goes first, so position effects cancel out.
    const joseFirst = (from / BATCH) % 2 === 0;
    const joseBefore = joseFirst ? await runJose() : undefined;
    const oursTime = await runOurs();
    const joseTime = joseBefore ?? (await runJose());
    joseMs += joseTime;
    oursMs += oursTime;
    ratios.push(joseTime / oursTime);
  }
  const oursOps = (TOKENS * 1000) / oursMs;
  const joseOps = (TOKENS * 1000) / joseMs;
  ratios.sort((a, b) => a - b);
  const median = ratios[Math.floor(ratios.length / 2)] ?? Number.NaN;
  report('(a) jose.jwtVerify (baseline)', joseOps, 'ops/s');
  report('(a) validateCallback, id_token path, warm keys', oursOps, 'ops/s');
  report('(a) ratio of totals (target >= 0.85)', `${fmt(oursOps / joseOps, 3)}x`);
  report('(a) median ratio of interleaved batches', `${fmt(median, 3)}x`);
}

/** Interleave short timed rounds of several functions; ops/s per function over all rounds. */
async function interleaved(
  fns: Record<string, () => unknown>,
  rounds = 8,
  ms = 150,
): Promise<Record<string, number>> {
  const total: Record<string, number> = {};
  for (const name of Object.keys(fns)) total[name] = 0;
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(fns))
      total[name] = (total[name] ?? 0) + (await opsPerSecond(fn, ms));
  }
  for (const name of Object.keys(total)) total[name] = (total[name] ?? 0) / rounds;
  return total;
}

async function benchAuthorizationRequest(): Promise<void> {
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
  const { baseline = 0, baselineKeep = 0, ours = 0, oursNoStore = 0 } = ops;
  report('(b) openid-client buildAuthorizationUrl + PKCE', baseline, 'ops/s');
  report('(b) createAuthorizationRequest (default store)', ours, 'ops/s');
  report('(b) ratio (target >= 1.0)', `${fmt(ours / baseline, 3)}x`);
  report("(b') same, neither side storing", `${fmt(oursNoStore / baseline, 3)}x`);
  report("(b'') same, both sides storing (bounded Map)", `${fmt(ours / baselineKeep, 3)}x`);
}

export default async function run(): Promise<void> {
  await benchValidateCallback();
  await benchAuthorizationRequest();
}
