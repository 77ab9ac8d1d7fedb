import { readFile } from 'node:fs/promises';
import { AffiliationError, OptionsError } from '../core/errors.js';
import { redact } from '../core/redact.js';
import { type CliCommand, type CliIO, CliUsageError } from './io.js';

// Commands are loaded lazily: `hints search` loads neither the RP core (openid-client) nor the
// docs-site client, `docs` not the RP core, and so on.
const COMMANDS: Record<string, { summary: string; load: () => Promise<CliCommand> }> = {
  demo: {
    summary: 'run a complete validation against a local test provider (no network, no credentials)',
    load: async () => (await import('./commands/demo.js')).demoCommand,
  },
  doctor: {
    summary: 'check a merchant configuration against a live provider',
    load: async () => (await import('./commands/doctor.js')).doctorCommand,
  },
  hints: {
    summary: 'refresh and search institution hint feeds (hints refresh|search)',
    load: async () => (await import('./commands/hints.js')).hintsCommand,
  },
  docs: {
    summary: 'script the documentation site (docs get|post|put|patch|delete|batch|sync)',
    load: async () => (await import('./commands/docs.js')).docsCommand,
  },
};

export function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(8)} ${c.summary}`);
  return `Usage: affiliation-validation <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nOptions:\n  --version, -v  print the version\n  --help, -h     print this help\n\nRun "affiliation-validation <command> --help" for a command's options.\n`;
}

/** The version in our package.json: the nearest one above this file (dist/ or src/cli/). */
export async function packageVersion(): Promise<string> {
  for (let dir = new URL('.', import.meta.url); ; dir = new URL('..', dir)) {
    try {
      const pkg = JSON.parse(await readFile(new URL('package.json', dir), 'utf8')) as Record<string, unknown>;
      if (pkg.name === 'affiliation-validation' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // no package.json here: look one folder up
    }
    if (dir.pathname === '/') return 'unknown';
  }
}

/** Run the CLI in-process. Returns the exit code; never throws for bad input. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout).write(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.stdout.write(`${await packageVersion()}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr.write(`affiliation-validation: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  try {
    const run = await command.load();
    return await run(rest, io);
  } catch (error) {
    // The SDK's option checks see only what the command line and the environment gave.
    if (error instanceof CliUsageError || error instanceof OptionsError) {
      io.stderr.write(`affiliation-validation ${name}: ${error.message}\n`);
      return 2;
    }
    // node:util's parseArgs refuses a command line with a TypeError coded ERR_PARSE_ARGS_…; its
    // message may quote an argument, which is redacted like any other.
    if (String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS_')) {
      io.stderr.write(`affiliation-validation ${name}: ${redact((error as Error).message)}\n`);
      return 2;
    }
    if (error instanceof AffiliationError) {
      io.stderr.write(`affiliation-validation ${name}: ${error.message} [${error.code}]\n`);
      return 1;
    }
    const message = error instanceof Error ? redact(error.message) : 'unexpected error';
    io.stderr.write(`affiliation-validation ${name}: ${message}\n`);
    return 1;
  }
}
