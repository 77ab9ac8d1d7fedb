import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/rp/errors.js';
import type { Knobs } from '../helpers/op-mock.js';
import { CLIENT_ID, ISSUER, testKey } from '../helpers/op-mock.js';
import { newClient, rejection, roundTrip, useOp } from '../helpers/setup.js';

const { op } = useOp();
const now = () => Math.floor(Date.now() / 1000);

describe('a good ID token', () => {
  it('is accepted on the code flow, with the result the design gives', async () => {
    const client = await newClient();
    const result = await roundTrip(client, op, { affiliation: 'faculty+staff', identifier: 'persistent' });
    expect(result.affiliation).toBe('faculty+staff');
    expect(result.identifier).toBe('persistent');
    expect(result.subject).toBe('shopper-42@example.edu');
    expect(result.transactionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.authTime).toBeInstanceOf(Date);
    expect(result.expiresAt.getTime()).toBeGreaterThan(Date.now());
    expect(result.claims.iss).toBe(ISSUER);
    expect(result.institution).toBeUndefined();
    expect(result.userinfo).toBeUndefined();
  });

  it('is accepted on the id_token flow', async () => {
    const client = await newClient({ responseType: 'id_token' });
    const result = await roundTrip(client, op, { affiliation: 'member' });
    expect(result.affiliation).toBe('member');
    expect(result.identifier).toBe('transient');
  });

  it('accepts requested_scopes in another order (compared as a set)', async () => {
    const client = await newClient();
    op.knobs = {
      claims: (c) => {
        (c.requested_scopes as { values: string[] }).values.reverse();
      },
    };
    await expect(roundTrip(client, op, { affiliation: 'student', scopes: ['email'] })).resolves.toBeTruthy();
  });

  it('accepts several audiences when azp is the client_id', async () => {
    const client = await newClient();
    op.knobs = {
      claims: (c) => {
        c.aud = [CLIENT_ID, 'other-client'];
        c.azp = CLIENT_ID;
      },
    };
    await expect(roundTrip(client, op)).resolves.toBeTruthy();
  });

  it('reports an idpHint sent as the asserted institution', async () => {
    const client = await newClient();
    const result = await roundTrip(client, op, {
      affiliation: 'student',
      idpHint: 'https://idp.uni.example/idp',
    });
    expect(result.institution).toEqual({ entityId: 'https://idp.uni.example/idp' });
  });

  it('returns reuse_detection when requested in the ID token', async () => {
    const client = await newClient();
    const result = await roundTrip(client, op, {
      affiliation: 'student',
      claims: { id_token: { reuse_detection: null } },
    });
    expect(result.reuseDetection).toEqual(['rd-1', 'rd-2']);
  });
});

type Case = [name: string, code: string, knobs: () => Promise<Knobs> | Knobs, codeFlowOnly?: boolean];

const claim =
  (fn: (c: Record<string, unknown>) => void): (() => Knobs) =>
  () => ({ claims: fn });

const cases: Case[] = [
  ['a broken signature', 'signature_invalid', () => ({ corruptSignature: true })],
  ['alg none', 'unsupported_alg', () => ({ signWith: 'none' })],
  [
    'an algorithm the OP does not advertise',
    'unsupported_alg',
    async () => ({ signWith: await testKey('ec', 'ES256') }),
  ],
  [
    'a wrong key under the published kid',
    'signature_invalid',
    async () => ({ signWith: { ...(await testKey('impostor')), kid: 'key-1' } }),
  ],
  [
    'a key the OP never published',
    'signature_invalid',
    async () => ({ signWith: await testKey('unpublished') }),
  ],
  ['another issuer', 'issuer_mismatch', claim((c) => (c.iss = 'https://evil.example'))],
  ['the issuer with a trailing slash', 'issuer_mismatch', claim((c) => (c.iss = `${ISSUER}/`))],
  ['no issuer', 'issuer_mismatch', claim((c) => delete c.iss)],
  ['another audience', 'audience_mismatch', claim((c) => (c.aud = ['other-client']))],
  ['an audience string of another client', 'audience_mismatch', claim((c) => (c.aud = 'other-client'))],
  ['several audiences without azp', 'azp_mismatch', claim((c) => (c.aud = [CLIENT_ID, 'other']))],
  [
    'several audiences with a foreign azp',
    'azp_mismatch',
    claim((c) => {
      c.aud = [CLIENT_ID, 'other'];
      c.azp = 'other';
    }),
  ],
  ['an expired token', 'token_expired', claim((c) => (c.exp = now() - 120))],
  ['no exp', 'token_expired', claim((c) => delete c.exp)],
  ['iat in the future', 'iat_invalid', claim((c) => (c.iat = now() + 600))],
  [
    'iat a week old (with a far exp)',
    'iat_invalid',
    claim((c) => {
      c.iat = now() - 7 * 86400;
      c.exp = now() + 3600;
    }),
  ],
  ['iat before the transaction started', 'iat_invalid', claim((c) => (c.iat = now() - 300))],
  ['no iat', 'iat_invalid', claim((c) => delete c.iat)],
  ['another nonce', 'nonce_mismatch', claim((c) => (c.nonce = 'not-the-nonce'))],
  ['no nonce', 'nonce_mismatch', claim((c) => delete c.nonce)],
  ['a wrong at_hash', 'at_hash_mismatch', claim((c) => (c.at_hash = 'AAAAAAAAAAAAAAAAAAAAAA')), true],
  ['no sub', 'subject_missing', claim((c) => delete c.sub)],
  ['an empty sub', 'subject_missing', claim((c) => (c.sub = ''))],
  [
    'requested_scopes without openid',
    'requested_scopes_mismatch',
    claim((c) => (c.requested_scopes = { values: ['student'] })),
  ],
  [
    'requested_scopes with an extra value',
    'requested_scopes_mismatch',
    claim((c) => (c.requested_scopes = { values: ['openid', 'student', 'email'] })),
  ],
  ['no requested_scopes', 'requested_scopes_mismatch', claim((c) => delete c.requested_scopes)],
  [
    'requested_scopes as a string',
    'requested_scopes_mismatch',
    claim((c) => (c.requested_scopes = 'openid student')),
  ],
  [
    'returned_scopes with another affiliation',
    'returned_scopes_mismatch',
    claim((c) => (c.returned_scopes = { values: ['openid', 'employee', 'transient'] })),
  ],
  [
    'returned_scopes with persistent when none was requested',
    'returned_scopes_mismatch',
    claim((c) => (c.returned_scopes = { values: ['openid', 'student', 'persistent'] })),
  ],
  [
    'returned_scopes without the implicit transient',
    'returned_scopes_mismatch',
    claim((c) => (c.returned_scopes = { values: ['openid', 'student'] })),
  ],
  ['no returned_scopes', 'returned_scopes_mismatch', claim((c) => delete c.returned_scopes)],
  [
    'requested_claims although none were sent',
    'requested_claims_mismatch',
    claim((c) => (c.requested_claims = { id_token: { reuse_detection: null } })),
  ],
  [
    'a transaction_id that is not a UUID',
    'transaction_id_invalid',
    claim((c) => (c.transaction_id = 'tx-1')),
  ],
  ['no transaction_id', 'transaction_id_invalid', claim((c) => delete c.transaction_id)],
];

describe.each(['code', 'id_token'] as const)('an ID token defect on the %s flow', (responseType) => {
  it.each(cases.filter((c) => responseType === 'code' || !c[3]))('%s → %s', async (_name, code, knobs) => {
    const client = await newClient({ responseType });
    op.knobs = await knobs();
    const error = await rejection(roundTrip(client, op));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe(code);
  });
});

describe('service claims against the request', () => {
  it('rejects requested_claims that differ from the claims sent', async () => {
    const client = await newClient();
    op.knobs = { claims: (c) => (c.requested_claims = { userinfo: { reuse_detection: null } }) };
    const error = await rejection(
      roundTrip(client, op, { affiliation: 'student', claims: { id_token: { reuse_detection: null } } }),
    );
    expect(error.code).toBe('requested_claims_mismatch');
  });

  it('rejects a missing requested_claims when claims were sent', async () => {
    const client = await newClient();
    op.knobs = { claims: (c) => delete c.requested_claims };
    const error = await rejection(
      roundTrip(client, op, { affiliation: 'student', claims: { id_token: { reuse_detection: null } } }),
    );
    expect(error.code).toBe('requested_claims_mismatch');
  });

  it('accepts requested_claims equal to the claims sent, key order aside', async () => {
    const client = await newClient();
    op.knobs = {
      claims: (c) =>
        (c.requested_claims = { userinfo: { reuse_detection: null }, id_token: { reuse_detection: null } }),
    };
    const result = await roundTrip(client, op, {
      affiliation: 'student',
      claims: { id_token: { reuse_detection: null }, userinfo: { reuse_detection: null } },
    });
    expect(result.userinfo?.sub).toBe(result.subject);
  });

  it('accepts an empty requested_claims object when none were sent', async () => {
    const client = await newClient();
    op.knobs = { claims: (c) => (c.requested_claims = {}) };
    await expect(roundTrip(client, op)).resolves.toBeTruthy();
  });

  it('confirms an explicit transient identifier', async () => {
    const client = await newClient();
    const result = await roundTrip(client, op, { affiliation: 'employee', identifier: 'transient' });
    expect(result.identifier).toBe('transient');
  });

  it('rejects returned_scopes that confirm transient when persistent was requested', async () => {
    const client = await newClient();
    op.knobs = { claims: (c) => (c.returned_scopes = { values: ['openid', 'student', 'transient'] }) };
    const error = await rejection(
      roundTrip(client, op, { affiliation: 'student', identifier: 'persistent' }),
    );
    expect(error.code).toBe('returned_scopes_mismatch');
  });

  it('accepts an upper-case UUID transaction_id', async () => {
    const client = await newClient();
    op.knobs = { claims: (c) => (c.transaction_id = randomUUID().toUpperCase()) };
    await expect(roundTrip(client, op)).resolves.toBeTruthy();
  });
});
