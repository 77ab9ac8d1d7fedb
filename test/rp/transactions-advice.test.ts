import { describe, expect, it } from 'vitest';
import { ProviderError, ValidationError } from '../../src/rp/errors.js';
import { refusedCodeAsReplay, secureCookieDropped } from '../../src/rp/transactions/advice.js';

const SECURE = '__Host-av_tx_0=v; Max-Age=1200; Path=/; HttpOnly; Secure; SameSite=Lax';
const PLAIN = 'av_tx_0=v; Max-Age=1200; Path=/; HttpOnly; SameSite=Lax';

describe('secureCookieDropped: where browsers drop a Secure cookie (test/browser/secure-cookies.test.ts)', () => {
  it('on a plain-http host that is not localhost-class', () => {
    expect(secureCookieDropped(SECURE, 'http://shop.test:3000/callback')).toBe(true);
    expect(secureCookieDropped(SECURE, 'http://192.168.1.20/callback')).toBe(true);
  });

  it('not on https, not on localhost, *.localhost or 127.0.0.0/8, and not for a cookie without Secure', () => {
    for (const uri of [
      'https://shop.example.com/callback',
      'http://localhost:3000/callback',
      'http://shop.localhost:3000/callback',
      'http://127.0.0.1:3000/callback',
      'http://[::1]:3000/callback',
    ]) {
      expect(secureCookieDropped(SECURE, uri)).toBe(false);
    }
    expect(secureCookieDropped(PLAIN, 'http://shop.test/callback')).toBe(false);
    expect(secureCookieDropped('a=Secure; Path=/', 'http://shop.test/callback')).toBe(false);
  });
});

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
