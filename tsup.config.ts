import { defineConfig } from 'tsup';

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

export default defineConfig([
  {
    // The CLI is built with the library so it shares its chunks: one copy of the code in dist/, not
    // a second bundle inside dist/cli.js. Its `#!/usr/bin/env node` line is the first line of
    // src/cli/main.ts, which esbuild keeps for that entry only.
    entry: { ...libraryEntries, cli: 'src/cli/main.ts' },
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
