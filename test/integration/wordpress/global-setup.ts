import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

/** What the WordPress suite learns about the site started by scripts/wordpress/start.sh. */
export interface WordPressSite {
  baseUrl: string;
  restRoot: string;
  username: string;
  applicationPassword: string;
  version: string;
  theme: string;
  blockTheme: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    wordpress: WordPressSite;
  }
}

function readEnvFile(file: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Z_]+)='(.*)'$/.exec(line);
    if (match) values[match[1]!] = match[2]!;
  }
  return values;
}

/**
 * Finds the WordPress to test: the environment exported by scripts/wordpress/run-tests.sh, or the env
 * file of one started by hand. Fails the run (never skips it) when there is none, or it does not answer.
 */
export default async function setup(project: TestProject): Promise<void> {
  let env: Record<string, string | undefined> = process.env;
  if (!env.WP_BASE_URL) {
    const file = resolve(process.env.WP_ENV_FILE ?? '.tmp/wordpress/env');
    try {
      env = readEnvFile(file);
    } catch {
      throw new Error(
        `No WordPress to test: WP_BASE_URL is not set and ${file} cannot be read. ` +
          'Run `npm run test:wordpress`, or start one with scripts/wordpress/start.sh.',
      );
    }
  }
  const site: WordPressSite = {
    baseUrl: required(env, 'WP_BASE_URL'),
    restRoot: env.WP_REST_ROOT ?? 'wp-json',
    username: required(env, 'WP_USERNAME'),
    applicationPassword: required(env, 'WP_APP_PASSWORD'),
    version: env.WP_VERSION ?? '',
    theme: env.WP_THEME ?? '',
    blockTheme: env.WP_BLOCK_THEME === '1',
  };
  const index = await fetch(`${site.baseUrl}/${site.restRoot}/`).catch((error: unknown) => {
    throw new Error(`WordPress at ${site.baseUrl} does not answer`, { cause: error });
  });
  if (index.status !== 200)
    throw new Error(`WordPress at ${site.baseUrl} answered ${index.status} for its index`);
  project.provide('wordpress', site);
}

function required(env: Record<string, string | undefined>, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is missing from the WordPress environment`);
  return value;
}
