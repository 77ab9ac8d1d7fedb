/**
 * Rules of spec/oidc-interface.md on the RP side that need a claim broken on purpose: the msw OP
 * mock of test/helpers (onUnhandledRequest 'error').
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/rp/errors.js';
import { MemoryTransactionStore } from '../../src/rp/transactions/index.js';
import type { Transaction, TransactionStore } from '../../src/rp/types.js';
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

/** A store that answers every state with the transaction stored last (a broken custom store). */
class LastTransactionStore implements TransactionStore {
  readonly inner = new MemoryTransactionStore({ bindToBrowser: false });
  last: Transaction | undefined;
  async put(transaction: Transaction) {
    this.last = transaction;
    await this.inner.put(transaction);
    return undefined;
  }
  async take() {
    return this.last;
  }
}

describe('spec 2.1 / 3: the state returned to redirect_uri belongs to this transaction', () => {
  it('spec 3: a transaction store answering with the transaction of another state is refused (state_mismatch), and the code is never exchanged', async () => {
    const store = new LastTransactionStore();
    const client = await newClient({ transactions: store });
    const first = await client.createAuthorizationRequest({ affiliation: 'student' });
    const callback = await op.authorize(first.url);
    await client.createAuthorizationRequest({ affiliation: 'employee' });
    const tokenCalls = op.counts.token;
    const error = await rejection(client.validateCallback(callback));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe('state_mismatch');
    expect(op.counts.token).toBe(tokenCalls);
  });
});
