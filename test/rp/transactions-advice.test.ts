import { describe, expect, it } from 'vitest';
import { ProviderError, ValidationError } from '../../src/rp/errors.js';
import { refusedCodeAsReplay } from '../../src/rp/transactions/advice.js';

describe('refusedCodeAsReplay', () => {
  it('turns the token endpoint refusing the code into replayed_transaction, keeping the answer as cause', () => {
    for (const error of ['invalid_request', 'invalid_grant']) {
      const refused = ProviderError.from({ error, source: 'token', status: 400 });
      const mapped = refusedCodeAsReplay(refused) as ValidationError;
      expect(mapped).toBeInstanceOf(ValidationError);
      expect(mapped.code).toBe('replayed_transaction');
      expect(mapped.cause).toBe(refused);
    }
  });

  it('leaves every other error alone', () => {
    const others = [
      ProviderError.from({ error: 'invalid_client', source: 'token', status: 401 }),
      ProviderError.from({ error: 'invalid_request', source: 'authorization' }),
      ProviderError.from({ error: 'invalid_token', source: 'userinfo', status: 401 }),
      new ValidationError('x', { code: 'nonce_mismatch' }),
      new Error('boom'),
    ];
    for (const error of others) expect(refusedCodeAsReplay(error)).toBe(error);
  });
});
