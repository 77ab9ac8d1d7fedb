import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { defineConfig, type Options } from 'tsup';

/**
 * The package's entry points, one per subpath of package.json `exports` (ESM only). Add a new entry
 * here and in `exports`; scripts/check-package.sh checks that both lists agree.
 */
const libraryEntries = {
  index: 'src/index.ts',
  hints: 'src/hints.ts',
  'docs-site': 'src/docs-site.ts',
  testing: 'src/testing.ts',
  'testing-msw': 'src/testing-msw.ts',
  redis: 'src/redis.ts',
  picker: 'src/picker.ts',
  otel: 'src/otel.ts',
};

/**
 * Node-only modules and their Web builds, by package.json `imports` key. The sources import the Node
 * module by its relative path (tsx, vitest and tsc need nothing else); in dist/ every import of it
 * becomes the `#…` import, which each bundler or runtime resolves with its own conditions: wrangler
 * (`workerd`, `worker`, `browser`), Next.js edge (`edge-light`) and browsers take `dist/web/…`;
 * Node, Bun, Deno and Next.js's Node runtime take `dist/node/…` (`default`).
 */
export const RUNTIME_MODULES: Record<string, { node: string; web: string }> = {
  '#transport': { node: 'src/http/dispatcher.ts', web: 'src/http/dispatcher-web.ts' },
  '#docs-site-files': { node: 'src/docs-site/files.ts', web: 'src/docs-site/files-web.ts' },
  '#hints-cache-file': { node: 'src/hints/cache-file.ts', web: 'src/hints/cache-file-web.ts' },
};

/** The dist entries of RUNTIME_MODULES, named after package.json `imports` (which must agree). */
function runtimeEntries(): Record<string, string> {
  const imports: Record<string, Record<string, string>> = JSON.parse(
    readFileSync(new URL('./package.json', import.meta.url), 'utf8'),
  ).imports;
  const entries: Record<string, string> = {};
  for (const [key, { node, web }] of Object.entries(RUNTIME_MODULES)) {
    const targets = imports[key];
    const nodeOut = targets?.default;
    const webOut = targets?.workerd;
    if (!nodeOut || !webOut || Object.values(targets).some((t) => t !== nodeOut && t !== webOut)) {
      throw new Error(
        `package.json imports["${key}"] must map workerd/worker/edge-light/browser and default`,
      );
    }
    entries[nodeOut.replace(/^\.\/dist\/|\.js$/g, '')] = node;
    entries[webOut.replace(/^\.\/dist\/|\.js$/g, '')] = web;
  }
  return entries;
}

/** Rewrites every import of a Node-only module into its `#…` import, left for the package's user to resolve. */
const runtimeImports: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'runtime-imports',
  setup(build) {
    const byFile = new Map(Object.entries(RUNTIME_MODULES).map(([key, m]) => [path.resolve(m.node), key]));
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const key = byFile.get(path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')));
      return key === undefined ? undefined : { path: key, external: true };
    });
  },
};

export default defineConfig([
  {
    // The CLI is built with the library so it shares its chunks: one copy of the code in dist/, not
    // a second bundle inside dist/cli.js. Its `#!/usr/bin/env node` line is the first line of
    // src/cli/main.ts, which esbuild keeps for that entry only.
    entry: { ...libraryEntries, ...runtimeEntries(), cli: 'src/cli/main.ts' },
    esbuildPlugins: [runtimeImports],
    format: ['esm'],
    dts: { entry: libraryEntries },
    sourcemap: false,
    clean: true,
    target: 'node20',
    platform: 'node',
    splitting: true,
    treeshake: true,
  },
  {
    // The <institution-picker> browser module, served as is by pickerModuleHandler().
    entry: { 'picker/institution-picker': 'src/picker/institution-picker.ts' },
    format: ['esm'],
    dts: false,
    sourcemap: false,
    target: 'es2022',
    platform: 'browser',
  },
]);
