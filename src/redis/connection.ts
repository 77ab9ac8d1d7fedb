import { createHash } from 'node:crypto';
import { OptionsError } from '../core/errors.js';
import { redact } from '../core/redact.js';
import { StoreError } from './errors.js';

/**
 * A connected node-redis client (`createClient()` of `redis` 4 or 5, after `await client.connect()`).
 * Only these members are used.
 *
 * @group Redis
 */
export interface NodeRedisClientLike {
  readonly isReady: boolean;
  readonly isOpen: boolean;
  sendCommand(args: string[]): Promise<unknown>;
}

/**
 * A connected node-redis cluster client (`createCluster()` of `redis` 4 or 5, after `await
 * cluster.connect()`). Only these members are used. Give it `defaults: { disableOfflineQueue: true }`
 * (see docs/deploying.md, Redis Cluster).
 *
 * @group Redis
 */
export interface NodeRedisClusterLike {
  readonly isOpen: boolean;
  sendCommand(
    firstKey: string | undefined,
    isReadonly: boolean | undefined,
    args: string[],
  ): Promise<unknown>;
}

/**
 * An ioredis client (`new Redis()` or `new Redis.Cluster()` of `ioredis` 5). Only these two members
 * are used.
 *
 * @group Redis
 */
export interface IORedisClientLike {
  readonly status: string;
  call(command: string, args: string[]): Promise<unknown>;
}

/** The merchant's own Redis client: node-redis or ioredis, told apart by their members. @group Redis */
export type RedisClientLike = NodeRedisClientLike | NodeRedisClusterLike | IORedisClientLike;

/** A Lua script with its SHA-1, run by `EVALSHA` (falling back to `EVAL` once per connection). */
export interface Script {
  readonly source: string;
  readonly sha: string;
}

export function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source, 'utf8').digest('hex') };
}

/** Redis error kinds after which the same command may well succeed a little later. */
const TRANSIENT = new Set(['READONLY', 'LOADING', 'MASTERDOWN', 'BUSY', 'TRYAGAIN', 'CLUSTERDOWN', 'OOM']);
/** Names of the classes both libraries use for an error reply from Redis (not a connection error). */
const REPLY_ERRORS = new Set(['ErrorReply', 'SimpleError', 'BlobError', 'ReplyError']);

type Send = (key: string, args: string[]) => Promise<unknown>;

/**
 * One small adapter per client library behind one method: send a command, get Redis's raw reply,
 * or a {@link StoreError}. Never queues a command while the client is not connected (both
 * libraries would otherwise hold it in an offline queue and run it after the caller was told it
 * failed), and never waits longer than `timeoutMs`. Every command touches one key (or keys of one
 * hash tag), so each goes to one cluster slot.
 */
export class RedisConnection {
  readonly #send: Send;
  readonly #notReady: () => string | undefined;
  readonly #timeoutMs: number;

  constructor(client: unknown, timeoutMs: number) {
    const c = (typeof client === 'object' && client !== null ? client : {}) as Partial<
      NodeRedisClientLike & IORedisClientLike
    >;
    if (typeof c.call === 'function' && typeof c.status === 'string') {
      // ioredis, one server or a cluster: `status` is 'ready' once connected (and after every reconnection).
      const io = c as IORedisClientLike;
      this.#send = (_key, args) => io.call(args[0] as string, args.slice(1));
      this.#notReady = () =>
        io.status === 'ready' ? undefined : `the ioredis client's status is "${io.status}" (not "ready")`;
    } else if (typeof c.sendCommand === 'function' && typeof c.isReady === 'boolean') {
      const nr = c as NodeRedisClientLike;
      this.#send = (_key, args) => nr.sendCommand(args);
      this.#notReady = () =>
        nr.isReady
          ? undefined
          : nr.isOpen
            ? 'the node-redis client is reconnecting'
            : 'the node-redis client is closed or was never connected (call `await client.connect()`)';
    } else if (typeof c.sendCommand === 'function' && typeof c.isOpen === 'boolean') {
      // A node-redis cluster has no `isReady`: each node's client has its own, and the cluster
      // routes a command by its first key (every command here is a write).
      const cluster = c as unknown as NodeRedisClusterLike;
      this.#send = (key, args) => cluster.sendCommand(key, false, args);
      this.#notReady = () =>
        cluster.isOpen
          ? undefined
          : 'the node-redis cluster client is closed or was never connected (call `await cluster.connect()`)';
    } else {
      throw new OptionsError(
        'Option `client` must be a connected node-redis client (`createClient()` or `createCluster()` from `redis`) or an ioredis client (`new Redis()`, `new Redis.Cluster()`)',
      );
    }
    this.#timeoutMs = timeoutMs;
  }

  /** Send one command whose first key is `key`; resolve with the raw reply. */
  command(key: string, args: string[]): Promise<unknown> {
    const notReady = this.#notReady();
    if (notReady !== undefined) {
      return Promise.reject(
        new StoreError(`Redis is not available: ${notReady}`, { code: 'store_unavailable' }),
      );
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new StoreError(`Redis did not answer within ${this.#timeoutMs} ms`, {
              code: 'store_unavailable',
            }),
          ),
        this.#timeoutMs,
      );
      timer.unref();
      new Promise((sent) => sent(this.#send(key, args))).then(
        (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(storeError(error));
        },
      );
    });
  }

  /** Run a script by its SHA-1; load it with `EVAL` when Redis does not know it yet. */
  async run(s: Script, keys: [string, ...string[]], args: string[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.command(keys[0], ['EVALSHA', s.sha, ...tail]);
    } catch (error) {
      if (!(error instanceof StoreError) || error.redisError !== 'NOSCRIPT') throw error;
      return await this.command(keys[0], ['EVAL', s.source, ...tail]);
    }
  }
}

/** Map whatever a client library threw to a {@link StoreError}; never lets a raw error out. */
function storeError(error: unknown): StoreError {
  if (error instanceof StoreError) return error;
  const e = error as { name?: unknown; message?: unknown; constructor?: { name?: unknown } } | null;
  const message = typeof e?.message === 'string' ? redact(e.message).slice(0, 300) : String(error);
  const kind = /^([A-Z][A-Z_-]+)(?:\s|$)/.exec(message)?.[1];
  // node-redis leaves `name` as 'Error' and tells replies apart by class; ioredis sets `name`.
  const reply = REPLY_ERRORS.has(String(e?.name)) || REPLY_ERRORS.has(String(e?.constructor?.name));
  if (reply && kind !== undefined) {
    return new StoreError(
      TRANSIENT.has(kind)
        ? `Redis cannot serve this command right now (${kind}): ${message}`
        : `Redis refused the command (${kind}): ${message}`,
      { code: TRANSIENT.has(kind) ? 'store_unavailable' : 'store_failed', cause: error, redisError: kind },
    );
  }
  return new StoreError(`Redis is not available: ${message}`, { code: 'store_unavailable', cause: error });
}
