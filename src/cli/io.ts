/** What a CLI command may touch: streams and the environment. Injected so tests can run commands in-process. */
export interface CliIO {
  stdout: { write(chunk: string): unknown; isTTY?: boolean };
  stderr: { write(chunk: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  /** Where a command asks for a confirmation (`docs sync --prune` on a terminal); default process.stdin. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Injected fetch for tests (msw: the global fetch); default undici's fetch on the SDK's pooled agent. */
  fetch?: typeof fetch;
}

/** A bad command line. The CLI prints the message and the usage and exits with 2. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}

/** A command: takes its own argv (after the command name) and returns the exit code. */
export type CliCommand = (argv: string[], io: CliIO) => Promise<number>;
