import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as entry from '../../src/docs-site.js';

const root = resolve(import.meta.dirname, '../..');

/** Every module the entry point loads at run time (type-only imports are erased and skipped). */
function runtimeGraph(file: string, seen = new Set<string>(), bare = new Set<string>()) {
  if (seen.has(file)) return { seen, bare };
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  for (const m of code.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)) {
    const spec = m[1] ?? '';
    if (spec.startsWith('.')) runtimeGraph(join(dirname(file), spec.replace(/\.js$/, '.ts')), seen, bare);
    else bare.add(spec);
  }
  return { seen, bare };
}

describe('affiliation-validation/docs-site entry point', () => {
  it('never loads openid-client, jose or the RP core', () => {
    const { seen, bare } = runtimeGraph(join(root, 'src', 'docs-site.ts'));
    const files = [...seen].map((f) => f.slice(root.length + 1));
    expect(files.some((f) => f.startsWith('src/rp/') || f === 'src/index.ts')).toBe(false);
    expect([...bare].filter((b) => !b.startsWith('node:')).sort()).toEqual(['zod']);
    expect(files).toContain('src/http/client.ts');
  });

  it('exports the client, the errors and constants, no schema and nothing of the RP', () => {
    expect(Object.keys(entry).sort()).toEqual(
      [
        'AffiliationError',
        'DocsSiteClient',
        'DocsSiteError',
        'LIST_DEFAULTS',
        'MAX_BATCH_CONCURRENCY',
        'MAX_BATCH_ITEMS',
        'OptionsError',
        'TransportError',
      ].sort(),
    );
    expect(new entry.DocsSiteError('x', { code: 'invalid_param' })).toBeInstanceOf(entry.AffiliationError);
  });
});
