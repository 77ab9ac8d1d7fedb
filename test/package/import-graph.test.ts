/**
 * Entry isolation, read from what the built entry points really load: the package is built into a
 * temporary folder (tsup, the project's own config, without type declarations) and each entry is
 * imported in a fresh Node process that records every module it resolves (scripts/import-graph.mjs,
 * also run by scripts/check-package.sh on the installed tarball).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without declarations
import * as graphScript from '../../scripts/import-graph.mjs';
import config from '../../tsup.config.js';

interface Graph {
  files: string[];
  packages: Record<string, number>;
  lazy: string[];
}
const { entryPoints, graphOf, violations, RULES } = graphScript as {
  entryPoints(dir: string): Record<string, string>;
  graphOf(dir: string, file: string): Graph;
  violations(subpath: string, graph: Graph): string[];
  RULES: Record<string, string[]>;
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let dir: string;
const graphs: Record<string, Graph> = {};

beforeAll(async () => {
  // Inside the project, so the built files resolve jose, zod … from its node_modules.
  mkdirSync(path.join(root, '.tmp'), { recursive: true });
  dir = mkdtempSync(path.join(root, '.tmp', 'import-graph-'));
  cpSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
  const options = Array.isArray(config) ? config[0] : config;
  await build({ ...options, dts: false, outDir: path.join(dir, 'dist'), silent: true, config: false });
  for (const [subpath, file] of Object.entries(entryPoints(dir))) graphs[subpath] = graphOf(dir, file);
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('import graph of each built entry point', () => {
  it('has a graph for every subpath of package.json exports, starting at its own file', () => {
    expect(Object.keys(graphs)).toEqual(expect.arrayContaining(['.', './hints', './docs-site', './testing']));
    for (const [subpath, file] of Object.entries(entryPoints(root))) {
      expect(graphs[subpath]?.files).toContain(file.replace(/^\.\//, ''));
    }
  });

  it('follows every rule of scripts/import-graph.mjs', () => {
    expect(Object.entries(graphs).flatMap(([subpath, g]) => violations(subpath, g))).toEqual([]);
  });

  it('docs-site and hints never load openid-client, oauth4webapi or jose', () => {
    for (const subpath of ['./docs-site', './hints']) {
      expect(Object.keys(graphs[subpath]!.packages)).not.toContain('openid-client');
      expect(Object.keys(graphs[subpath]!.packages)).not.toContain('jose');
    }
    // zod is all docs-site loads up front, and hints loads nothing (undici comes with the first request).
    expect(Object.keys(graphs['./docs-site']!.packages)).toEqual(['zod']);
    // The Markdown and YAML libraries of `syncFolder` come only with a sync.
    expect(graphs['./docs-site']!.lazy).toEqual(
      expect.arrayContaining([expect.stringMatching(/ → markdown-it$/), expect.stringMatching(/ → yaml$/)]),
    );
    expect(Object.keys(graphs['./hints']!.packages)).toEqual([]);
    // The recorder sees packages at all: the core loads openid-client (the protocol engine, with its
    // oauth4webapi) and jose (the cookie store's seal), and nothing else: no zod, no undici up front.
    expect(Object.keys(graphs['.']!.packages).sort()).toEqual(['jose', 'oauth4webapi', 'openid-client']);
  });

  it('no entry point loads msw up front; /testing/msw loads it lazily', () => {
    for (const g of Object.values(graphs)) expect(g.packages).not.toHaveProperty('msw');
    expect(graphs['./testing/msw']?.lazy.join(' ')).toMatch(/→ msw$/);
  });

  it('the rules catch a forbidden package behind a chunk (self-test)', () => {
    const fake = path.join(dir, 'fake');
    mkdirSync(fake);
    writeFileSync(path.join(fake, 'entry.js'), "export * from './chunk.js';\n");
    writeFileSync(path.join(fake, 'chunk.js'), "import { decodeJwt } from 'jose';\nexport { decodeJwt };\n");
    const g = graphOf(fake, 'entry.js');
    expect(g.files).toEqual(['chunk.js', 'entry.js']);
    expect(violations('./docs-site', g)).toEqual([expect.stringMatching(/\.\/docs-site loads jose/)]);
    expect(RULES['./docs-site']).toContain('openid-client');
    // A package installed inside the package folder (a checkout's node_modules) is a package, not ours.
    const pkg = path.join(fake, 'node_modules', 'openid-client');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(
      path.join(pkg, 'package.json'),
      '{ "name": "openid-client", "type": "module", "main": "i.js" }',
    );
    writeFileSync(path.join(pkg, 'i.js'), 'export const x = 1;\n');
    writeFileSync(path.join(fake, 'lazy.js'), "export { x } from 'openid-client';\n");
    const inner = graphOf(fake, 'lazy.js');
    expect(inner.files).toEqual(['lazy.js']);
    expect(violations('./docs-site', inner)).toEqual([expect.stringMatching(/loads openid-client/)]);
  });
});
