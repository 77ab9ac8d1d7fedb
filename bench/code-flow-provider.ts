/**
 * Child process of `bench/rp.bench.ts`: the package's test provider on 127.0.0.1, in its own
 * process so the benchmark's CPU figures hold the relying party's work only. Answers
 * `{ id, url }` (an authorization URL) with `{ id, callback }` (the callback URL after a login).
 */
import { TestProvider } from '../src/testing.js';

const op = await TestProvider.start();
const send = (message: unknown) => process.send?.(message);
process.on('message', (message: { id: number; url: string }) => {
  op.authorize(message.url).then(
    (callback) => send({ id: message.id, callback }),
    (error: unknown) => send({ id: message.id, error: String(error) }),
  );
});
process.on('disconnect', () => {
  void op.close().finally(() => process.exit(0));
});
send({ issuer: op.issuer });
