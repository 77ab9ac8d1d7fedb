/**
 * The shortcuts of the warm `validateCallback` path are exactly as strict as what they replace:
 * the hand-written UUID check, the form parser's fast path, and the remembered ID token headers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AffiliationError } from '../../src/core/errors.js';
import { noopLogger } from '../../src/core/logger.js';
import { HttpClient } from '../../src/http/client.js';
import { readCallbackUrl } from '../../src/rp/callback-input.js';
import { ValidationError } from '../../src/rp/errors.js';
import { isUuid } from '../../src/rp/id-token.js';
import { KeyStore } from '../../src/rp/jwks.js';
import { mswFetch } from '../helpers/msw-fetch.js';
import { JWKS_URI, REDIRECT_URI } from '../helpers/op-mock.js';
import { newClient, rejection, roundTrip, useOp } from '../helpers/setup.js';

const { op } = useOp();

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

describe('isUuid', () => {
  it('agrees with the regular expression it replaces', () => {
    const near = fc
      .tuple(fc.uuid(), fc.nat(35), fc.constantFrom('g', 'G', '-', '0', 'A', 'f', ' ', '\u0660', ''))
      .map(([u, i, c]) => u.slice(0, i) + c + u.slice(i + 1));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uuid(),
          fc.uuid().map((u) => u.toUpperCase()),
          near,
          fc.string(),
        ),
        (s) => {
          expect(isUuid(s)).toBe(UUID_RE.test(s));
        },
      ),
      { numRuns: 2000 },
    );
    expect(isUuid('123e4567-e89b-12d3-a456-426614174000')).toBe(true);
    expect(isUuid('123E4567-E89B-12D3-A456-426614174000')).toBe(true);
    expect(isUuid('123e4567e89b-12d3-a456-426614174000-')).toBe(false);
    expect(isUuid('123e4567-e89b-12d3-a456-42661417400')).toBe(false);
  });
});

describe('the form parser fast path', () => {
  it('reads unencoded text exactly as URLSearchParams does (or refuses repeated keys)', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', 's', '=', '&', '.', '-', '_', '~', '\t', '\n'),
      maxLength: 40,
    });
    fc.assert(
      fc.property(text, (raw) => {
        const expected = new URLSearchParams(raw.replace(/[\t\n\r]/g, ''));
        const keys = [...expected.keys()];
        const repeated = new Set(keys).size !== keys.length;
        try {
          const { params } = readCallbackUrl(`${REDIRECT_URI}?${raw}`, REDIRECT_URI);
          expect(repeated).toBe(false);
          expect([...params]).toEqual([...expected]);
        } catch (error) {
          expect(error).toBeInstanceOf(AffiliationError);
          expect(repeated || keys.length === 0).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('remembered ID token headers', () => {
  it('a token whose header verified before is still verified: bad signature, other key, tampered payload', async () => {
    const client = await newClient({ responseType: 'id_token' });
    await expect(roundTrip(client, op)).resolves.toMatchObject({ affiliation: 'student' });
    await expect(roundTrip(client, op)).resolves.toMatchObject({ affiliation: 'student' });

    op.knobs = { corruptSignature: true };
    const corrupted = await rejection(roundTrip(client, op));
    expect(corrupted).toBeInstanceOf(ValidationError);
    expect(corrupted.code).toBe('signature_invalid');

    // Same header bytes (alg, kid, typ), another private key.
    const { generateKeyPair } = await import('jose');
    const { privateKey } = await generateKeyPair(op.signing.alg);
    op.knobs = { signWith: { ...op.signing, privateKey } };
    const forged = await rejection(roundTrip(client, op));
    expect(forged.code).toBe('signature_invalid');

    // A payload swapped under a header and signature that verified before.
    op.knobs = {};
    const { url } = await client.createAuthorizationRequest({ affiliation: 'student' });
    const callback = new URL(await op.authorize(url));
    const fragment = new URLSearchParams(callback.hash.slice(1));
    const [header, payload, signature] = (fragment.get('id_token') ?? '').split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    claims.sub = 'someone-else';
    fragment.set(
      'id_token',
      `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`,
    );
    callback.hash = fragment.toString();
    const tampered = await rejection(client.validateCallback(callback.href));
    expect(tampered.code).toBe('signature_invalid');

    await expect(roundTrip(client, op)).resolves.toMatchObject({ affiliation: 'student' });
  });
});

describe('KeyStore verified headers', () => {
  async function loadedStore(clock: { now: number }) {
    const keys = new KeyStore({
      jwksUri: JWKS_URI,
      http: new HttpClient({ fetch: mswFetch }),
      logger: noopLogger,
      maxAgeMs: 60_000,
      now: () => clock.now,
    });
    await keys.ensureLoaded();
    const header = { alg: op.signing.alg, kid: op.signing.kid };
    const [key] = (await keys.keysFor(header, { payload: '', signature: '' })) ?? [];
    if (!key) throw new Error('no key');
    return { keys, header, key };
  }

  it('forgets a header remembered from a key set that was replaced meanwhile', async () => {
    const clock = { now: 1_700_000_000_000 };
    const { keys, header, key } = await loadedStore(clock);
    const before = keys.generation;
    // An unknown kid makes the store fetch the keys again: a new key set.
    await rejection(keys.keysFor({ alg: header.alg, kid: 'not-published' }, { payload: '', signature: '' }));
    expect(keys.generation).not.toBe(before);
    keys.rememberVerifiedHeader('encoded-a', header, key, before);
    expect(keys.verifiedHeader('encoded-a')).toBeUndefined();
    keys.rememberVerifiedHeader('encoded-a', header, key, keys.generation);
    expect(keys.verifiedHeader('encoded-a')).toMatchObject({ alg: header.alg, keys: [key] });
  });

  it('does not answer from remembered headers once the keys are due for a refresh, and keeps at most 16', async () => {
    const clock = { now: 1_700_000_000_000 };
    const { keys, header, key } = await loadedStore(clock);
    for (let i = 0; i < 20; i++) keys.rememberVerifiedHeader(`h${i}`, header, key, keys.generation);
    expect(keys.verifiedHeader('h15')).toBeDefined();
    expect(keys.verifiedHeader('h16')).toBeUndefined();
    clock.now += 60_000;
    expect(keys.verifiedHeader('h0')).toBeUndefined();
  });
});
