/**
 * The OpenTelemetry SDK as the otel bench records with it, as `NodeSDK` sets it up: spans batched
 * (exported in memory and forgotten: sending them is the exporter's cost, whatever the
 * instrumentation), metrics aggregated for a reader that the bench never collects.
 */
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';

/** Forgets the spans it exported, as an exporter that sends them away does: nothing piles up in memory. */
class ForgettingExporter extends InMemorySpanExporter {
  override export(...args: Parameters<InMemorySpanExporter['export']>): void {
    super.export(...args);
    this.reset();
  }
}

/** A reader collected by nobody: metrics are aggregated as for a Prometheus scrape, never exported. */
class PullReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export function recordingProviders(): { tracerProvider: BasicTracerProvider; meterProvider: MeterProvider } {
  return {
    tracerProvider: new BasicTracerProvider({
      spanProcessors: [new BatchSpanProcessor(new ForgettingExporter())],
    }),
    meterProvider: new MeterProvider({ readers: [new PullReader()] }),
  };
}
