import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The WordPress suite needs a real WordPress started by scripts/wordpress; it has its own command.
    exclude: ['test/integration/wordpress/**', 'node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
  },
});
