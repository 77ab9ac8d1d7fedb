/**
 * Child process of `bench/otel.bench.ts`: one variant, set up once as a merchant's process is (an
 * OpenTelemetry set-up and `instrument()` are turned on at start-up, not around each call), so its
 * CPU figures hold that variant's work only. Answers `{ id, start: true }` with
 * `{ id, url, cpu }` (an authorization URL) and `{ id, callback }` with `{ id, cpu }`, `cpu` being
 * the milliseconds of CPU the call took in this process.
 */
import { pathToFileURL } from 'node:url';
import { context, SpanKind } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type * as Sdk from '../src/index.js';
import type * as OtelEntry from '../src/otel.js';
import { DEFAULT_TEST_CLIENT } from '../src/testing/options.js';
import { recordingProviders } from './otel-sdk.js';

/** What of OpenTelemetry a variant turns on. */
export type Otel = 'off' | 'set up' | 'recording';

export interface VariantSetup {
  /** The bundled core entry to load. */
  sdk: string;
  /** The bundled otel entry, for `recording`. */
  otelEntry: string;
  otel: Otel;
  issuer: string;
}

const send = (message: unknown) => process.send?.(message);

process.once('message', async (setup: VariantSetup) => {
  const sdk = (await import(pathToFileURL(setup.sdk).href)) as typeof Sdk;
  const client = await sdk.AffiliationClient.discover({
    issuer: setup.issuer,
    clientId: DEFAULT_TEST_CLIENT.clientId,
    clientSecret: DEFAULT_TEST_CLIENT.clientSecret as string,
    redirectUri: DEFAULT_TEST_CLIENT.redirectUris[0] as string,
    transactions: new sdk.MemoryTransactionStore({ bindToBrowser: false }),
  });
  // What a NodeSDK set-up does whether or not the SDK is instrumented: its context manager, and its
  // HTTP server instrumentation recording a span and a duration for each of the shop's requests (a
  // start and a callback are one request each), which the SDK's spans become children of.
  let inRequest = <T>(fn: () => Promise<T>): Promise<T> => fn();
  if (setup.otel !== 'off') {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const providers = recordingProviders();
    const tracer = providers.tracerProvider.getTracer('@opentelemetry/instrumentation-http');
    const serverDuration = providers.meterProvider
      .getMeter('@opentelemetry/instrumentation-http')
      .createHistogram('http.server.request.duration', { unit: 's' });
    const attributes = { 'http.request.method': 'GET', 'url.scheme': 'https', 'http.route': '/affiliation' };
    inRequest = (fn) =>
      tracer.startActiveSpan('GET /affiliation', { kind: SpanKind.SERVER, attributes }, async (span) => {
        const began = performance.now();
        try {
          return await fn();
        } finally {
          span.setAttribute('http.response.status_code', 200);
          span.end();
          serverDuration.record((performance.now() - began) / 1000, {
            ...attributes,
            'http.response.status_code': 200,
          });
        }
      });
    if (setup.otel === 'recording') {
      const { instrument } = (await import(pathToFileURL(setup.otelEntry).href)) as typeof OtelEntry;
      instrument(providers);
    }
  }
  const measured = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
    const before = process.cpuUsage();
    const result = await inRequest(fn);
    const used = process.cpuUsage(before);
    return [result, (used.user + used.system) / 1000];
  };

  process.on('message', async (message: { id: number; start?: true; callback?: string }) => {
    try {
      if (message.callback !== undefined) {
        const callback = message.callback;
        const [, cpu] = await measured(() => client.validateCallback(callback));
        send({ id: message.id, cpu });
      } else {
        const [{ url }, cpu] = await measured(() =>
          client.createAuthorizationRequest({
            affiliation: 'student',
            idpHint: 'https://idp.university.example/idp/shibboleth',
          }),
        );
        send({ id: message.id, url, cpu });
      }
    } catch (error) {
      send({ id: message.id, error: String(error) });
    }
  });
  send({ ready: true });
});
process.on('disconnect', () => process.exit(0));
