/** The one stored form of a transaction, shared by the cookie and Redis stores. */
import { describe, expect, it } from 'vitest';
import {
  decodeTransaction,
  encodeTransaction,
  storedForm,
  TRANSACTION_FORM,
} from '../../src/rp/transactions/codec.js';
import { transaction } from './transactions-fixtures.js';

describe('transaction codec', () => {
  it('hands back every field as it was encoded, absent optional ones absent (not null or 0)', () => {
    const full = transaction({
      identifier: 'persistent',
      claims: { id_token: { reuse_detection: null } },
      idpHint: 'https://idp.example.edu/idp',
    });
    const bare = transaction({ responseType: 'id_token', codeVerifier: undefined });
    for (const tx of [full, bare]) {
      const decoded = decodeTransaction(encodeTransaction(tx, tx.expiresAt - 5));
      expect(decoded).toEqual({ until: tx.expiresAt - 5, transaction: tx });
      expect(Object.keys(decoded?.transaction ?? {}).sort()).toEqual(
        Object.keys(tx)
          .filter((k) => tx[k as keyof typeof tx] !== undefined)
          .sort(),
      );
    }
  });

  it('refuses anything it did not make, each with a control', () => {
    const tx = transaction();
    const good = JSON.parse(encodeTransaction(tx, tx.expiresAt)) as unknown[];
    expect(decodeTransaction(JSON.stringify(good))).toBeDefined();
    const changed = (at: number, value: unknown) =>
      JSON.stringify(good.map((v, i) => (i === at ? value : v)));
    for (const text of [
      'not json',
      JSON.stringify(tx),
      JSON.stringify(good.slice(0, 13)),
      changed(0, TRANSACTION_FORM + 1),
      changed(1, 'soon'),
      changed(5, 'token'),
      changed(6, ['openid', 1]),
      changed(8, 'pairwise'),
      changed(9, null),
      changed(12, String(tx.createdAt)),
    ]) {
      expect(decodeTransaction(text)).toBeUndefined();
    }
  });

  it('tells the form a stored value was written in', () => {
    expect(storedForm(encodeTransaction(transaction(), 1))).toBe(TRANSACTION_FORM);
    expect(storedForm('[1,"state"]')).toBe(1);
    expect(storedForm('{"state":"x"}')).toBeUndefined();
  });
});
