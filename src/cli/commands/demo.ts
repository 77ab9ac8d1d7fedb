import { parseArgs } from 'node:util';
import { runDemo, serveDemo, untilSignal } from '../demo-runner.js';
import { startBuiltInShop } from '../demo-shop.js';
import type { CliCommand } from '../io.js';

const HELP = `Usage: affiliation-validation demo [--serve]

Starts a local test provider and a small shop on 127.0.0.1, then walks a shopper through a complete
validation the way a browser does — the code flow, then the id_token flow through the fragment
relay — printing every HTTP step (secrets redacted) and the validated result. No network, no
credentials. Exits 0 when both validations succeed.

  --serve   keep the test provider and the shop running and print the shop's URL, to click
            through both flows in your own browser; Ctrl-C stops both (exit 0)
`;

/** `affiliation-validation demo`. */
export const demoCommand: CliCommand = async (argv, io) => {
  const { values } = parseArgs({
    args: argv,
    options: { help: { type: 'boolean', short: 'h' }, serve: { type: 'boolean' } },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const options = {
    startShop: startBuiltInShop,
    shopName: 'built-in node:http shop',
    write: (line: string) => io.stdout.write(`${line}\n`),
  };
  // A failed step is a DemoError (`demo_failed`): printed with its code and exit 1, as every command's.
  if (values.serve) await serveDemo({ ...options, stop: untilSignal() });
  else await runDemo(options);
  return 0;
};
