/**
 * Entry isolation, read from what the built entry points really load: the package is built into a
 * temporary folder (tsup, the project's own config, without type declarations) and each entry is
 * imported in a fresh Node process that records every module it resolves (scripts/import-graph.mjs,
 * also run by scripts/check-package.sh on the installed tarball). The same build is then bundled as
 * a Worker's and an Edge function's bundler does it.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { build } from 'tsup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without declarations
import * as graphScript from '../../scripts/import-graph.mjs';
import config, { RUNTIME_MODULES } from '../../tsup.config.js';

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
    // oauth4webapi), jose (the cookie store's seal) and fflate (the packed catalogs of shopper texts),
    // and nothing else: no zod, no undici up front.
    expect(Object.keys(graphs['.']!.packages).sort()).toEqual([
      'fflate',
      'jose',
      'oauth4webapi',
      'openid-client',
    ]);
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

/**
 * The Web entries as a Worker's or an Edge function's bundler sees them: esbuild with wrangler's
 * conditions (workerd, worker, browser) and with Next.js edge's (edge-light), platform `neutral`, so
 * that any `node:*` import (also of undici or of the file system) fails the bundle.
 */
describe('bundled for a Web runtime', () => {
  /** The bundled files, relative to the build's folder (`dist/web/transport.js`, `node_modules/jose/…`). */
  const relative = (inputs: object) =>
    Object.keys(inputs).map((f) => path.relative(dir, path.resolve(root, f)));
  const WEB = {
    workerd: ['workerd', 'worker', 'browser'],
    'edge-light': ['edge-light', 'worker', 'browser'],
  };
  async function bundle(entry: string, conditions: string[]) {
    const result = await esbuild.build({
      entryPoints: [path.join(dir, 'dist', entry)],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      conditions,
      mainFields: ['browser', 'module', 'main'],
      metafile: true,
      outdir: path.join(dir, 'web-bundle'),
      logLevel: 'silent',
    });
    return { inputs: relative(result.metafile.inputs), text: result.outputFiles[0]?.text ?? '' };
  }

  for (const [name, conditions] of Object.entries(WEB)) {
    it(`core and docs-site client: no node:* import, Buffer, process or undici (${name})`, async () => {
      for (const entry of ['index.js', 'docs-site.js']) {
        const { inputs, text } = await bundle(entry, conditions);
        expect(inputs.filter((f) => /node_modules\/(undici|markdown-it|yaml)\//.test(f))).toEqual([]);
        expect(inputs).toContain('dist/web/transport.js');
        expect(inputs).not.toContain('dist/node/transport.js');
        // `process` only where core/node-process.ts hands it over (emitWarning, getBuiltinModule).
        expect(text).not.toMatch(
          /\bBuffer\b|\bsetImmediate\b|(?<![.\w$])process\.(?!emitWarning\b|getBuiltinModule\b)/,
        );
      }
    });
  }

  it('the docs-site client takes the Web build of its file system part (no fs, no path)', async () => {
    const { inputs } = await bundle('docs-site.js', WEB.workerd);
    expect(inputs).toContain('dist/web/docs-site-files.js');
    expect(inputs).not.toContain('dist/node/docs-site-files.js');
  });

  it('Node, Bun and Deno take the Node builds (the `default` condition)', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    for (const key of Object.keys(RUNTIME_MODULES)) {
      expect(pkg.imports[key].default).toMatch(/^\.\/dist\/node\//);
      expect(pkg.imports[key]['edge-light']).toMatch(/^\.\/dist\/web\//);
    }
  });

  it('hints (with node:events, which workerd has under nodejs_compat and Next.js edge polyfills): no file system', async () => {
    const result = await esbuild.build({
      entryPoints: [path.join(dir, 'dist', 'hints.js')],
      bundle: true,
      write: false,
      platform: 'neutral',
      conditions: WEB.workerd,
      external: ['events'],
      metafile: true,
      outdir: path.join(dir, 'web-bundle'),
      logLevel: 'silent',
    });
    const inputs = relative(result.metafile.inputs);
    expect(inputs).toContain('dist/web/hints-cache-file.js');
    expect(inputs.filter((f) => /node_modules\/undici\/|dist\/node\//.test(f))).toEqual([]);
  });
});
