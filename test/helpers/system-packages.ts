/**
 * Vitest globalSetup: what `npm test` needs from the system — Debian's `chromium` and `firefox-esr`
 * (the browser tests, test/browser/browsers.ts) and `redis-server` (the Redis tests, test/redis/server.ts).
 * On a fresh machine (README: `npm ci`, `npm test`) a missing one is installed with apt when the
 * tests run as root and apt is there, the way .ci/run does; otherwise the run stops at once with the
 * one command to run, instead of failing test by test.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** A Debian package and the executables (or the environment variable naming one) that stand for it. */
interface SystemPackage {
  readonly name: string;
  readonly env: string;
  readonly commands: readonly string[];
}

/** In the order .ci/run installs them. */
export const SYSTEM_PACKAGES: readonly SystemPackage[] = [
  { name: 'chromium', env: 'AV_CHROMIUM', commands: ['chromium', 'chromium-browser'] },
  { name: 'firefox-esr', env: 'AV_FIREFOX', commands: ['firefox-esr', 'firefox'] },
  { name: 'redis-server', env: 'REDIS_SERVER', commands: ['redis-server'] },
];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The packages of {@link SYSTEM_PACKAGES} whose executable is neither named by its variable nor on `PATH`. */
export function missingPackages(env: NodeJS.ProcessEnv): string[] {
  const dirs = (env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  return SYSTEM_PACKAGES.filter((p) => {
    const given = env[p.env];
    if (given && executable(given)) return false;
    return !p.commands.some((c) => dirs.some((d) => executable(join(d, c))));
  }).map((p) => p.name);
}

export function hasApt(env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(delimiter).some((d) => d !== '' && executable(join(d, 'apt-get')));
}

/** What to do about missing packages: install them (root with apt), or the one command to tell. */
export function plan(
  missing: readonly string[],
  system: { root: boolean; apt: boolean },
):
  | { action: 'none' }
  | { action: 'install'; packages: readonly string[] }
  | { action: 'tell'; message: string } {
  if (missing.length === 0) return { action: 'none' };
  if (system.root && system.apt) return { action: 'install', packages: missing };
  const install = `${system.root ? '' : 'sudo '}apt-get install -y ${missing.join(' ')}`;
  const why = system.apt ? 'the tests do not run as root' : 'apt-get is not on PATH (not Debian?)';
  return {
    action: 'tell',
    message: `npm test needs ${missing.join(', ')} (Debian packages: real browsers and a real Redis), and ${why}, so it cannot install them. Run:\n\n  ${install}\n\nthen npm test again. (Or point AV_CHROMIUM, AV_FIREFOX, REDIS_SERVER at the executables.)`,
  };
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
  }
}

export default function setup(): void {
  const missing = missingPackages(process.env);
  const todo = plan(missing, { root: process.getuid?.() === 0, apt: hasApt(process.env) });
  if (todo.action === 'none') return;
  if (todo.action === 'tell') throw new Error(todo.message);
  console.log(`npm test: installing ${todo.packages.join(', ')} with apt-get (as .ci/run does)…`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', ...todo.packages]);
  const still = missingPackages(process.env);
  if (still.length > 0)
    throw new Error(`apt-get installed ${todo.packages.join(' ')}, yet ${still.join(', ')} is not on PATH`);
}
