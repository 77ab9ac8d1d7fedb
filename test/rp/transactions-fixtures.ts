import { expect } from 'vitest';
import { ValidationError } from '../../src/rp/errors.js';
import type { Transaction } from '../../src/rp/types.js';

/** A realistic transaction; `overrides` change any field. */
export function transaction(overrides: Partial<Transaction> = {}, now = 1_700_000_000_000): Transaction {
  return {
    state: 'st-Yk3b8Vq0rS9Jm2Xw5Zc7Lp4Nd1Hf6Tg0Ea8Ub3Qy',
    nonce: 'no-Fh2Kd9Wq4Vb7Zx1Mc6Jp3Ls8Rt0Yg5Ne2Ua7Hi',
    codeVerifier: 'cv-Pq8Lm3Zx6Vb1Nw9Kd4Jh7Gf2Ts5Ry0Ea3Uc8Yi',
    responseType: 'code',
    scopes: ['openid', 'student'],
    affiliation: 'student',
    redirectUri: 'https://shop.example/callback',
    createdAt: now,
    expiresAt: now + 600_000,
    ...overrides,
  };
}

/** The `ValidationError` code a promise rejects with, or `'no error'`. */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).code;
  }
  return 'no error';
}
