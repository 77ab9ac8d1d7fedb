/**
 * Rules of spec/oidc-interface.md on the RP side that need a claim broken on purpose: the msw OP
 * mock of test/helpers (onUnhandledRequest 'error').
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/rp/errors.js';
import { newClient, rejection, roundTrip, useOp } from '../helpers/setup.js';

const { op } = useOp();

describe.each(['code', 'id_token'] as const)('spec 2.4 reuse_detection on the %s flow', (responseType) => {
  it.each([
    ['a string', 'rd-1'],
    ['a list holding a number', ['rd-1', 7]],
    ['an object', { values: ['rd-1'] }],
  ])('spec 2.4: reuse_detection must be a list of opaque strings — %s is rejected', async (_name, value) => {
    const client = await newClient({ responseType });
    op.knobs = { claims: (c) => (c.reuse_detection = value) };
    const error = await rejection(
      roundTrip(client, op, { affiliation: 'student', claims: { id_token: { reuse_detection: null } } }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe('requested_claims_mismatch');
  });

  it('spec 2.4: a list of strings is returned as sent', async () => {
    const client = await newClient({ responseType });
    op.knobs = { claims: (c) => (c.reuse_detection = ['a', 'b', 'c']) };
    const result = await roundTrip(client, op, {
      affiliation: 'student',
      claims: { id_token: { reuse_detection: null } },
    });
    expect(result.reuseDetection).toEqual(['a', 'b', 'c']);
  });
});
