import { createHash } from 'node:crypto';
import { OptionsError } from '../core/errors.js';
import { redact } from '../core/redact.js';
import { StoreError } from './errors.js';

/**
 * A connected node-redis client (`createClient()` of `redis` 4 or 5, after `await client.connect()`).
 * Only these two members are used.
 *
 * @group Redis
 */
export interface NodeRedisClientLike {
  readonly isReady: boolean;
  readonly isOpen: boolean;
  sendCommand(args: string[]): Promise<unknown>;
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
export type RedisClientLike = NodeRedisClientLike | IORedisClientLike;

/** A Lua script with its SHA-1, run by `EVALSHA` (falling back to `EVAL` once per connection). */
export interface Script {
  readonly source: string;
  readonly sha: string;
}

export function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source, 'utf8').digest('hex') };
}

/**
 * A command in flight: when it times out, how to fail it, and its neighbours in the connection's
 * list of commands in flight. A doubly linked list instead of a `Set`: the store's own CPU per
 * put+take against an instant fake client fell from 7.0 to 6.6 µs (the `Set`'s add + delete per
 * command; bench/redis.bench.ts measures the same work against a real Redis).
 */
interface Pending {
  deadline: number;
  reject: (error: StoreError) => void;
  prev: Pending | undefined;
  next: Pending | undefined;
}

/** Redis error kinds after which the same command may well succeed a little later. */
const TRANSIENT = new Set(['READONLY', 'LOADING', 'MASTERDOWN', 'BUSY', 'TRYAGAIN', 'CLUSTERDOWN', 'OOM']);
/** Names of the classes both libraries use for an error reply from Redis (not a connection error). */
const REPLY_ERRORS = new Set(['ErrorReply', 'SimpleError', 'BlobError', 'ReplyError']);

/**
 * One small adapter per client library behind one method: send a command, get Redis's raw reply,
 * or a {@link StoreError}. Never queues a command while the client is not connected (both
 * libraries would otherwise hold it in an offline queue and run it after the caller was told it
 * failed), and never waits longer than `timeoutMs`.
 */
export class RedisConnection {
  readonly #send: (args: string[]) => Promise<unknown>;
  readonly #notReady: () => string | undefined;
  readonly #timeoutMs: number;
  /** Oldest command in flight (deadlines only grow along the list), or `undefined`. */
  #first: Pending | undefined;
  #last: Pending | undefined;
  #sweeper: NodeJS.Timeout | undefined;

  constructor(client: unknown, timeoutMs: number) {
    const c = client as Partial<NodeRedisClientLike & IORedisClientLike> | null;
    if (typeof c === 'object' && c !== null && typeof c.call === 'function' && typeof c.status === 'string') {
      // ioredis: `status` is 'ready' once connected (and after every reconnection).
      const io = c as IORedisClientLike;
      this.#send = (args) => io.call(args[0] as string, args.slice(1));
      this.#notReady = () =>
        io.status === 'ready' ? undefined : `the ioredis client's status is "${io.status}" (not "ready")`;
    } else if (
      typeof c === 'object' &&
      c !== null &&
      typeof c.sendCommand === 'function' &&
      typeof c.isReady === 'boolean'
    ) {
      const nr = c as NodeRedisClientLike;
      this.#send = (args) => nr.sendCommand(args);
      this.#notReady = () =>
        nr.isReady
          ? undefined
          : nr.isOpen
            ? 'the node-redis client is reconnecting'
            : 'the node-redis client is closed or was never connected (call `await client.connect()`)';
    } else {
      throw new OptionsError(
        'Option `client` must be a connected node-redis client (`createClient()` from `redis`) or an ioredis client (`new Redis()`)',
      );
    }
    this.#timeoutMs = timeoutMs;
  }

  /** Send one command; resolve with the raw reply. */
  command(args: string[]): Promise<unknown> {
    const notReady = this.#notReady();
    if (notReady !== undefined) {
      return Promise.reject(
        new StoreError(`Redis is not available: ${notReady}`, { code: 'store_unavailable' }),
      );
    }
    let sent: Promise<unknown>;
    try {
      sent = this.#send(args);
    } catch (error) {
      sent = Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      const last = this.#last;
      const entry: Pending = {
        deadline: performance.now() + this.#timeoutMs,
        reject,
        prev: last,
        next: undefined,
      };
      if (last === undefined) this.#first = entry;
      else last.next = entry;
      this.#last = entry;
      this.#sweeper ??= this.#startSweeper();
      sent.then(
        (reply) => {
          if (this.#remove(entry)) resolve(reply);
        },
        (error: unknown) => {
          if (!this.#remove(entry)) return;
          try {
            storeError(error);
          } catch (mapped) {
            reject(mapped);
          }
        },
      );
    });
  }

  /** Take `entry` off the list; `false` when it was no longer on it (it timed out). */
  #remove(entry: Pending): boolean {
    const { prev, next } = entry;
    if (prev === undefined && this.#first !== entry) return false;
    if (prev === undefined) this.#first = next;
    else prev.next = next;
    if (next === undefined) this.#last = prev;
    else next.prev = prev;
    entry.prev = undefined;
    entry.next = undefined;
    return true;
  }

  /**
   * One interval per connection, while commands are in flight, instead of a timer per command: a
   * `setTimeout` + `clearTimeout` pair per command cost 10–15 µs of CPU each on a live event loop
   * (bench/redis.bench.ts, client CPU per put+take). A command times out within a quarter of
   * `timeoutMs` after its deadline.
   */
  #startSweeper(): NodeJS.Timeout {
    const timer = setInterval(
      () => {
        if (this.#first === undefined) {
          clearInterval(timer);
          this.#sweeper = undefined;
          return;
        }
        const now = performance.now();
        // Deadlines grow along the list: stop at the first command still in time.
        for (let entry = this.#first; entry !== undefined && now >= entry.deadline; entry = this.#first) {
          this.#remove(entry);
          entry.reject(
            new StoreError(`Redis did not answer within ${this.#timeoutMs} ms`, {
              code: 'store_unavailable',
            }),
          );
        }
      },
      Math.max(5, Math.ceil(this.#timeoutMs / 4)),
    );
    timer.unref();
    return timer;
  }

  /** Run a script by its SHA-1; load it with `EVAL` when Redis does not know it yet. */
  async run(s: Script, keys: string[], args: string[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.command(['EVALSHA', s.sha, ...tail]);
    } catch (error) {
      if (!(error instanceof StoreError) || error.redisError !== 'NOSCRIPT') throw error;
      return await this.command(['EVAL', s.source, ...tail]);
    }
  }
}

/** Map whatever a client library threw to a {@link StoreError}; never lets a raw error out. */
function storeError(error: unknown): never {
  if (error instanceof StoreError) throw error;
  const e = error as { name?: unknown; message?: unknown; constructor?: { name?: unknown } } | null;
  const message = typeof e?.message === 'string' ? redact(e.message).slice(0, 300) : String(error);
  const kind = /^([A-Z][A-Z_-]+)(?:\s|$)/.exec(message)?.[1];
  // node-redis leaves `name` as 'Error' and tells replies apart by class; ioredis sets `name`.
  const reply = REPLY_ERRORS.has(String(e?.name)) || REPLY_ERRORS.has(String(e?.constructor?.name));
  if (reply && kind !== undefined) {
    throw new StoreError(
      TRANSIENT.has(kind)
        ? `Redis cannot serve this command right now (${kind}): ${message}`
        : `Redis refused the command (${kind}): ${message}`,
      { code: TRANSIENT.has(kind) ? 'store_unavailable' : 'store_failed', cause: error, redisError: kind },
    );
  }
  throw new StoreError(`Redis is not available: ${message}`, { code: 'store_unavailable', cause: error });
}
