/**
 * What the tracing channels cost a validation (`npm run bench otel`), CPU per code-flow validation
 * (start + callback: token request, ID token verification, every check) against the package's test
 * provider in a child process, three ways in the same run, in alternating order:
 *
 * - **no channels**: the SDK bundled with `src/diagnostics/channels.ts` replaced by a stub whose
 *   `traceAsync` only calls the function (the code as it would be without channels);
 * - **channels, no subscriber**: the SDK as shipped (bundled the same way), nobody listening;
 * - **OpenTelemetry SDK set up**: the same bundle, with what a merchant's OpenTelemetry set-up turns
 *   on whether or not the SDK is instrumented (the AsyncLocalStorage context manager, as `NodeSDK`
 *   registers it, each call in the shop request's context as its HTTP instrumentation makes it),
 *   nobody subscribed;
 * - **OpenTelemetry recording**: that set-up with `affiliation-validation/otel` subscribed, the real
 *   OpenTelemetry SDK recording every span (batched, in memory) and every metric.
 *
 * Targets (issue 19): no measurable cost without a subscriber; ≤ +5 % with OpenTelemetry.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { context, createContextKey } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { build } from 'esbuild';
import type * as Sdk from '../src/index.js';
import { instrument } from '../src/otel.js';
import { DEFAULT_TEST_CLIENT } from '../src/testing/options.js';
import { startProvider } from './rp.bench.js';
import { fmt, report } from './util.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = 12;
const SHOP_REQUEST = createContextKey('the shop request');
const PER_ROUND = 20;

/** The core entry bundled as the package is, optionally without the channels. */
async function bundle(dir: string, withChannels: boolean): Promise<typeof Sdk> {
  const outfile = path.join(dir, withChannels ? 'with.mjs' : 'without.mjs');
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
    entryPoints: [path.join(ROOT, 'src/index.ts')],
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
  return (await import(pathToFileURL(outfile).href)) as typeof Sdk;
}

class PullReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export default async function run(): Promise<void> {
  // Inside the repository, so the bundles' external packages resolve from its node_modules.
  mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, '.tmp', 'otel-bench-'));
  const provider = await startProvider();
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  try {
    const variants = {
      'no channels': await bundle(dir, false),
      'channels, no subscriber': await bundle(dir, true),
    };
    const clients = new Map<string, Sdk.AffiliationClient>();
    for (const [name, sdk] of Object.entries(variants)) {
      clients.set(
        name,
        await sdk.AffiliationClient.discover({
          issuer: provider.issuer,
          clientId: DEFAULT_TEST_CLIENT.clientId,
          clientSecret: DEFAULT_TEST_CLIENT.clientSecret as string,
          redirectUri: DEFAULT_TEST_CLIENT.redirectUris[0] as string,
          transactions: new sdk.MemoryTransactionStore({ bindToBrowser: false }),
        }),
      );
    }

    /** CPU (ms, all threads) of PER_ROUND validations' RP calls; the logins at the provider are not counted. */
    const round = async (
      client: Sdk.AffiliationClient,
      otel: 'off' | 'set up' | 'recording',
    ): Promise<number> => {
      const contextManager = otel === 'off' ? undefined : new AsyncLocalStorageContextManager().enable();
      if (contextManager) context.setGlobalContextManager(contextManager);
      const recording = otel === 'recording';
      const telemetry = recording ? instrument({ tracerProvider, meterProvider }) : undefined;
      // With OpenTelemetry set up, each call runs in the shop request's context, as the HTTP server
      // instrumentation of a NodeSDK set-up makes it: the context manager is then really in use.
      const inRequest = <T>(fn: () => Promise<T>): Promise<T> =>
        otel === 'off' ? fn() : context.with(context.active().setValue(SHOP_REQUEST, true), fn);
      let cpu = 0;
      try {
        for (let i = 0; i < PER_ROUND; i++) {
          let before = process.cpuUsage();
          const { url } = await inRequest(() =>
            client.createAuthorizationRequest({
              affiliation: 'student',
              idpHint: 'https://idp.university.example/idp/shibboleth',
            }),
          );
          let used = process.cpuUsage(before);
          cpu += (used.user + used.system) / 1000;
          const callback = await provider.authorize(url);
          before = process.cpuUsage();
          await inRequest(() => client.validateCallback(callback));
          used = process.cpuUsage(before);
          cpu += (used.user + used.system) / 1000;
        }
      } finally {
        telemetry?.disable();
        if (contextManager) context.disable();
      }
      if (recording) {
        await tracerProvider.forceFlush();
        await reader.collect();
        exporter.reset();
      }
      return cpu / PER_ROUND;
    };

    const shipped = clients.get('channels, no subscriber') as Sdk.AffiliationClient;
    const plans: [string, Sdk.AffiliationClient, 'off' | 'set up' | 'recording'][] = [
      ['no channels', clients.get('no channels') as Sdk.AffiliationClient, 'off'],
      ['channels, no subscriber', shipped, 'off'],
      ['OpenTelemetry SDK set up', shipped, 'set up'],
      ['OpenTelemetry recording', shipped, 'recording'],
    ];
    const samples = new Map<string, number[]>(plans.map(([name]) => [name, []]));
    for (let r = 0; r < ROUNDS + 2; r++) {
      const order = r % 2 === 0 ? plans : [...plans].reverse();
      for (const [name, client, recording] of order) {
        const cpu = await round(client, recording);
        if (r >= 2) samples.get(name)?.push(cpu); // two warm-up rounds
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    const base = median(samples.get('no channels') ?? []);
    console.log(
      `CPU per code-flow validation (start + callback, RP side), median of ${ROUNDS} rounds of ${PER_ROUND}, alternating:`,
    );
    for (const [name] of plans) {
      const m = median(samples.get(name) ?? []);
      report(`  ${name}`, `${fmt(m, 3)} ms  (${fmt(m / base, 3)}×)`);
    }
    const setUp = median(samples.get('OpenTelemetry SDK set up') ?? []);
    report(
      '  recording over the set-up alone (what instrument() adds)',
      `${fmt(median(samples.get('OpenTelemetry recording') ?? []) / setUp, 3)}×`,
    );
    // Two copies of the same code differ by this much here: the noise floor for "no measurable cost".
    const noChannels = samples.get('no channels') ?? [];
    const half = Math.floor(noChannels.length / 2);
    const spread = median(noChannels.slice(0, half)) / median(noChannels.slice(half));
    report('  noise (first half vs second half of "no channels")', `${fmt(spread, 3)}×`);
  } finally {
    provider.stop();
    await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    rmSync(dir, { recursive: true, force: true });
  }
}
