import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The WordPress suite needs a real WordPress started by scripts/wordpress; it has its own command.
    exclude: ['test/integration/wordpress/**', 'node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default: too soon on a loaded 2-core CI machine. A poll returns
    // as soon as its value matches, so the longer limit costs nothing. (vi.waitFor has no such
    // setting: pass { timeout } to it.)
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // Installs chromium, firefox-esr and redis-server on a fresh Debian machine (as root), or stops
    // the run with the command to run.
    globalSetup: ['test/helpers/system-packages.ts'],
    setupFiles: ['test/helpers/expected-warnings.ts'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
  },
});
