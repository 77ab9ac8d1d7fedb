/**
 * `instanceof` across copies of the package: an app that loads both the ESM and the CJS build (or
 * two installs) still recognises the SDK's errors by class, and never confuses one class for another.
 */
import { describe, expect, it, vi } from 'vitest';
import * as core from '../../src/core/errors.js';
import * as rp from '../../src/rp/errors.js';

/** A second, independent copy of the error modules (as a CJS build next to the ESM one would be). */
async function secondCopy() {
  vi.resetModules();
  const otherCore = await import('../../src/core/errors.js');
  const otherRp = await import('../../src/rp/errors.js');
  return { otherCore, otherRp };
}

describe('errors of another copy of the package', () => {
  it('are really other classes (the situation under test)', async () => {
    const { otherCore, otherRp } = await secondCopy();
    expect(otherCore.AffiliationError).not.toBe(core.AffiliationError);
    expect(otherRp.ValidationError).not.toBe(rp.ValidationError);
  });

  it('are instances of the same-named class and of the base, in both directions', async () => {
    const { otherCore, otherRp } = await secondCopy();
    const foreign = new otherRp.ValidationError('nonce_mismatch', 'x');
    expect(foreign instanceof rp.ValidationError).toBe(true);
    expect(foreign instanceof core.AffiliationError).toBe(true);
    const local = new core.TransportError('t', { code: 'timeout' });
    expect(local instanceof otherCore.TransportError).toBe(true);
    expect(local instanceof otherCore.AffiliationError).toBe(true);
  });

  it('are not instances of another class of the package', async () => {
    const { otherRp } = await secondCopy();
    const foreign = new otherRp.ProviderError({ error: 'access_denied', source: 'authorization' });
    expect(foreign instanceof rp.ValidationError).toBe(false);
    expect(foreign instanceof core.TransportError).toBe(false);
    expect(foreign instanceof rp.ProviderError).toBe(true);
  });

  it('is not fooled by look-alikes without the package mark', () => {
    class ValidationError extends Error {}
    expect(new ValidationError('x') instanceof rp.ValidationError).toBe(false);
    expect(
      Object.assign(new Error('x'), { name: 'ValidationError', code: 'nonce_mismatch' }) instanceof
        rp.ValidationError,
    ).toBe(false);
    expect({ name: 'AffiliationError' } instanceof core.AffiliationError).toBe(false);
    for (const value of [null, undefined, 'ValidationError', 42] as unknown[]) {
      expect(value instanceof core.AffiliationError).toBe(false);
      expect(value instanceof rp.ValidationError).toBe(false);
    }
  });

  it('keeps the mark out of sight: not enumerable, not in JSON, frozen', () => {
    const error = new rp.ValidationError('nonce_mismatch', 'x');
    const mark = Symbol.for('affiliation-validation.error-kinds');
    expect(Object.getOwnPropertySymbols(error)).toContain(mark);
    expect(Object.prototype.propertyIsEnumerable.call(error, mark)).toBe(false);
    expect(Object.keys(JSON.parse(JSON.stringify(error))).sort()).toEqual(['code', 'name', 'userMessage']);
    const kinds = (error as unknown as Record<symbol, string[]>)[mark];
    expect(kinds).toEqual(['ValidationError', 'AffiliationError']);
    expect(Object.isFrozen(kinds)).toBe(true);
  });
});
