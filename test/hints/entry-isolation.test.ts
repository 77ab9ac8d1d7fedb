import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Every module `src/hints.ts` loads at run time (type-only imports are erased and not followed). */
function runtimeClosure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    const re = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
    for (const m of source.matchAll(re)) {
      if (m[2]) continue;
      const spec = m[3]!;
      if (spec.startsWith('.')) visit(join(dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec);
    }
  };
  visit(join(root, entry));
  return { files, packages };
}

describe('affiliation-validation/hints entry point', () => {
  it('never loads openid-client, jose or the RP core at run time', () => {
    const { files, packages } = runtimeClosure('src/hints.ts');
    const relative = [...files].map((f) => f.slice(root.length + 1));
    expect(relative.filter((f) => f.startsWith('src/rp/'))).toEqual([]);
    expect([...packages].filter((p) => /openid-client|jose|oauth4webapi/.test(p))).toEqual([]);
    expect(relative).toContain('src/hints/feed.ts');
  });
});
