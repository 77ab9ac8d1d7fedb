import { afterEach, describe, expect, it, vi } from 'vitest';
import { testKey } from '../helpers/op-mock.js';
import { newClient, rejection, roundTrip, useOp } from '../helpers/setup.js';

const { op } = useOp();

afterEach(async () => {
  vi.useRealTimers();
  op.signing = await testKey('key-1');
  op.published = [op.signing];
});

describe.each(['code', 'id_token'] as const)('key rotation on the %s flow', (responseType) => {
  it('an unknown kid → one refetch → success (openid-client would wait 60 s)', async () => {
    const client = await newClient({ responseType });
    await roundTrip(client, op);
    const fetched = op.counts.jwks;
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
    const client = await newClient({ responseType });
    await roundTrip(client, op);
    const fetched = op.counts.jwks;
    op.knobs = { signWith: await testKey('ghost') };
    for (let i = 0; i < 5; i++) {
      const error = await rejection(roundTrip(client, op));
      expect(error.code).toBe('signature_invalid');
    }
    expect(op.counts.jwks - fetched).toBe(1);
  });
});

describe('refetch limits', () => {
  it('concurrent tokens with a new kid share one refetch (single-flight)', async () => {
    const client = await newClient({ responseType: 'id_token' });
    await roundTrip(client, op);
    const fetched = op.counts.jwks;
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
    op.knobs = { signWith: await testKey('ghost-2') };
    await rejection(roundTrip(client, op));
    await rejection(roundTrip(client, op));
    expect(op.counts.jwks - fetched).toBe(1);
    vi.setSystemTime(Date.now() + 31_000);
    await rejection(roundTrip(client, op));
    expect(op.counts.jwks - fetched).toBe(2);
  });
});
