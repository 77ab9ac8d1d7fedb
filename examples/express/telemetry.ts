/**
 * OpenTelemetry for the Express example, on when `AV_METRICS_PORT` is set: metrics for a Prometheus
 * scrape at `http://127.0.0.1:<port>/metrics`, and spans printed to the console when
 * `AV_TRACE_CONSOLE=1`. In your application, use your own OpenTelemetry set-up (an OTLP exporter,
 * say) and call `instrument()` once after it; see docs/operations.md.
 *
 * In your application import from 'affiliation-validation/otel' instead of '../../src/otel.js'.
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { instrument } from '../../src/otel.js';

export interface TelemetrySettings {
  /** Port of the Prometheus endpoint on `host`. */
  metricsPort: number;
  /** Interface the endpoint binds to. Default 127.0.0.1: expose it to your scraper only. */
  host?: string;
  /** Print finished spans to the console. */
  traceToConsole?: boolean;
}

/** Start recording; resolves with a function that stops it and closes the endpoint. */
export async function startTelemetry(settings: TelemetrySettings): Promise<() => Promise<void>> {
  const exporter = new PrometheusExporter({ host: settings.host ?? '127.0.0.1', port: settings.metricsPort });
  const meterProvider = new MeterProvider({ readers: [exporter] });
  const tracerProvider = settings.traceToConsole
    ? new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] })
    : undefined;
  // Spans nest (token request under callback) through the context manager, as NodeSDK registers it.
  if (tracerProvider) context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const telemetry = instrument({ meterProvider, tracerProvider });
  return async () => {
    telemetry.disable();
    if (tracerProvider) context.disable();
    await Promise.all([meterProvider.shutdown(), tracerProvider?.shutdown()]);
  };
}

/** The settings from the environment, or undefined when telemetry is off. */
export function telemetryFromEnv(env: NodeJS.ProcessEnv = process.env): TelemetrySettings | undefined {
  const port = env.AV_METRICS_PORT;
  if (!port) return undefined;
  const metricsPort = Number(port);
  if (!Number.isInteger(metricsPort) || metricsPort < 1 || metricsPort > 65_535) {
    throw new Error(`AV_METRICS_PORT must be a port number (1-65535), not ${JSON.stringify(port)}`);
  }
  return { metricsPort, traceToConsole: env.AV_TRACE_CONSOLE === '1' };
}
