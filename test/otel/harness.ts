/**
 * The real OpenTelemetry SDK with in-memory exporters, and a recorder of everything the SDK's
 * tracing channels publish (for the privacy tests).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  type DataPoint,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { CHANNELS } from '../../src/diagnostics/channels.js';
import { type Instrumentation, instrument } from '../../src/otel.js';

/** A reader the test collects from when it wants. */
class PullReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export interface Telemetry {
  spans(): ReadableSpan[];
  /** Forget the spans recorded so far. */
  resetSpans(): void;
  /** Every data point of the metric `name` (of every metric without a name): attributes and value. */
  points(name?: string): Promise<{ attributes: Record<string, unknown>; value: unknown }[]>;
  instrumentation: Instrumentation;
  close(): Promise<void>;
}

export function startTelemetry(): Telemetry {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  // Global too, so a test's own spans (the shop's request) are recorded as the parents.
  trace.setGlobalTracerProvider(tracerProvider);
  const reader = new PullReader({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const instrumentation = instrument({ tracerProvider, meterProvider });
  return {
    spans: () => exporter.getFinishedSpans(),
    resetSpans: () => exporter.reset(),
    async points(name) {
      const { resourceMetrics } = await reader.collect();
      const out: { attributes: Record<string, unknown>; value: unknown }[] = [];
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          if (name !== undefined && metric.descriptor.name !== name) continue;
          for (const p of metric.dataPoints as DataPoint<unknown>[]) {
            out.push({ attributes: { ...p.attributes }, value: p.value });
          }
        }
      }
      return out;
    },
    instrumentation,
    async close() {
      instrumentation.disable();
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      context.disable();
      trace.disable();
    },
  };
}

/** Everything published on every channel of the SDK, as JSON text, until `stop()`. */
export function recordChannels(): { messages: string[]; stop(): void } {
  const messages: string[] = [];
  const names = Object.values(CHANNELS).flatMap((n) =>
    ['start', 'end', 'asyncStart', 'asyncEnd', 'error'].map((e) => `tracing:${n}:${e}`),
  );
  const listener = (message: unknown, name: string | symbol) => {
    messages.push(`${String(name)} ${JSON.stringify(message)}`);
  };
  for (const n of names) subscribe(n, listener);
  return {
    messages,
    stop() {
      for (const n of names) unsubscribe(n, listener);
    },
  };
}
