import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCS_SITE_CLIENT_CODES } from '../../src/docs-site/errors.js';

// docs/errors.md is the reference of every code the SDK gives: the docs-site client's too.
const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const section = doc.slice(
  doc.indexOf('## `DocsSiteError`'),
  doc.indexOf('\n## ', doc.indexOf('## `DocsSiteError`') + 1),
);

describe('docs/errors.md, DocsSiteError section', () => {
  it.each([...DOCS_SITE_CLIENT_CODES])('explains the client code %s', (code) => {
    expect(section).toMatch(new RegExp(`^\\| \`${code}\` \\|`, 'm'));
  });
});
