import { createHash } from 'node:crypto';
import { OptionsError } from '../core/errors.js';
import { describe, integerOption } from '../core/options.js';
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
 * An ioredis client (`new Redis()` or `new Redis.Cluster()` of `ioredis` 5). Only these members are
 * used.
 *
 * @group Redis
 */
export interface IORedisClientLike {
  readonly status: string;
  /** `true` for a `Cluster`. */
  readonly isCluster?: boolean;
  call(command: string, args: string[]): Promise<unknown>;
  /** A write and its `WAIT` go as one pipeline: to the node of the write's key, on one connection. */
  pipeline(commands: string[][]): { exec(): Promise<[Error | null, unknown][] | null> };
  /** A `Cluster`'s: re-read the layout after a pipeline's write was answered `MOVED`. */
  refreshSlotsCache?(callback?: (error?: Error | null) => void): void;
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

/**
 * Redis error kinds after which the same command may well succeed a little later (`MOVED` and `ASK`
 * reach us only through an ioredis cluster pipeline, which leaves them to the caller).
 */
const TRANSIENT = new Set([
  'READONLY',
  'LOADING',
  'MASTERDOWN',
  'BUSY',
  'TRYAGAIN',
  'CLUSTERDOWN',
  'OOM',
  'MOVED',
  'ASK',
]);
/** Names of the classes both libraries use for an error reply from Redis (not a connection error). */
const REPLY_ERRORS = new Set(['ErrorReply', 'SimpleError', 'BlobError', 'ReplyError']);

/** Each command's error or reply, in order, as ioredis's pipeline answers. */
type Replies = [unknown, unknown][];
type Send = (key: string, commands: string[][]) => Promise<Replies>;
const settle = (sent: Promise<unknown>) =>
  sent.then(
    (reply): [unknown, unknown] => [null, reply],
    (error: unknown): [unknown, unknown] => [error ?? new Error('failed'), undefined],
  );

/**
 * One small adapter per client library behind one method: send a command, get Redis's raw reply,
 * or a {@link StoreError}. Never queues a command while the client is not connected (both
 * libraries would otherwise hold it in an offline queue and run it after the caller was told it
 * failed), and never waits longer than `timeoutMs`. Every command touches one key (or keys of one
 * hash tag), so each goes to one cluster slot.
 *
 * A write that must survive a crashed master ({@link replicated}) is answered only once a replica
 * acknowledged it (`WAIT 1`, sent with the write, in the same tick or pipeline, so both reach the
 * node of its key on one connection): on by default for a cluster client and for a server that
 * `INFO replication` shows with replicas (asked once, at the first such write), off with
 * `waitForReplica: false`.
 */
export class RedisConnection {
  /** Prefix of every key (option `keyPrefix`). */
  readonly prefix: string;
  readonly #send: Send;
  readonly #notReady: () => string | undefined;
  readonly #timeoutMs: number;
  /** Whether {@link replicated} waits for a replica: a promise while `INFO` is being asked. */
  #wait: boolean | Promise<boolean> | undefined;

  /** Check the options both Redis classes share; `commandTimeoutMs` is the most any command waits. */
  constructor(options: {
    client: unknown;
    keyPrefix?: unknown;
    commandTimeoutMs?: unknown;
    waitForReplica?: unknown;
  }) {
    const { client, waitForReplica } = options;
    const keyPrefix = options.keyPrefix ?? 'av:';
    if (typeof keyPrefix !== 'string' || !/^[^\s{}]{0,64}$/.test(keyPrefix)) {
      throw new OptionsError(
        `Option \`keyPrefix\` must be up to 64 characters without spaces, "{" or "}", got ${describe(keyPrefix)}`,
      );
    }
    this.prefix = keyPrefix;
    this.#timeoutMs = integerOption('commandTimeoutMs', options.commandTimeoutMs, 2_000, { max: 60_000 });
    if (waitForReplica !== undefined && typeof waitForReplica !== 'boolean') {
      throw new OptionsError(`Option \`waitForReplica\` must be a boolean, got ${describe(waitForReplica)}`);
    }
    const c = (typeof client === 'object' && client !== null ? client : {}) as Partial<
      NodeRedisClientLike & IORedisClientLike
    >;
    if (typeof c.call === 'function' && typeof c.status === 'string') {
      // ioredis, one server or a cluster: `status` is 'ready' once connected (and after every reconnection).
      const io = c as IORedisClientLike;
      this.#wait = waitForReplica ?? (io.isCluster ? true : undefined);
      this.#send = async (_key, sent) => {
        const [name, ...args] = sent[0] as string[];
        if (sent.length === 1) return [await settle(io.call(name as string, args))];
        // `call` takes any command name (a pipeline's own methods are the lower-case ones).
        const commands = sent.map((command) => ['call', ...command]);
        const replies = (await io.pipeline(commands).exec()) ?? [];
        // A cluster pipeline leaves a MOVED to its caller (its keyless WAIT is not redirected): the
        // write did not run, so learn the new layout and send both once more.
        const moved = /^MOVED /.test(String((replies[0]?.[0] as Error | null)?.message));
        if (!moved || io.refreshSlotsCache === undefined) return replies;
        await new Promise((done) => io.refreshSlotsCache?.(done));
        return (await io.pipeline(commands).exec()) ?? [];
      };
      this.#notReady = () =>
        io.status === 'ready' ? undefined : `the ioredis client's status is "${io.status}" (not "ready")`;
    } else if (typeof c.sendCommand === 'function' && typeof c.isReady === 'boolean') {
      const nr = c as NodeRedisClientLike;
      this.#wait = waitForReplica;
      // Sent in one tick: on one connection, in order.
      this.#send = (_key, commands) => Promise.all(commands.map((args) => settle(nr.sendCommand(args))));
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
      this.#wait = waitForReplica ?? true;
      // Sent in one tick, routed by the same key: to one node's client, in order.
      this.#send = (key, commands) =>
        Promise.all(commands.map((args) => settle(cluster.sendCommand(key, false, args))));
      this.#notReady = () =>
        cluster.isOpen
          ? undefined
          : 'the node-redis cluster client is closed or was never connected (call `await cluster.connect()`)';
    } else {
      throw new OptionsError(
        'Option `client` must be a connected node-redis client (`createClient()` or `createCluster()` from `redis`) or an ioredis client (`new Redis()`, `new Redis.Cluster()`)',
      );
    }
  }

  /** Send one command whose first key is `key`; resolve with the raw reply. */
  async command(key: string, args: string[]): Promise<unknown> {
    const [[error, reply] = [null, undefined]] = await this.#exchange(key, [args]);
    if (error) throw storeError(error);
    return reply;
  }

  /**
   * Send a write whose first key is `key` and, when this connection waits for replicas, `WAIT 1`
   * with it; resolve with the write's reply once a replica holds it, or fail with
   * `store_unavailable` (the write may be on the master only: a crash could lose it).
   */
  async replicated(key: string, args: string[]): Promise<unknown> {
    this.#wait ??= this.#hasReplicas(key);
    if (!(await this.#wait)) return this.command(key, args);
    const waitMs = Math.max(1, Math.floor(this.#timeoutMs / 2));
    const [[error, reply] = [null, undefined], [waitError, acked] = [null, 0]] = await this.#exchange(key, [
      args,
      ['WAIT', '1', String(waitMs)],
    ]);
    if (error) throw storeError(error);
    const failure = waitError ? storeError(waitError) : undefined;
    if (failure?.code === 'store_failed' && failure.redisError === 'NOPERM') throw failure;
    if (failure || typeof acked !== 'number' || acked < 1) {
      throw new StoreError(
        failure
          ? `Redis could not confirm that a replica holds the write (WAIT): ${failure.message}`
          : `No Redis replica confirmed the write within ${waitMs} ms (WAIT), so a crash of the master could still lose it; check the replicas (INFO replication), or set waitForReplica: false for a Redis without replicas`,
        { code: 'store_unavailable', cause: waitError ?? undefined },
      );
    }
    return reply;
  }

  /** Whether the server has replicas (`INFO replication`); asked again after a failure. */
  #hasReplicas(key: string): Promise<boolean> {
    const asked = this.command(key, ['INFO', 'replication']).then((info) =>
      /^connected_slaves:[1-9]/m.test(String(info)),
    );
    asked.catch(() => {
      if (this.#wait === asked) this.#wait = undefined;
    });
    return asked;
  }

  /** Send `commands` together (no queueing while not connected, at most `timeoutMs`). */
  #exchange(key: string, commands: string[][]): Promise<Replies> {
    const notReady = this.#notReady();
    if (notReady !== undefined) {
      return Promise.reject(
        new StoreError(`Redis is not available: ${notReady}`, { code: 'store_unavailable' }),
      );
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      const ms = this.#timeoutMs;
      timer = setTimeout(
        () => reject(new StoreError(`Redis did not answer within ${ms} ms`, { code: 'store_unavailable' })),
        ms,
      );
      timer.unref();
    });
    const answered = new Promise<Replies>((sent) => sent(this.#send(key, commands))).catch(
      (error: unknown) => {
        throw storeError(error);
      },
    );
    return Promise.race([answered, late]).finally(() => clearTimeout(timer));
  }

  /** Run a writing script by its SHA-1 ({@link replicated}); load it with `EVAL` when Redis lacks it. */
  async run(s: Script, keys: [string, ...string[]], args: string[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.replicated(keys[0], ['EVALSHA', s.sha, ...tail]);
    } catch (error) {
      if (!(error instanceof StoreError) || error.redisError !== 'NOSCRIPT') throw error;
      return await this.replicated(keys[0], ['EVAL', s.source, ...tail]);
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
