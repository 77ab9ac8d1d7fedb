#!/usr/bin/env node
import { runCli } from './run.js';

runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `affiliation-validation: ${error instanceof Error ? error.message : 'unexpected error'}\n`,
    );
    process.exitCode = 1;
  },
);
