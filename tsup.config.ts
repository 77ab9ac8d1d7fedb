import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      hints: 'src/hints.ts',
      'docs-site': 'src/docs-site.ts',
      testing: 'src/testing.ts',
      picker: 'src/picker.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: false,
    clean: true,
    target: 'node20',
    platform: 'node',
    splitting: true,
    treeshake: true,
  },
  {
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    dts: false,
    sourcemap: false,
    target: 'node20',
    platform: 'node',
    banner: { js: '#!/usr/bin/env node' },
  },
  {
    // The <institution-picker> browser module, served as is by pickerModuleHandler().
    entry: { 'picker/institution-picker': 'src/picker/institution-picker.js' },
    format: ['esm'],
    dts: false,
    sourcemap: false,
    target: 'es2022',
    platform: 'browser',
  },
]);
