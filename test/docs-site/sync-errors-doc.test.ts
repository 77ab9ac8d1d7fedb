import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCS_SYNC_ERROR_CODES } from '../../src/docs-site/sync/errors.js';

// docs/errors.md explains every code of DocsSyncError.
const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const start = doc.indexOf('## `DocsSyncError`');
const section = doc.slice(start, doc.indexOf('\n## ', start + 1));

describe('docs/errors.md, DocsSyncError section', () => {
  it('exists', () => {
    expect(start).toBeGreaterThan(0);
  });
  it.each([...DOCS_SYNC_ERROR_CODES])('explains the code %s', (code) => {
    expect(section).toMatch(new RegExp(`^\\| \`${code}\` \\|`, 'm'));
  });
});
