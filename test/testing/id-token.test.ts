import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningTestProvider, TestProvider } from '../../src/testing.js';
import {
  authUrl,
  CLIENT_ID,
  codeFlow,
  decodePayload,
  exchange,
  OTHER_CLIENT_ID,
  POLYTECHNIC,
  pkce,
  REDIRECT_URI,
  resultOf,
  testClients,
  UNIVERSITY,
  verifyIdToken,
} from './helpers.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
let op: RunningTestProvider;
let clock = Date.UTC(2031, 2, 3, 9, 0, 0);

beforeAll(async () => {
  op = await TestProvider.start({
    clients: [
      ...testClients,
      { clientId: 'no-claims-shop', clientSecret: 'no-claims-secret', redirectUris: [REDIRECT_URI] },
    ],
    now: () => clock,
  });
});
afterAll(() => op.close());

const values = (claim: unknown) => (claim as { values: string[] }).values;

/** The id_token flow: the ID token arrives in the fragment. */
async function implicitToken(
  params: Parameters<typeof authUrl>[1] = {},
  institution?: string,
): Promise<string> {
  const location = await op.authorize(
    authUrl(op, { response_type: 'id_token', ...params }),
    institution ? { institution } : {},
  );
  const { where, params: result } = resultOf(location);
  expect(where).toBe('fragment');
  const idToken = result.get('id_token');
  if (idToken === null) throw new Error(location);
  return idToken;
}

describe('ID token claims (spec 2.4), code flow', () => {
  it('carries iss, aud (a list), sub, nonce, auth_time, iat, exp = auth_time + 60 min, at_hash', async () => {
    const { verifier, challenge } = pkce();
    const location = await op.authorize(
      authUrl(op, { code_challenge: challenge, code_challenge_method: 'S256' }),
    );
    const authTime = Math.floor(clock / 1000);
    clock += 20_000; // the exchange happens later than the login
    const code = resultOf(location).params.get('code') as string;
    const tokens = (await (await exchange(op, { code, verifier })).json()) as {
      access_token: string;
      id_token: string;
    };
    const claims = await verifyIdToken(op, tokens.id_token);
    expect(claims.iss).toBe(op.issuer);
    expect(claims.aud).toEqual([CLIENT_ID]);
    expect(claims.sub).toEqual(expect.any(String));
    expect(claims.nonce).toBe('nonce-1');
    expect(claims.auth_time).toBe(authTime);
    expect(claims.iat).toBe(authTime + 20);
    expect(claims.exp).toBe(authTime + 3600);
    const digest = createHash('sha256').update(tokens.access_token).digest();
    expect(claims.at_hash).toBe(digest.subarray(0, 16).toString('base64url'));
    const header = JSON.parse(Buffer.from(tokens.id_token.split('.')[0] ?? '', 'base64url').toString());
    expect(header).toEqual({ alg: 'RS256', kid: op.signingKeyId, typ: 'JWT' });
  });

  it('reports requested_scopes (with openid) and returned_scopes with the implicit transient', async () => {
    const { claims } = await codeFlow(op, { scope: 'openid student' });
    expect(values(claims.requested_scopes)).toEqual(['openid', 'student']);
    expect(values(claims.returned_scopes)).toEqual(['openid', 'student', 'transient']);
  });

  it('adds openid to requested_scopes when the request lacked it', async () => {
    const { claims } = await codeFlow(op, { scope: 'member persistent' });
    expect(values(claims.requested_scopes)).toEqual(['openid', 'member', 'persistent']);
    expect(values(claims.returned_scopes)).toEqual(['openid', 'member', 'persistent']);
  });

  it('confirms faculty+staff sent as %2B and keeps further scopes', async () => {
    op.scriptLogin({ affiliations: ['staff'] });
    const { claims } = await codeFlow(op, { scope: 'openid faculty+staff transient profile' });
    expect(values(claims.requested_scopes)).toEqual(['openid', 'faculty+staff', 'transient', 'profile']);
    expect(values(claims.returned_scopes)).toEqual(['openid', 'faculty+staff', 'transient', 'profile']);
  });

  it('has a UUID v4 transaction_id, new for each transaction', async () => {
    const a = await codeFlow(op);
    const b = await codeFlow(op);
    expect(a.claims.transaction_id).toMatch(UUID_V4);
    expect(b.claims.transaction_id).toMatch(UUID_V4);
    expect(a.claims.transaction_id).not.toBe(b.claims.transaction_id);
  });

  it('has requested_claims equal to the claims request as sent, and none when none was sent', async () => {
    const request = { id_token: { reuse_detection: null } };
    expect((await codeFlow(op, { claims: request })).claims.requested_claims).toEqual(request);
    expect((await codeFlow(op)).claims).not.toHaveProperty('requested_claims');
  });
});

describe('sub (spec 2.2, 2.4)', () => {
  it('is unique per transaction for transient, explicit or implicit', async () => {
    op.scriptLogin({ userId: 'alice' }, { userId: 'alice' }, { userId: 'alice' });
    const subs = [
      (await codeFlow(op, { scope: 'openid student' })).claims.sub,
      (await codeFlow(op, { scope: 'openid student transient' })).claims.sub,
      (await codeFlow(op, { scope: 'openid student transient' })).claims.sub,
    ];
    expect(new Set(subs).size).toBe(3);
  });

  it('is stable per user and client for persistent, and differs between users and between clients', async () => {
    const persistent = { scope: 'openid student persistent' };
    op.scriptLogin({ userId: 'alice' }, { userId: 'alice' }, { userId: 'bob' });
    const alice1 = (await codeFlow(op, persistent)).claims.sub;
    const alice2 = (await codeFlow(op, persistent)).claims.sub;
    const bob = (await codeFlow(op, persistent)).claims.sub;
    expect(alice1).toBe(alice2);
    expect(bob).not.toBe(alice1);

    // The same user at another client gets another subject (pairwise).
    op.registerClient({ clientId: 'shop-2', clientSecret: 'shop-2-secret', redirectUris: [REDIRECT_URI] });
    op.scriptLogin({ userId: 'alice' });
    const { verifier, challenge } = pkce();
    const location = await op.authorize(
      authUrl(op, {
        client_id: 'shop-2',
        scope: 'openid student persistent',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    const code = resultOf(location).params.get('code') as string;
    const body = (await (
      await exchange(op, { code, verifier, clientId: 'shop-2', clientSecret: 'shop-2-secret' })
    ).json()) as {
      id_token: string;
    };
    expect(decodePayload(body.id_token).sub).not.toBe(alice1);
  });

  it('is the same for persistent in both flows', async () => {
    op.scriptLogin({ userId: 'carol' }, { userId: 'carol' });
    const viaCode = (await codeFlow(op, { scope: 'openid student persistent' })).claims.sub;
    const viaImplicit = decodePayload(await implicitToken({ scope: 'openid student persistent' })).sub;
    expect(viaImplicit).toBe(viaCode);
  });

  it('falls back to transient when the institution does not support persistent identifiers', async () => {
    op.scriptLogin({ userId: 'dave' }, { userId: 'dave' });
    const a = await codeFlow(op, { scope: 'openid student persistent' }, { institution: POLYTECHNIC });
    const b = await codeFlow(op, { scope: 'openid student persistent' }, { institution: POLYTECHNIC });
    expect(values(a.claims.requested_scopes)).toContain('persistent');
    expect(values(a.claims.returned_scopes)).toEqual(['openid', 'student', 'transient']);
    expect(a.claims.sub).not.toBe(b.claims.sub);
  });

  it('stays stable across providers that share subjectSecret', async () => {
    const one = await TestProvider.start({
      clients: testClients,
      subjectSecret: 'fixed-secret',
      signingAlg: 'ES256',
    });
    const two = await TestProvider.start({
      clients: testClients,
      subjectSecret: 'fixed-secret',
      signingAlg: 'ES256',
    });
    try {
      const a = await codeFlow(one, { scope: 'openid student persistent' });
      const b = await codeFlow(two, { scope: 'openid student persistent' });
      expect(a.claims.sub).toBe(b.claims.sub);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});

describe('reuse_detection (spec 2.3): only when requested, allowed and released', () => {
  const request = { id_token: { reuse_detection: null } };

  it('is in the ID token when all three hold, with the scripted values', async () => {
    op.scriptLogin({ reuseDetection: ['rd-1', 'rd-2'] });
    const { claims } = await codeFlow(op, { claims: request }, { institution: UNIVERSITY });
    expect(claims.reuse_detection).toEqual(['rd-1', 'rd-2']);
  });

  it('defaults to a value stable per user and institution', async () => {
    op.scriptLogin({ userId: 'erin' }, { userId: 'erin' });
    const a = (await codeFlow(op, { claims: request })).claims.reuse_detection;
    const b = (await codeFlow(op, { claims: request })).claims.reuse_detection;
    expect(a).toEqual(b);
    expect(a).toHaveLength(1);
  });

  it('is absent when not requested', async () => {
    expect((await codeFlow(op)).claims).not.toHaveProperty('reuse_detection');
  });

  it('is absent when the client is not allowed to obtain it', async () => {
    const { verifier, challenge } = pkce();
    const location = await op.authorize(
      authUrl(op, {
        client_id: 'no-claims-shop',
        claims: request,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    const code = resultOf(location).params.get('code') as string;
    const body = (await (
      await exchange(op, { code, verifier, clientId: 'no-claims-shop', clientSecret: 'no-claims-secret' })
    ).json()) as { id_token: string };
    expect(decodePayload(body.id_token)).not.toHaveProperty('reuse_detection');
    expect(decodePayload(body.id_token).requested_claims).toEqual(request);
  });

  it('is absent when the institution does not release it', async () => {
    const { claims } = await codeFlow(op, { claims: request }, { institution: POLYTECHNIC });
    expect(claims).not.toHaveProperty('reuse_detection');
  });

  it('is absent when the institution releases no value for this user', async () => {
    op.scriptLogin({ reuseDetection: [] });
    expect((await codeFlow(op, { claims: request })).claims).not.toHaveProperty('reuse_detection');
  });
});

describe('response_type=id_token (spec 4.2)', () => {
  it('returns the ID token and the state in the fragment, with the claims of spec 2.4 and no at_hash', async () => {
    op.scriptLogin({ reuseDetection: ['rd-x'] });
    const idToken = await implicitToken({
      claims: { id_token: { reuse_detection: null }, userinfo: { reuse_detection: null } },
    });
    const claims = await verifyIdToken(op, idToken);
    expect(claims).toMatchObject({
      iss: op.issuer,
      aud: [CLIENT_ID],
      nonce: 'nonce-1',
      reuse_detection: ['rd-x'],
    });
    expect(values(claims.returned_scopes)).toEqual(['openid', 'student', 'transient']);
    expect(claims.transaction_id).toMatch(UUID_V4);
    expect(claims).not.toHaveProperty('at_hash');
    expect((claims.exp as number) - (claims.auth_time as number)).toBe(3600);
    const location = await op.authorize(authUrl(op, { response_type: 'id_token' }));
    expect(resultOf(location).params.get('state')).toBe('state-1');
    expect(new URL(location).search).toBe('');
  });

  it('is refused for a client registered for code only', async () => {
    const location = await op.authorize(
      authUrl(op, { client_id: OTHER_CLIENT_ID, response_type: 'id_token' }),
    );
    expect(resultOf(location).params.get('error_description')).toBe('Response type is not registered');
  });

  it('computes at_hash with the hash of the signing algorithm (SHA-384 for ES384)', async () => {
    const p384 = await TestProvider.start({ clients: testClients, signingAlg: 'ES384' });
    try {
      const { tokens, claims } = await codeFlow(p384);
      const digest = createHash('sha384').update(tokens.access_token).digest();
      expect(claims.at_hash).toBe(digest.subarray(0, 24).toString('base64url'));
    } finally {
      await p384.close();
    }
  });

  it('honours idTokenTtlSeconds', async () => {
    const short = await TestProvider.start({
      clients: testClients,
      idTokenTtlSeconds: 300,
      signingAlg: 'ES256',
    });
    try {
      const { claims } = await codeFlow(short);
      expect((claims.exp as number) - (claims.auth_time as number)).toBe(300);
    } finally {
      await short.close();
    }
  });
});
