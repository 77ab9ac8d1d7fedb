import { defineConfig } from 'vitest/config';

// The integration suite against a real WordPress. Run it with `npm run test:wordpress`, which starts
// WordPress (scripts/wordpress/start.sh) and stops it afterwards; with a WordPress already started by
// hand, `npx vitest run --config vitest.wordpress.config.ts` reads .tmp/wordpress/env instead.
export default defineConfig({
  test: {
    include: ['test/integration/wordpress/**/*.test.ts'],
    globalSetup: ['test/integration/wordpress/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
