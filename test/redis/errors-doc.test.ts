import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// docs/errors.md explains every code the SDK can throw: also those of the Redis entry and the ledgers.
const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const documented = new Set(
  [...doc.matchAll(/^\|([^|\n]+)\|/gm)].flatMap((row) =>
    [...(row[1] ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]),
  ),
);

describe('docs/errors.md', () => {
  it.each(['store_unavailable', 'store_failed'])('documents the StoreError code %s', (code) => {
    expect(documented.has(code)).toBe(true);
  });
  it('documents the OfferLedgerError code unidentifiable_result', () => {
    expect(doc).toMatch(/## `OfferLedgerError`\n\nCode `unidentifiable_result`/);
  });
});
