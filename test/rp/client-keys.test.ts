import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KEY_REFRESH_INTERVAL_MS } from '../../src/rp/engine.js';
import { JWKS_URI, testKey } from '../helpers/op-mock.js';
import { newClient, rejection, roundTrip, useOp } from '../helpers/setup.js';

const { op, server } = useOp();

afterEach(async () => {
  vi.useRealTimers();
  op.signing = await testKey('key-1');
  op.published = [op.signing];
});

/** No second refresh for an unknown kid within 10 s of a refresh. */
const COOLDOWN_MS = KEY_REFRESH_INTERVAL_MS;

describe.each(['code', 'id_token'] as const)('key rotation on the %s flow', (responseType) => {
  it('an unknown kid → one refetch → success, once the cooldown since the last fetch has passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = await newClient({ responseType });
    await roundTrip(client, op);
    const fetched = op.counts.jwks;
    vi.setSystemTime(Date.now() + COOLDOWN_MS + 1);
    const next = await testKey(`rotated-${responseType}`);
    op.signing = next;
    op.published = [next];
    await expect(roundTrip(client, op)).resolves.toMatchObject({ affiliation: 'student' });
    expect(op.counts.jwks - fetched).toBe(1);
    // The new key is cached now.
    await roundTrip(client, op);
    expect(op.counts.jwks - fetched).toBe(1);
  });

  it('a kid that stays unknown → signature_invalid after one refetch, and no refetch storm', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = await newClient({ responseType });
    await roundTrip(client, op);
    const fetched = op.counts.jwks;
    vi.setSystemTime(Date.now() + COOLDOWN_MS + 1);
    op.knobs = { signWith: await testKey('ghost') };
    for (let i = 0; i < 5; i++) {
      const error = await rejection(roundTrip(client, op));
      expect(error.code).toBe('signature_invalid');
    }
    expect(op.counts.jwks - fetched).toBe(1);
  });

  it('an unknown kid right after the first fetch → one refresh; another within 10 s of it → no refetch', async () => {
    const client = await newClient({ responseType });
    await roundTrip(client, op);
    const fetched = op.counts.jwks;
    op.knobs = { signWith: await testKey(`early-${responseType}`) };
    expect((await rejection(roundTrip(client, op))).code).toBe('signature_invalid');
    expect(op.counts.jwks - fetched).toBe(1);
    op.knobs = { signWith: await testKey(`early-2-${responseType}`) };
    expect((await rejection(roundTrip(client, op))).code).toBe('signature_invalid');
    expect(op.counts.jwks - fetched).toBe(1);
  });
});

describe('refetch limits', () => {
  it('concurrent tokens with a new kid share one refetch (single-flight)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = await newClient({ responseType: 'id_token' });
    await roundTrip(client, op);
    const fetched = op.counts.jwks;
    vi.setSystemTime(Date.now() + COOLDOWN_MS + 1);
    const next = await testKey('rotated-concurrent');
    op.signing = next;
    op.published = [next];
    const results = await Promise.all(Array.from({ length: 5 }, () => roundTrip(client, op)));
    expect(results).toHaveLength(5);
    expect(op.counts.jwks - fetched).toBe(1);
  });

  it('allows another refetch for an unknown kid once the cooldown has passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = await newClient({ responseType: 'id_token' });
    await roundTrip(client, op);
    const fetched = op.counts.jwks;
    vi.setSystemTime(Date.now() + COOLDOWN_MS + 1);
    op.knobs = { signWith: await testKey('ghost-2') };
    await rejection(roundTrip(client, op));
    await rejection(roundTrip(client, op));
    expect(op.counts.jwks - fetched).toBe(1);
    vi.setSystemTime(Date.now() + COOLDOWN_MS + 1);
    await rejection(roundTrip(client, op));
    expect(op.counts.jwks - fetched).toBe(2);
  });
});

describe('key age', () => {
  it('fetches the keys again when they are old (openid-client: 5 minutes), so a withdrawn key stops being trusted', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const client = await newClient({ responseType: 'id_token' });
    await roundTrip(client, op);
    const fetched = op.counts.jwks;
    const next = await testKey('after-withdrawal');
    op.published = [next];
    vi.setSystemTime(Date.now() + 10 * 60_000 + 1);
    // Still signed with the withdrawn key-1: refused once the keys were refreshed.
    const error = await rejection(roundTrip(client, op));
    expect(error.code).toBe('signature_invalid');
    // The refresh for age; the keys just fetched make a second fetch for the unknown kid pointless.
    expect(op.counts.jwks - fetched).toBe(1);
  });

  it('keeps using the cached keys when the refresh fails', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const lines: string[] = [];
    const client = await newClient({ responseType: 'id_token', logger: { warn: (m) => lines.push(m) } });
    await roundTrip(client, op);
    server.use(http.get(JWKS_URI, () => new HttpResponse(null, { status: 503 })));
    vi.setSystemTime(Date.now() + 10 * 60_000 + 1);
    await expect(roundTrip(client, op)).resolves.toMatchObject({ affiliation: 'student' });
    expect(lines.some((l) => /could not refresh/.test(l))).toBe(true);
    // No new attempt within the cooldown: the next validations use the cached keys at once.
    const fetched = op.counts.jwks;
    await expect(roundTrip(client, op)).resolves.toMatchObject({ affiliation: 'student' });
    expect(op.counts.jwks).toBe(fetched);
    expect(lines.filter((l) => /could not refresh/.test(l))).toHaveLength(1);
  });

  it('without cached keys, a failing key endpoint is a TransportError with the status', async () => {
    server.use(http.get(JWKS_URI, () => new HttpResponse(null, { status: 503 })));
    const client = await newClient({ responseType: 'id_token' });
    const error = await rejection(roundTrip(client, op));
    expect(error).toMatchObject({ name: 'TransportError', code: 'http_status', status: 503 });
  });

  it.each([
    ['not JSON', () => new HttpResponse('<html>', { status: 200 })],
    ['not a key set', () => HttpResponse.json({ keys: 'none' })],
  ])('a key endpoint answering %s is a TransportError invalid_response', async (_name, answer) => {
    server.use(http.get(JWKS_URI, answer));
    const client = await newClient({ responseType: 'id_token' });
    const error = await rejection(roundTrip(client, op));
    expect(error).toMatchObject({ name: 'TransportError', code: 'invalid_response' });
    expect(error.message).toContain(JWKS_URI);
  });
});

describe.each(['code', 'id_token'] as const)('a token without kid on the %s flow', (responseType) => {
  it('is verified with the one published key of its algorithm', async () => {
    op.knobs = { header: { kid: undefined } };
    const client = await newClient({ responseType });
    await expect(roundTrip(client, op)).resolves.toMatchObject({ affiliation: 'student' });
  });

  it('→ signature_invalid when several published keys match: a kid is then required (OIDC Core §10.1)', async () => {
    const second = await testKey('second-key');
    op.published = [op.signing, second];
    op.knobs = { signWith: second, header: { kid: undefined } };
    const client = await newClient({ responseType });
    const error = await rejection(roundTrip(client, op));
    expect(error.code).toBe('signature_invalid');
    expect(error.message).toMatch(/Several keys/);
  });

  it('→ signature_invalid when none of the published keys verifies it', async () => {
    op.published = [op.signing, await testKey('second-key')];
    op.knobs = { signWith: await testKey('impostor-no-kid'), header: { kid: undefined } };
    const client = await newClient({ responseType });
    const error = await rejection(roundTrip(client, op));
    expect(error.code).toBe('signature_invalid');
  });
});
