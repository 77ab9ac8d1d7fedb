/** The three client libraries the Redis store is tested with, each connected the way a merchant would. */
import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { createClient as createClient4, createCluster as createCluster4 } from 'redis4';
import type { RedisClientLike } from '../../src/redis.js';

export const LIBRARIES = ['node-redis 5', 'node-redis 4', 'ioredis 5'] as const;
export type Library = (typeof LIBRARIES)[number];

export interface Connected {
  client: RedisClientLike;
  /** A raw command on the same connection (for tests and benchmarks). */
  command(args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

/** Reconnect quickly, so a test that restarts Redis does not wait long. */
const reconnectMs = (retries: number) => Math.min(50 * (retries + 1), 200);

export async function connectClient(library: Library, port: number): Promise<Connected> {
  if (library === 'ioredis 5') {
    const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: reconnectMs });
    client.on('error', () => undefined);
    await client.connect();
    return {
      client,
      command: (args) => client.call(args[0] as string, args.slice(1)),
      close: async () => {
        client.disconnect();
      },
    };
  }
  const options = { socket: { host: '127.0.0.1', port, reconnectStrategy: reconnectMs } };
  const client = library === 'node-redis 5' ? createClient(options) : createClient4(options);
  client.on('error', () => undefined);
  await client.connect();
  return {
    client,
    command: (args) => client.sendCommand(args),
    close: async () => {
      if (client.isOpen) await client.disconnect();
    },
  };
}

/**
 * A cluster client of `library` over the cluster's nodes, connected the way docs/deploying.md
 * advises: node-redis with `disableOfflineQueue` on every node's client, both libraries with quick
 * reconnection.
 */
export async function connectCluster(library: Library, ports: readonly number[]): Promise<Connected> {
  if (library === 'ioredis 5') {
    const client = new Cluster(
      ports.map((port) => ({ host: '127.0.0.1', port })),
      { lazyConnect: true, clusterRetryStrategy: reconnectMs },
    );
    client.on('error', () => undefined);
    await client.connect();
    return {
      client,
      command: (args) => client.call(args[0] as string, args.slice(1)),
      close: async () => {
        client.disconnect();
      },
    };
  }
  const options = {
    rootNodes: ports.map((port) => ({ socket: { host: '127.0.0.1', port } })),
    defaults: { disableOfflineQueue: true, socket: { reconnectStrategy: reconnectMs } },
  };
  const client = library === 'node-redis 5' ? createCluster(options) : createCluster4(options);
  client.on('error', () => undefined);
  await client.connect();
  return {
    client,
    command: (args) => client.sendCommand(args[1], false, args),
    close: async () => {
      if (client.isOpen) await client.disconnect();
    },
  };
}
