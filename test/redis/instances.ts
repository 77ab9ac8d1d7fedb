/** App instances in their own processes (test/redis/worker.ts), each with its own Redis connection. */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Library } from './clients.js';
import type { WorkerMessage } from './worker.js';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

export interface Instance {
  request<T = { outcomes: string[] }>(message: WorkerMessage): Promise<T>;
  close(): Promise<void>;
}

export async function startInstances(
  count: number,
  init: { library: Library; port: number; cluster?: number[]; keyPrefix: string; secret: string },
): Promise<Instance[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const child = fork(WORKER, [], {
        execArgv: ['--import', 'tsx'],
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      const instance = wrap(child);
      await instance.request({ type: 'init', ...init });
      return instance;
    }),
  );
}

function wrap(child: ChildProcess): Instance {
  let pending: { resolve: (v: never) => void; reject: (e: Error) => void } | undefined;
  child.on('message', (message: { type: string; code?: string; message?: string }) => {
    const p = pending;
    pending = undefined;
    if (message.type === 'error') p?.reject(new Error(`worker failed (${message.code}): ${message.message}`));
    else p?.resolve(message as never);
  });
  child.on('exit', (code) => pending?.reject(new Error(`worker exited (${code})`)));
  return {
    request: (message) =>
      new Promise((resolve, reject) => {
        pending = { resolve: resolve as (v: never) => void, reject };
        child.send(message);
      }),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'close' });
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill();
    },
  };
}
