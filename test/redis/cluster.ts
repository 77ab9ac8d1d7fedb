/**
 * A real Redis Cluster for tests: 3 masters and 3 replicas of Debian's `redis-server` on 127.0.0.1,
 * made by scripts/redis/run-cluster.sh (`redis-cli --cluster create`), with free ports; every node
 * stops by itself when this process dies.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from './server.js';

const SCRIPT = fileURLToPath(new URL('../../scripts/redis/run-cluster.sh', import.meta.url));
const run = promisify(execFile);

export interface ClusterNode {
  port: number;
  bus: number;
}

export interface RedisCluster {
  readonly nodes: readonly ClusterNode[];
  /** The port of the master that serves `key` now. */
  masterOf(key: string): Promise<number>;
  /** The masters' ports now. */
  masters(): Promise<number[]>;
  /**
   * Stop a node's redis-server: SIGTERM (the default) as an operator or a supervisor stops it: Redis 7
   * pauses writes and waits for its replicas to catch up before it exits (`shutdown-timeout`), so a
   * replica promoted after it holds every write the master acknowledged; SIGKILL as a crash, which can
   * lose the last acknowledged writes (asynchronous replication) unless they were waited for (WAIT):
   * docs/deploying.md.
   */
  kill(port: number, signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /**
   * Cut a replica off its master: the replica frozen (SIGSTOP, so it cannot reconnect) and its link
   * closed by the master, so nothing the master writes from now on reaches it (a frozen replica
   * alone would still find the writes in its socket's buffer when it goes on), until `resume`.
   */
  cutOff(master: number, replica: number): Promise<void>;
  resume(port: number): Promise<void>;
  /** The port of the master's replica, once it holds every write the master has (offsets equal). */
  syncedReplicaOf(master: number, ms?: number): Promise<number>;
  /** Start a killed node again in its old directory: it rejoins the cluster. */
  restart(port: number): Promise<void>;
  /** Resolve once every live node reports `cluster_state:ok` and only live masters serve slots. */
  waitHealthy(ms?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startCluster(size = 6): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'av-redis-cluster-'));
  const nodes: ClusterNode[] = [];
  for (let i = 0; i < size; i++) nodes.push({ port: await freePort(), bus: await freePort() });
  const script = (mode: string, ...pairs: ClusterNode[]) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(
        'bash',
        [SCRIPT, mode, dir, String(process.pid), ...pairs.map((n) => `${n.port}:${n.bus}`)],
        { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CLUSTER_NODE_TIMEOUT_MS: '1000' } },
      );
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`run-cluster.sh ${mode} failed (${code}): ${stderr}`)),
      );
    });
  const cli = async (port: number, ...args: string[]) =>
    (await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 5000 })).stdout;
  const live = new Set(nodes.map((n) => n.port));
  /** Paused nodes' process ids, to resume them (and to let them go on at the end). */
  const paused = new Map<number, number>();
  const pid = async (port: number) => Number(/process_id:(\d+)/.exec(await cli(port, 'info', 'server'))?.[1]);
  /** `CLUSTER NODES` as seen by a live node: per port, its flags and slots. */
  const layout = async () => {
    const [port] = live;
    const text = await cli(port as number, 'cluster', 'nodes');
    return text
      .trim()
      .split('\n')
      .map((line) => {
        const [, address, flags, , , , , , ...slots] = line.split(' ');
        return {
          port: Number(address?.split('@')[0]?.split(':')[1]),
          master: (flags ?? '').split(',').includes('master') && !(flags ?? '').includes('fail'),
          slots,
        };
      });
  };
  await script('create', ...nodes);
  return {
    nodes,
    masterOf: async (key) => {
      const slot = Number((await cli(nodes[0]?.port as number, 'cluster', 'keyslot', key)).trim());
      for (const node of await layout()) {
        if (!node.master) continue;
        for (const range of node.slots) {
          const [from, to = from] = range.split('-').map(Number);
          if (slot >= (from as number) && slot <= (to as number)) return node.port;
        }
      }
      throw new Error(`no master serves slot ${slot}`);
    },
    masters: async () => (await layout()).filter((n) => n.master && n.slots.length > 0).map((n) => n.port),
    kill: async (port, signal = 'SIGTERM') => {
      live.delete(port);
      process.kill(await pid(port), signal);
    },
    cutOff: async (master, port) => {
      const id = await pid(port);
      live.delete(port);
      paused.set(port, id);
      process.kill(id, 'SIGSTOP');
      await cli(master, 'client', 'kill', 'type', 'replica');
      if (!(await cli(master, 'info', 'replication')).includes('connected_slaves:0')) {
        throw new Error(`${master} still has a replica connected`);
      }
    },
    resume: async (port) => {
      process.kill(paused.get(port) as number, 'SIGCONT');
      paused.delete(port);
      live.add(port);
    },
    syncedReplicaOf: async (master, ms = 20_000) => {
      const until = Date.now() + ms;
      for (;;) {
        const info = await cli(master, 'info', 'replication');
        const offset = /master_repl_offset:(\d+)/.exec(info)?.[1];
        const replica = /slave0:ip=[^,]+,port=(\d+),state=online,offset=(\d+)/.exec(info);
        if (replica && replica[2] === offset) return Number(replica[1]);
        if (Date.now() > until) throw new Error(`no replica of ${master} caught up within ${ms} ms: ${info}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    restart: async (port) => {
      await script('node', nodes.find((n) => n.port === port) as ClusterNode);
      live.add(port);
    },
    waitHealthy: async (ms = 20_000) => {
      const until = Date.now() + ms;
      for (;;) {
        const states = await Promise.all([...live].map((p) => cli(p, 'cluster', 'info')));
        const ok = states.every((s) => s.includes('cluster_state:ok'));
        const serving = (await layout()).filter((n) => n.master && n.slots.length > 0);
        if (ok && serving.length === 3 && serving.every((n) => live.has(n.port))) return;
        if (Date.now() > until) throw new Error(`the cluster did not fail over within ${ms} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: async () => {
      for (const [port, id] of paused) {
        process.kill(id, 'SIGCONT');
        live.add(port);
      }
      paused.clear();
      await Promise.all(
        [...live].map((port) => cli(port, 'shutdown', 'nosave', 'now').catch(() => undefined)),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
