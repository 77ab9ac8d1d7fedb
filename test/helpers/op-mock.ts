/**
 * A scriptable mock of the affiliation-validation OP for msw unit tests: discovery, JWKS, token and
 * userinfo endpoints, and an `authorize()` that plays the browser's round trip through the OP and
 * returns the callback URL. Tokens are minted with jose; knobs break each claim.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { CryptoKey, JWK, JWTPayload } from 'jose';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';

export const ISSUER = 'https://op.example.org';
export const CLIENT_ID = 'shop-client-1';
export const CLIENT_SECRET = 'client-secret-Zq8v3XkT9mW2';
export const REDIRECT_URI = 'https://shop.example.com/callback';
export const AUTHORIZATION_ENDPOINT = `${ISSUER}/Service/authorization`;
export const TOKEN_ENDPOINT = `${ISSUER}/Service/token`;
export const USERINFO_ENDPOINT = `${ISSUER}/Service/userinfo`;
export const JWKS_URI = `${ISSUER}/Service/jwks`;

export interface TestKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

const keyCache = new Map<string, Promise<TestKey>>();

/** A signing key pair; the same `name` gives the same key within a test file. */
export function testKey(name: string, alg = 'RS256'): Promise<TestKey> {
  const id = `${name}:${alg}`;
  let key = keyCache.get(id);
  if (!key) {
    key = (async () => {
      const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
      const publicJwk = { ...(await exportJWK(publicKey)), kid: name, alg, use: 'sig' };
      return { kid: name, alg, privateKey, publicJwk };
    })();
    keyCache.set(id, key);
  }
  return key;
}

/** `at_hash` for an access token (OIDC Core 3.1.3.6), SHA-256 based algorithms. */
export function atHash(accessToken: string, alg = 'RS256'): string {
  const hash = alg.endsWith('384') ? 'sha384' : alg.endsWith('512') ? 'sha512' : 'sha256';
  const digest = createHash(hash).update(accessToken).digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

/** Sign claims as a JWS with the given key (or an unsigned `none` token). */
export async function mintToken(
  claims: JWTPayload,
  key: TestKey | 'none',
  header: Record<string, unknown> = {},
): Promise<string> {
  if (key === 'none') {
    const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    return `${enc({ alg: 'none', ...header })}.${enc(claims)}.`;
  }
  return new SignJWT(claims)
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...header })
    .sign(key.privateKey);
}

/** What the OP remembers of one authorization request. */
export interface AuthRecord {
  params: URLSearchParams;
  scope: string[];
  claims: Record<string, unknown> | undefined;
  code?: string;
  accessToken?: string;
}

export interface OpMockOptions {
  issuer?: string;
  /** The discovery document's `issuer` (default: `issuer`). */
  documentIssuer?: string;
  /** Advertised signing algorithms. */
  algs?: string[];
  /** Extra or replaced discovery members. */
  discovery?: Record<string, unknown>;
}

export interface Knobs {
  /** Change the ID token claims before signing. */
  claims?: (claims: Record<string, unknown>, record: AuthRecord) => void;
  /** Extra protected-header members. */
  header?: Record<string, unknown>;
  /** Sign with this key instead of the current one ('none': unsigned). */
  signWith?: TestKey | 'none';
  /** Replace the signature with garbage. */
  corruptSignature?: boolean;
  /** Token endpoint answers this error. */
  tokenError?: { status: number; body: Record<string, unknown> };
  /** Userinfo endpoint answers this error. */
  userinfoError?: { status: number; body?: Record<string, unknown>; wwwAuthenticate?: string };
  /** Change the userinfo claims. */
  userinfo?: (claims: Record<string, unknown>) => void;
  /** Change the token response members (e.g. the access token after at_hash was computed). */
  tokenResponse?: (body: Record<string, unknown>) => void;
}

export class OpMock {
  readonly issuer: string;
  readonly documentIssuer: string;
  readonly algs: string[];
  readonly counts = { discovery: 0, jwks: 0, token: 0, userinfo: 0 };
  /** Keys served at jwks_uri. */
  published: TestKey[] = [];
  /** The key that signs. */
  signing!: TestKey;
  knobs: Knobs = {};
  /** The last token request as received. */
  lastTokenRequest: { headers: Headers; body: URLSearchParams } | undefined;
  readonly records = new Map<string, AuthRecord>();
  readonly #extraDiscovery: Record<string, unknown>;

  constructor(options: OpMockOptions = {}) {
    this.issuer = options.issuer ?? ISSUER;
    this.documentIssuer = options.documentIssuer ?? this.issuer;
    this.algs = options.algs ?? ['RS256'];
    this.#extraDiscovery = options.discovery ?? {};
  }

  async init(): Promise<this> {
    this.signing = await testKey('key-1');
    this.published = [this.signing];
    return this;
  }

  url(path: string): string {
    return `${this.issuer.replace(/\/$/, '')}${path}`;
  }

  discoveryDocument(): Record<string, unknown> {
    return {
      issuer: this.documentIssuer,
      authorization_endpoint: this.url('/Service/authorization'),
      token_endpoint: this.url('/Service/token'),
      userinfo_endpoint: this.url('/Service/userinfo'),
      jwks_uri: this.url('/Service/jwks'),
      response_types_supported: ['code', 'id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: this.algs,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      ...this.#extraDiscovery,
    };
  }

  handlers() {
    const base = this.issuer.replace(/\/$/, '');
    return [
      http.get(`${base}/.well-known/openid-configuration`, () => {
        this.counts.discovery++;
        return HttpResponse.json(this.discoveryDocument());
      }),
      http.get(`${base}/Service/jwks`, () => {
        this.counts.jwks++;
        return HttpResponse.json({ keys: this.published.map((k) => k.publicJwk) });
      }),
      http.post(`${base}/Service/token`, async ({ request }) => {
        this.counts.token++;
        const body = new URLSearchParams(await request.text());
        this.lastTokenRequest = { headers: request.headers, body };
        return this.#token(request.headers, body);
      }),
      http.get(`${base}/Service/userinfo`, ({ request }) => {
        this.counts.userinfo++;
        return this.#userinfo(request.headers);
      }),
    ];
  }

  /** Base claims for a record; knobs applied by the caller of sign. */
  baseClaims(record: AuthRecord): Record<string, unknown> {
    const now = Math.floor(Date.now() / 1000);
    const scope = record.scope;
    const affiliation = scope.find((s) => ['student', 'faculty+staff', 'employee', 'member'].includes(s));
    const identifier = scope.find((s) => s === 'persistent' || s === 'transient') ?? 'transient';
    const claims: Record<string, unknown> = {
      iss: this.documentIssuer,
      aud: [CLIENT_ID],
      sub: identifier === 'persistent' ? 'shopper-42@example.edu' : `t-${randomUUID()}`,
      nonce: record.params.get('nonce') ?? undefined,
      iat: now,
      exp: now + 3600,
      auth_time: now - 5,
      requested_scopes: { values: [...scope] },
      returned_scopes: { values: ['openid', affiliation, identifier] },
      transaction_id: randomUUID(),
    };
    if (record.claims !== undefined) claims.requested_claims = record.claims;
    const idTokenClaims = record.claims?.id_token as Record<string, unknown> | undefined;
    if (idTokenClaims && 'reuse_detection' in idTokenClaims) claims.reuse_detection = ['rd-1', 'rd-2'];
    return claims;
  }

  async signIdToken(record: AuthRecord, accessToken?: string): Promise<string> {
    const claims = this.baseClaims(record);
    if (accessToken) claims.at_hash = atHash(accessToken, this.signing.alg);
    this.knobs.claims?.(claims, record);
    let token = await mintToken(claims as JWTPayload, this.knobs.signWith ?? this.signing, this.knobs.header);
    if (this.knobs.corruptSignature) {
      const [h, p, s] = token.split('.');
      const sig = Buffer.from(s ?? '', 'base64url');
      sig[0] = (sig[0] ?? 0) ^ 0xff;
      token = `${h}.${p}.${sig.toString('base64url')}`;
    }
    return token;
  }

  /**
   * Play the OP's side of the browser round trip for an authorization URL: returns the callback
   * URL (code in the query for the code flow, id_token in the fragment for `id_token`).
   */
  async authorize(authorizationUrl: string): Promise<string> {
    const url = new URL(authorizationUrl);
    const params = url.searchParams;
    const claimsParam = params.get('claims');
    const record: AuthRecord = {
      params,
      scope: (params.get('scope') ?? '').split(' '),
      claims: claimsParam ? (JSON.parse(claimsParam) as Record<string, unknown>) : undefined,
    };
    const redirect = new URL(params.get('redirect_uri') ?? REDIRECT_URI);
    const state = params.get('state') ?? '';
    if (params.get('response_type') === 'id_token') {
      const idToken = await this.signIdToken(record);
      redirect.hash = new URLSearchParams({ id_token: idToken, state }).toString();
      return redirect.href;
    }
    const code = `code-${randomUUID()}`;
    record.code = code;
    this.records.set(code, record);
    redirect.searchParams.set('code', code);
    redirect.searchParams.set('state', state);
    return redirect.href;
  }

  async #token(headers: Headers, body: URLSearchParams): Promise<Response> {
    if (this.knobs.tokenError) {
      return HttpResponse.json(this.knobs.tokenError.body, { status: this.knobs.tokenError.status });
    }
    if (body.get('grant_type') !== 'authorization_code') {
      return HttpResponse.json(
        { error: 'invalid_grant', error_description: 'grant_type missing' },
        { status: 400 },
      );
    }
    let clientId = body.get('client_id');
    let secret = body.get('client_secret');
    const authz = headers.get('authorization');
    if (authz?.startsWith('Basic ')) {
      const [id, pw] = Buffer.from(authz.slice(6), 'base64').toString().split(':');
      clientId = decodeURIComponent(id ?? '');
      secret = decodeURIComponent(pw ?? '');
    }
    if (clientId !== CLIENT_ID || secret !== CLIENT_SECRET) {
      return HttpResponse.json(
        { error: 'invalid_client', error_description: 'bad credentials' },
        { status: 401 },
      );
    }
    const code = body.get('code') ?? '';
    const record = this.records.get(code);
    if (!record) {
      return HttpResponse.json(
        { error: 'invalid_request', error_description: 'invalid code' },
        { status: 400 },
      );
    }
    this.records.delete(code);
    const verifier = body.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (challenge !== record.params.get('code_challenge')) {
      return HttpResponse.json({ error: 'invalid_grant', error_description: 'PKCE failed' }, { status: 400 });
    }
    if (body.get('redirect_uri') !== record.params.get('redirect_uri')) {
      return HttpResponse.json(
        { error: 'invalid_grant', error_description: 'redirect_uri' },
        { status: 400 },
      );
    }
    const accessToken = `at-${randomUUID()}`;
    record.accessToken = accessToken;
    this.records.set(accessToken, record);
    const idToken = await this.signIdToken(record, accessToken);
    const payload = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString()) as {
      sub?: string;
    };
    if (payload.sub) this.subjects.set(accessToken, payload.sub);
    const response: Record<string, unknown> = {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 3600,
      id_token: idToken,
    };
    this.knobs.tokenResponse?.(response);
    return HttpResponse.json(response, { headers: { 'cache-control': 'no-store' } });
  }

  #userinfo(headers: Headers): Response {
    const e = this.knobs.userinfoError;
    if (e) {
      const init: ResponseInit = { status: e.status };
      if (e.wwwAuthenticate) init.headers = { 'www-authenticate': e.wwwAuthenticate };
      return e.body ? HttpResponse.json(e.body, init) : new HttpResponse(null, init);
    }
    const token = headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
    const record = this.records.get(token);
    if (!record) {
      return new HttpResponse(null, {
        status: 401,
        headers: { 'www-authenticate': 'Bearer error="invalid_token", error_description="unknown token"' },
      });
    }
    const claims: Record<string, unknown> = { sub: 'to-be-set' };
    this.lastUserinfoRecord = record;
    const userinfoClaims = record.claims?.userinfo as Record<string, unknown> | undefined;
    if (userinfoClaims && 'reuse_detection' in userinfoClaims) claims.reuse_detection = ['ui-rd-1'];
    claims.sub = this.subjects.get(token) ?? claims.sub;
    this.knobs.userinfo?.(claims);
    return HttpResponse.json(claims);
  }

  lastUserinfoRecord: AuthRecord | undefined;
  /** access token → the `sub` of the ID token issued with it. */
  readonly subjects = new Map<string, string>();
}

/** Start msw with the OP mock's handlers; `onUnhandledRequest: 'error'`. */
export function mswServer(...ops: OpMock[]) {
  const server = setupServer(...ops.flatMap((op) => op.handlers()));
  return server;
}
