/**
 * The published types of `affiliation-validation/docs-site` must not depend on zod (a zod major
 * would force a major of ours) nor name internal classes. tsup bundles dist/docs-site.d.ts from the
 * declarations of every module the entry reaches through its types; this test emits those
 * declarations with the TypeScript compiler (in memory, no dist needed) and walks the same graph.
 */
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function emitDeclarations(entry: string): Map<string, string> {
  const out = new Map<string, string>();
  const program = ts.createProgram([entry], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: join(root, 'src'),
    outDir: join(root, '.tmp', 'declarations'),
    types: ['node'],
    // Declarations only: type errors are tsc's job (npx tsc --noEmit), not this test's.
    noCheck: true,
  });
  const result = program.emit(undefined, (file, text) => out.set(file, text));
  expect(result.emitSkipped).toBe(false);
  return out;
}

/** The declaration files the entry's declaration reaches, with the bare modules they import. */
function reachable(files: Map<string, string>, entry: string) {
  const seen = new Set<string>();
  const bare = new Map<string, string[]>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = files.get(file);
    if (text === undefined) throw new Error(`no declaration emitted for ${file}`);
    for (const m of text.matchAll(/(?:from\s+|import\()\s*['"]([^'"]+)['"]/g)) {
      const spec = m[1] ?? '';
      if (spec.startsWith('.')) visit(join(dirname(file), spec.replace(/\.js$/, '.d.ts')));
      else bare.set(spec, [...(bare.get(spec) ?? []), file.slice(root.length + 1)]);
    }
  };
  visit(entry);
  return { seen, bare };
}

describe('the declarations of affiliation-validation/docs-site', () => {
  it('reach no zod and no internal class (Transport, HttpClient, route table)', () => {
    const files = emitDeclarations(join(root, 'src', 'docs-site.ts'));
    const { seen, bare } = reachable(files, join(root, '.tmp', 'declarations', 'docs-site.d.ts'));
    expect(bare.get('zod')).toBeUndefined();
    const names = [...seen].map((f) => f.slice(join(root, '.tmp', 'declarations').length + 1)).sort();
    expect(names).toContain('docs-site/types/resources.d.ts');
    for (const internal of ['docs-site/transport.d.ts', 'docs-site/routes.d.ts', 'http/client.d.ts']) {
      expect(names).not.toContain(internal);
    }
    for (const file of seen) {
      const text = files.get(file) ?? '';
      expect(text, file).not.toMatch(/\bzod\b|\bz\.[A-Za-z]/);
    }
    // About 5 s of CPU (parsing the program); the limit is for a loaded machine.
  }, 120_000);
});
