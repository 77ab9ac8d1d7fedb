/**
 * What the tracing channels cost a validation (`npm run bench otel`), CPU per code-flow validation
 * (start + callback: token request, ID token verification, every check) against the package's test
 * provider in a child process, four ways in the same run:
 *
 * - **no channels**: the SDK bundled with `src/diagnostics/channels.ts` replaced by a stub whose
 *   `traceAsync` only calls the function (the code as it would be without channels);
 * - **channels, no subscriber**: the SDK as shipped (bundled the same way), nobody listening;
 * - **OpenTelemetry SDK set up**: the same bundle, with what a merchant's `NodeSDK` set-up does whether
 *   or not the SDK is instrumented: its AsyncLocalStorage context manager, and its HTTP server
 *   instrumentation recording a span and a duration for each shop request (each call runs inside
 *   that span), nobody subscribed;
 * - **OpenTelemetry recording**: that set-up with `affiliation-validation/otel` (bundled too)
 *   subscribed, the real OpenTelemetry SDK recording every span and every metric as `NodeSDK` does:
 *   spans through a `BatchSpanProcessor` (its exporter in memory), metrics aggregated for a reader.
 *
 * Each variant runs in PROCESSES processes of its own (bench/otel-variant.ts), set up once at their
 * start as a merchant's process is: turning `instrument()` on and off around calls in one process
 * would make V8 throw away optimized code at each switch, a cost no merchant pays. Two processes
 * running the same code differ by a few per cent (memory layout, what the JIT decided), as much as
 * the effect measured, so each variant's figure pools several processes. A round runs PER_ROUND
 * validations of each variant, spread over its processes, one validation at a time in a random order
 * (a process that runs just after itself finds its caches warm); the ratios are medians of each
 * round's ratios, so a load that changes during the run (the machine is shared) shifts both sides of
 * a ratio alike. The figures are a long-running process's: the WARM_UP_ROUNDS rounds before (400
 * validations per process) are not counted, because in them V8 still compiles the code of the SDK,
 * `instrument()` and the OpenTelemetry SDK, also on its background threads, which `process.cpuUsage()`
 * counts: a cost each process pays once. Part of that warm-up is printed apart.
 *
 * Targets (issue 19): no measurable cost without a subscriber; ≤ +5 % with OpenTelemetry.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { context, createContextKey } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { build } from 'esbuild';
import {
  tokenChannel,
  traceAsync,
  type ValidationCallbackContext,
  validationCallbackChannel,
  validationStartChannel,
} from '../src/diagnostics/channels.js';
import type * as OtelEntry from '../src/otel.js';
import { recordingProviders } from './otel-sdk.js';
import type { Otel, VariantSetup } from './otel-variant.js';
import { startProvider } from './rp.bench.js';
import { fmt, report } from './util.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = 30;
const WARM_UP_ROUNDS = 100;
/** Warm-up rounds printed apart: the rounds an earlier version of this bench measured. */
const EARLY = [5, 35] as const;
const PER_ROUND = 12;
const PROCESSES = 3;
/** Synthetic validations per block of the handlers-only figure, and blocks per side. */
const SYNTHETIC = 2000;
const SYNTHETIC_BLOCKS = 6;
const INSTITUTION = 'https://idp.university.example/idp/shibboleth';

/** An entry point bundled as the package is (its packages external), optionally without the channels. */
async function bundle(dir: string, entry: string, withChannels: boolean): Promise<string> {
  const outfile = path.join(dir, `${path.basename(entry, '.ts')}-${withChannels ? 'with' : 'without'}.mjs`);
  const stub = path.join(dir, 'channels-stub.ts');
  writeFileSync(
    stub,
    `export const CHANNELS = {};
export const traceAsync = (_tc, _context, fn) => fn();
const none = {};
export const validationStartChannel = none, validationCallbackChannel = none, tokenChannel = none,
  keysChannel = none, hintsRefreshChannel = none, docsSiteRequestChannel = none;
`,
  );
  await build({
    entryPoints: [path.join(ROOT, entry)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile,
    packages: 'external',
    logLevel: 'error',
    plugins: withChannels
      ? []
      : [
          {
            name: 'no-channels',
            setup(b) {
              b.onResolve({ filter: /diagnostics\/channels\.js$/ }, () => ({ path: stub }));
            },
          },
        ],
  });
  return outfile;
}

/**
 * CPU (µs) per validation of what `instrument()` itself does, hot: the channels driven as a code-flow
 * validation drives them (a start; a callback around a token request), with no I/O and nothing else
 * in between, in the shop request's context, without and with `instrument()` (blocks alternating).
 */
async function handlersOnly(otelEntry: string): Promise<{ off: number; on: number }> {
  const { instrument } = (await import(otelEntry)) as typeof OtelEntry;
  const shop = createContextKey('the shop request');
  const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
  const validation = async () => {
    await context.with(context.active().setValue(shop, true), () =>
      traceAsync(
        validationStartChannel,
        () => ({
          flow: 'code' as const,
          affiliation: 'student',
          identifier: 'transient',
          institution: INSTITUTION,
        }),
        tick,
      ),
    );
    let callback: ValidationCallbackContext | undefined;
    await context.with(context.active().setValue(shop, true), () =>
      traceAsync(
        validationCallbackChannel,
        () => {
          callback = {};
          return callback;
        },
        async () => {
          // The fields the callback learns from its transaction, as the SDK fills them in.
          if (callback) {
            callback.flow = 'code';
            callback.affiliation = 'student';
            callback.identifier = 'transient';
            callback.institution = INSTITUTION;
            callback.transactionAgeMs = 4000;
          }
          await traceAsync(
            tokenChannel,
            () => ({ method: 'POST', url: 'http://127.0.0.1:8080/token' }),
            tick,
            (ctx) => {
              ctx.status = 200;
            },
          );
          await tick();
        },
      ),
    );
  };
  const block = async () => {
    const before = process.cpuUsage();
    for (let i = 0; i < SYNTHETIC; i++) await validation();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / SYNTHETIC;
  };
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const providers = recordingProviders();
  const off: number[] = [];
  const on: number[] = [];
  try {
    for (let b = 0; b < SYNTHETIC_BLOCKS + 1; b++) {
      const offCpu = await block();
      const telemetry = instrument(providers);
      const onCpu = await block();
      telemetry.disable();
      if (b === 0) continue; // warm-up
      off.push(offCpu);
      on.push(onCpu);
    }
  } finally {
    context.disable();
    await Promise.all([providers.tracerProvider.shutdown(), providers.meterProvider.shutdown()]);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  return { off: median(off), on: median(on) };
}

/** The list in a random order (Fisher–Yates). */
function shuffled<T>(list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [list[i], list[j]] = [list[j] as T, list[i] as T];
  }
  return list;
}

/** A variant's process: `start()` and `callback(url)` give what the call returned and its CPU (ms). */
async function startVariant(setup: VariantSetup) {
  const child: ChildProcess = fork(fileURLToPath(new URL('./otel-variant.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  type Answer = { id?: number; url?: string; cpu?: number; error?: string; ready?: true };
  const waiting = new Map<number, { resolve(answer: Answer): void; reject(error: Error): void }>();
  let next = 0;
  child.on('message', (answer: Answer) => {
    if (answer.id === undefined) return;
    const w = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (answer.error === undefined) w?.resolve(answer);
    else w?.reject(new Error(answer.error));
  });
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (answer: Answer) => {
      if (answer.ready) resolve();
    });
    child.send(setup);
  });
  const ask = (message: { start: true } | { callback: string }) =>
    new Promise<Answer>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      child.send({ id, ...message });
    });
  return {
    start: async () => {
      const { url, cpu } = await ask({ start: true });
      return { url: url as string, cpu: cpu as number };
    },
    callback: async (callback: string) => (await ask({ callback })).cpu as number,
    stop: () => child.disconnect(),
  };
}

export default async function run(): Promise<void> {
  // Inside the repository, so the bundles' external packages resolve from its node_modules.
  mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, '.tmp', 'otel-bench-'));
  const provider = await startProvider();
  /** Each variant's processes. */
  const variants: Awaited<ReturnType<typeof startVariant>>[][] = [];
  try {
    const withoutChannels = await bundle(dir, 'src/index.ts', false);
    const shipped = await bundle(dir, 'src/index.ts', true);
    const otelEntry = await bundle(dir, 'src/otel.ts', true);
    const plans: [string, string, Otel][] = [
      ['no channels', withoutChannels, 'off'],
      ['channels, no subscriber', shipped, 'off'],
      ['OpenTelemetry SDK set up', shipped, 'set up'],
      ['OpenTelemetry recording', shipped, 'recording'],
    ];
    for (const [, sdk, otel] of plans) {
      const processes: Awaited<ReturnType<typeof startVariant>>[] = [];
      variants.push(processes);
      for (let p = 0; p < PROCESSES; p++)
        processes.push(await startVariant({ sdk, otelEntry, otel, issuer: provider.issuer }));
    }

    /** CPU (ms) of one validation's RP calls in process `p` of variant `v`; the login at the provider is not counted. */
    const validation = async (v: number, p: number): Promise<number> => {
      const variant = variants[v]?.[p] as Awaited<ReturnType<typeof startVariant>>;
      const { url, cpu } = await variant.start();
      const callback = await provider.authorize(url);
      return cpu + (await variant.callback(callback));
    };
    const samples = plans.map((): number[] => []);
    /** Samples of the EARLY rounds, while V8 still compiles, printed apart. */
    const early = plans.map((): number[] => []);
    for (let r = 0; r < ROUNDS + WARM_UP_ROUNDS; r++) {
      const cpu = plans.map(() => 0);
      for (let i = 0; i < PER_ROUND; i++) {
        const order = shuffled(plans.map((_, v) => v));
        for (const v of order) cpu[v] = (cpu[v] as number) + (await validation(v, i % PROCESSES));
      }
      if (r < WARM_UP_ROUNDS) {
        if (r >= EARLY[0] && r < EARLY[1])
          cpu.forEach((c, v) => {
            early[v]?.push(c / PER_ROUND);
          });
        continue;
      }
      cpu.forEach((c, v) => {
        samples[v]?.push(c / PER_ROUND);
      });
    }

    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const at = (xs: number[], q: number) => sorted(xs)[Math.floor(q * xs.length)] as number;
    /** Each round's ratio of variant `a` to variant `b`. */
    const ratios = (a: number, b: number, of = samples) =>
      (of[a] ?? []).map((x, i) => x / (of[b]?.[i] as number));
    const ratioText = (xs: number[]) =>
      `${fmt(at(xs, 0.5), 3)}×  (${fmt(at(xs, 0.25), 3)}–${fmt(at(xs, 0.75), 3)})`;
    console.log(
      `CPU per code-flow validation (start + callback, RP side), ${ROUNDS} rounds of ${PER_ROUND} per variant over its ${PROCESSES} processes after ${WARM_UP_ROUNDS} rounds of warm-up, interleaved in random order; median, and each round's ratio to "no channels" (median, middle half of rounds):`,
    );
    plans.forEach(([name], v) => {
      report(`  ${name}`, `${fmt(at(samples[v] ?? [], 0.5), 3)} ms  ${ratioText(ratios(v, 0))}`);
    });
    report('  recording over the set-up alone (what instrument() adds)', ratioText(ratios(3, 2)));
    report(
      `  the same over validations ${(EARLY[0] * PER_ROUND) / PROCESSES + 1}–${(EARLY[1] * PER_ROUND) / PROCESSES} of each process (V8 still compiling)`,
      ratioText(ratios(3, 2, early)),
    );
    // Two copies of the same code differ by this much here: the noise floor for "no measurable cost".
    const noChannels = samples[0] ?? [];
    const half = Math.floor(noChannels.length / 2);
    const spread = at(noChannels.slice(0, half), 0.5) / at(noChannels.slice(half), 0.5);
    report('  noise (first half vs second half of "no channels")', `${fmt(spread, 3)}×`);

    for (const variant of variants.splice(0).flat()) variant.stop();
    const { off, on } = await handlersOnly(pathToFileURL(otelEntry).href);
    const setUp = at(samples[2] ?? [], 0.5);
    console.log(
      `instrument()'s own work, hot (the channels driven as a validation drives them, no I/O, median of ${SYNTHETIC_BLOCKS} blocks of ${SYNTHETIC}):`,
    );
    report(
      '  per validation',
      `${fmt(on - off, 1)} µs  (${fmt((100 * (on - off)) / 1000 / setUp, 2)} % of a validation with OpenTelemetry set up)`,
    );
  } finally {
    for (const variant of variants.flat()) variant.stop();
    provider.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
