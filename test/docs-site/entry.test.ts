import { describe, expect, it } from 'vitest';
import * as entry from '../../src/docs-site.js';

// What the built entry loads (never openid-client, jose or the RP core) is checked from dist in
// test/package/import-graph.test.ts.
describe('affiliation-validation/docs-site entry point', () => {
  it('exports the client, the errors and constants, no schema and nothing of the RP', () => {
    expect(Object.keys(entry).sort()).toEqual(
      [
        'AffiliationError',
        'closeDefaultDispatcher',
        'DocsSiteClient',
        'DocsSiteError',
        'DocsSyncError',
        'LIST_DEFAULTS',
        'MAX_BATCH_CONCURRENCY',
        'MAX_BATCH_ITEMS',
        'OptionsError',
        'SYNC_STATE_FILE',
        'syncFolder',
        'TransportError',
      ].sort(),
    );
    expect(new entry.DocsSiteError('x', { code: 'invalid_param' })).toBeInstanceOf(entry.AffiliationError);
  });
});
