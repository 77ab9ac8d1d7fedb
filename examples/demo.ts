/**
 * `npm run demo`: the test provider and the Express example on 127.0.0.1, and a scripted shopper
 * who completes a validation with the code flow and then with the id_token flow, every HTTP step
 * printed. No network, no credentials.
 */
import { DemoError, runDemo } from '../src/cli/demo-runner.js';
import { startServer } from './express/app.js';

try {
  await runDemo({
    startShop: (options) => startServer(options),
    shopName: 'Express example, examples/express',
    write: (line) => process.stdout.write(`${line}\n`),
  });
} catch (error) {
  process.stderr.write(`demo failed: ${error instanceof DemoError ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
