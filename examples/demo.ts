/**
 * `npm run demo`: the test provider and the Express example on 127.0.0.1, and a scripted shopper
 * who completes a validation with the code flow and then with the id_token flow, every HTTP step
 * printed. No network, no credentials.
 *
 * `npm run demo -- --serve`: keep both running and print the shop's URL, to click through in your
 * own browser; Ctrl-C stops both.
 */
import { DemoError, runDemo, serveDemo, untilSignal } from '../src/cli/demo-runner.js';
import { startServer } from './express/app.js';

const options = {
  startShop: startServer,
  shopName: 'Express example, examples/express',
  write: (line: string) => process.stdout.write(`${line}\n`),
};

try {
  if (process.argv.includes('--serve')) await serveDemo({ ...options, stop: untilSignal() });
  else await runDemo(options);
} catch (error) {
  process.stderr.write(`demo failed: ${error instanceof DemoError ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
