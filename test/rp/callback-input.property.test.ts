/**
 * Property tests: whatever arrives at the callback route — any URL, query string, fragment or form
 * body — `validateCallback` ends in a result or a typed error, never a crash or a hang.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AffiliationError } from '../../src/core/errors.js';
import { readCallback } from '../../src/rp/callback-input.js';
import { REDIRECT_URI } from '../helpers/op-mock.js';
import { newClient, useOp } from '../helpers/setup.js';

useOp();

const keys = fc.constantFrom('code', 'state', 'id_token', 'error', 'error_description', 'iss', 'x', '');
const pair = fc.tuple(
  fc.oneof(keys, fc.string()),
  fc.oneof(fc.string(), fc.constant('eyJhbGciOiJub25lIn0.e30.')),
);
const query = fc.array(pair, { maxLength: 6 }).map((pairs) => new URLSearchParams(pairs).toString());

async function settles(promise: Promise<unknown>): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AffiliationError);
  }
}

describe('the callback parser', () => {
  it('turns any string into parameters or a typed error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.webUrl({ withQueryParameters: true, withFragments: true })),
        async (s) => {
          await settles(readCallback(s, REDIRECT_URI));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reads any query back as the same parameters, unless a key repeats', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(pair, { minLength: 1, maxLength: 6 }), async (pairs) => {
        const search = new URLSearchParams(pairs);
        const names = pairs.map(([k]) => k);
        const repeated = new Set(names).size !== names.length;
        const hasResponseKey = names.some((k) => ['code', 'state', 'id_token', 'error'].includes(k));
        try {
          const { params, source } = await readCallback(`${REDIRECT_URI}?${search}`, REDIRECT_URI);
          expect(repeated).toBe(false);
          expect(source).toBe('query');
          for (const [k, v] of pairs) expect(params.get(k)).toBe(v);
        } catch (error) {
          expect(error).toBeInstanceOf(AffiliationError);
          expect(repeated || !hasResponseKey).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('validateCallback', () => {
  it('never crashes on any URL, query or fragment', async () => {
    const client = await newClient();
    await fc.assert(
      fc.asyncProperty(query, query, fc.boolean(), async (q, f, absolute) => {
        const base = absolute ? REDIRECT_URI : '/callback';
        await settles(client.validateCallback(`${base}?${q}#${f}`));
      }),
      { numRuns: 300 },
    );
  });

  it('never crashes on any form body', async () => {
    const client = await newClient({ responseType: 'id_token' });
    await fc.assert(
      fc.asyncProperty(fc.oneof(query, fc.string()), async (body) => {
        const request = new Request(REDIRECT_URI, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
        await settles(client.validateCallback(request));
      }),
      { numRuns: 300 },
    );
  });
});
