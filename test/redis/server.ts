/**
 * A real Redis for tests: Debian's `redis-server` on 127.0.0.1 with a free port, no persistence, in a
 * temp dir, through scripts/redis/run-server.sh (which also stops it when this process dies).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/redis/run-server.sh', import.meta.url));

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stop the server (its data is gone: nothing is persisted). */
  stop(): Promise<void>;
  /** Start it again on the same port. */
  start(): Promise<void>;
  /** Stop it for good and remove its directory. */
  close(): Promise<void>;
}

/** `args` go to redis-server (`['--replicaof', '127.0.0.1', String(port)]` makes a replica). */
export async function startRedis(args: readonly string[] = []): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'av-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;

  const start = async () => {
    if (child) return;
    child = spawn('bash', [SCRIPT, String(port), dir, String(process.pid), ...args], { stdio: 'ignore' });
    const proc = child;
    const exited = new Promise<never>((_r, reject) =>
      proc.once('exit', (code) =>
        reject(new Error(`redis-server exited early (${code}); see ${dir}/redis.log`)),
      ),
    );
    exited.catch(() => undefined);
    await Promise.race([waitForPong(port, 10_000), exited]);
  };
  const stop = async () => {
    const proc = child;
    if (!proc) return;
    child = undefined;
    if (proc.exitCode === null && proc.signalCode === null) {
      const gone = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      await gone;
    }
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Resolve once the server answers PING; reject after `ms`. */
async function waitForPong(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await ping(port)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server did not answer on 127.0.0.1:${port} within ${ms} ms`);
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      data += chunk.toString();
      if (data.includes('\r\n')) done(data.startsWith('+PONG'));
    });
  });
}
