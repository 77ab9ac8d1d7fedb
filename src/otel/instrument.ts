/**
 * OpenTelemetry spans and metrics from the SDK's tracing channels (../diagnostics/channels.ts).
 * Nothing here is called by the SDK itself: the merchant turns it on with {@link instrument}, and
 * only then does the SDK publish (a channel with no subscriber costs one check).
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import { type TracingChannelSubscribers, tracingChannel } from 'node:diagnostics_channel';
import {
  type Attributes,
  type Context,
  context,
  type MeterProvider,
  metrics,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { OptionsError } from '../core/errors.js';
import {
  CHANNELS,
  type DocsSiteRequestContext,
  type HintsRefreshContext,
  type OutcomeFields,
  type ServiceRequestContext,
  type ValidationCallbackContext,
  type ValidationStartContext,
} from '../diagnostics/channels.js';

/** Options of {@link instrument}. */
export interface InstrumentOptions {
  /** Where spans go. Default: the global tracer provider (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider | undefined;
  /** Where metrics go. Default: the global meter provider (`metrics.getMeterProvider()`). */
  meterProvider?: MeterProvider | undefined;
}

/** What {@link instrument} returns. */
export interface Instrumentation {
  /** Unsubscribe from every channel: the SDK stops publishing, nothing more is recorded. */
  disable(): void;
}

/** The instrumentation scope's name: spans and metrics carry it. */
export const INSTRUMENTATION_NAME = 'affiliation-validation';

/** Attribute names of the SDK's own (not semantic-convention) attributes. */
export const ATTR = {
  outcome: 'affiliation_validation.outcome',
  flow: 'affiliation_validation.flow',
  affiliation: 'affiliation_validation.affiliation',
  identifier: 'affiliation_validation.identifier',
  institution: 'affiliation_validation.institution',
  feed: 'affiliation_validation.hints.feed',
  refreshStatus: 'affiliation_validation.hints.refresh.status',
  keysForced: 'affiliation_validation.keys.forced',
} as const;

/**
 * The one value of `affiliation_validation.institution` for an institution that neither the ID
 * token asserted nor the configured hints know, and of `error.type` for an error that is not the
 * SDK's (the semantic conventions' `_OTHER`): what a visitor posts never becomes a series of its own.
 */
const OTHER = '_OTHER';

/**
 * Whether an instrumentation records in this process. The channels and the context store it binds are
 * the process's, so a second one would not add to the first but nest in it (each span twice, one
 * inside the other): it is refused instead.
 */
let recording = false;

/** Histogram buckets, in seconds, for a shopper's time from start to callback. */
const VALIDATION_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300, 600];
/** Semantic-convention buckets of `http.client.request.duration`. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * Record spans and metrics of validations, key fetches, token requests, hint refreshes and
 * docs-site requests with OpenTelemetry. Call once at start-up, after your OpenTelemetry SDK is set
 * up; instruments and attributes are listed in docs/operations.md. One instrumentation records at a
 * time: to send to several backends, give one MeterProvider several readers (or one TracerProvider
 * several span processors).
 *
 * @throws {OptionsError} while another `instrument()` of this process records (until its `disable()`).
 *
 * @example
 * ```ts
 * import { instrument } from 'affiliation-validation/otel';
 * const telemetry = instrument(); // the global tracer and meter providers
 * // … on shutdown:
 * telemetry.disable();
 * ```
 */
export function instrument(options: InstrumentOptions = {}): Instrumentation {
  if (recording) {
    throw new OptionsError(
      'instrument() is already recording in this process: call disable() on the instrumentation it returned before instrumenting again (send to several backends through one provider with several readers or span processors)',
    );
  }
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_NAME);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_NAME);

  const validations = meter.createCounter('affiliation_validation.validations', {
    description: 'Validations checked at the callback, by outcome, error code, affiliation and institution.',
    unit: '{validation}',
  });
  const starts = meter.createCounter('affiliation_validation.starts', {
    description: 'Validations started (shoppers sent to the service), by affiliation and institution.',
    unit: '{validation}',
  });
  const validationDuration = meter.createHistogram('affiliation_validation.validation.duration', {
    description:
      "A validation's duration: from its start to the checked callback (the shopper's time at the service).",
    unit: 's',
    advice: { explicitBucketBoundaries: VALIDATION_BUCKETS },
  });
  const staleHints = meter.createCounter('affiliation_validation.stale_hints', {
    description:
      'Institution hints the service did not resolve (access_denied, entity_id error), by institution.',
    unit: '{hint}',
  });
  const refreshes = meter.createCounter('affiliation_validation.hints.refreshes', {
    description: 'Hint feed refreshes, by status.',
    unit: '{refresh}',
  });
  const httpDuration = meter.createHistogram('http.client.request.duration', {
    description: 'Duration of HTTP client requests to the documentation site.',
    unit: 's',
    advice: { explicitBucketBoundaries: HTTP_BUCKETS },
  });

  // The latest state of each hint feed, read when metrics are collected (age grows between refreshes).
  const feeds = new Map<string, { updatedAt: number | undefined; size: number }>();
  const hintAge = meter.createObservableGauge('affiliation_validation.hints.age', {
    description: 'Age of the served hint list: time since it was last fetched successfully.',
    unit: 's',
  });
  const hintSize = meter.createObservableGauge('affiliation_validation.hints.size', {
    description: 'Institutions in the served hint list.',
    unit: '{institution}',
  });
  const observeHints = (result: import('@opentelemetry/api').BatchObservableResult): void => {
    const now = Date.now();
    for (const [feed, state] of feeds) {
      const attrs = { [ATTR.feed]: feed };
      result.observe(hintSize, state.size, attrs);
      if (state.updatedAt !== undefined)
        result.observe(hintAge, Math.max(0, now - state.updatedAt) / 1000, attrs);
    }
  };
  meter.addBatchObservableCallback(observeHints, [hintAge, hintSize]);

  // What the start of each operation opened: its span, and the attributes its metrics share with it.
  const opened = new WeakMap<object, Opened>();

  const unsubscribers: (() => void)[] = [];
  function follow<C extends OutcomeFields>(
    name: string,
    open: (ctx: C) => { spanName: string; kind: SpanKind; attrs: Attributes },
    close: (ctx: C, operation: Opened) => void,
  ): void {
    const tc = tracingChannel<Context, C>(name);
    // The transform runs as the SDK enters the operation: the span opens, and stays current for
    // whatever the operation calls (a token request inside a callback becomes its child).
    const transform = (ctx: C): Context => {
      const parentContext = context.active();
      const { spanName, kind, attrs } = open(ctx);
      const span = tracer.startSpan(spanName, { kind, attributes: attrs }, parentContext);
      opened.set(ctx, { span, attrs });
      return trace.setSpan(parentContext, span);
    };
    tc.start.bindStore(activeContext, transform);
    const finish = (ctx: C): void => {
      const operation = opened.get(ctx);
      if (!operation) return;
      opened.delete(ctx);
      close(ctx, operation);
      const { span } = operation;
      if (ctx.outcome === 'error') {
        span.setAttribute('error.type', errorType(ctx));
        span.setStatus({ code: SpanStatusCode.ERROR, message: errorType(ctx) });
      }
      span.end();
    };
    const handlers = onEnd(finish);
    tc.subscribe(handlers);
    unsubscribers.push(() => {
      tc.unsubscribe(handlers);
      tc.start.unbindStore(activeContext);
    });
  }

  // The start of a validation has no span of its own: it does no I/O (it builds an authorization URL
  // and a transaction) and runs inside the shop's request span, so a span would cost more than it
  // shows. It is counted (starts against callbacks: docs/operations.md), and a failed start is an
  // event on the shop's span, the active one when the start ends (no store is bound to this channel).
  const startChannel = tracingChannel<unknown, ValidationStartContext>(CHANNELS.validationStart);
  const startEnded = (ctx: ValidationStartContext): void => {
    const attrs = validationAttributes(ctx);
    starts.add(1, attrs);
    if (ctx.outcome === 'error') trace.getActiveSpan()?.addEvent('affiliation_validation.start', attrs);
  };
  // With no store bound either, the start event stays inactive and the SDK's `runStores` on it is a
  // plain call.
  const startHandlers = onEnd(startEnded);
  startChannel.subscribe(startHandlers);
  unsubscribers.push(() => startChannel.unsubscribe(startHandlers));

  // The callback: an internal span under the shop's. Its fields become known as it is checked, so
  // the attributes are read at the end.
  follow<ValidationCallbackContext>(
    CHANNELS.validationCallback,
    () => ({ spanName: 'affiliation-validation callback', kind: SpanKind.INTERNAL, attrs: {} }),
    (ctx, { span }) => {
      const attrs = validationAttributes(ctx);
      span.setAttributes(attrs);
      validations.add(1, attrs);
      if (ctx.transactionAgeMs !== undefined) validationDuration.record(ctx.transactionAgeMs / 1000, attrs);
      if (ctx.reason === 'unknown_institution' && ctx.institution) {
        staleHints.add(1, { [ATTR.institution]: ctx.institution });
      }
    },
  );

  // The token request and the key fetch are spans only. Their duration as a metric is the HTTP
  // client instrumentation's (undici's records `http.client.request.duration` for every request the
  // SDK sends): recording it here too would count each request twice under one name. A failing
  // service shows in `affiliation_validation.validations` by `error.type`.
  for (const name of [CHANNELS.token, CHANNELS.keys]) {
    follow<ServiceRequestContext>(
      name,
      (ctx) => {
        const attrs: Attributes = { 'http.request.method': ctx.method };
        if (URL.canParse(ctx.url)) {
          const url = new URL(ctx.url);
          attrs['server.address'] = url.hostname;
          attrs['server.port'] = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
          attrs['url.full'] = `${url.origin}${url.pathname}`;
        }
        return { spanName: ctx.method, kind: SpanKind.CLIENT, attrs };
      },
      (ctx, { span }) => {
        if (ctx.status !== undefined) span.setAttribute('http.response.status_code', ctx.status);
        if (ctx.forced !== undefined) span.setAttribute(ATTR.keysForced, ctx.forced);
      },
    );
  }

  // Documentation-site requests: a span and `http.client.request.duration` by route template (which
  // an HTTP client instrumentation cannot know), method, server and status.
  follow<DocsSiteRequestContext>(
    CHANNELS.docsSiteRequest,
    (ctx) => {
      const attrs: Attributes = { 'http.request.method': ctx.method, 'url.template': ctx.route };
      const host = ctx.serverAddress;
      const at = host.lastIndexOf(':');
      if (at > 0 && !host.endsWith(']')) {
        attrs['server.address'] = host.slice(0, at);
        attrs['server.port'] = Number(host.slice(at + 1));
      } else {
        attrs['server.address'] = host;
      }
      return { spanName: `${ctx.method} ${ctx.route}`, kind: SpanKind.CLIENT, attrs };
    },
    (ctx, { span, attrs }) => {
      if (ctx.requestBytes !== undefined) span.setAttribute('http.request.body.size', ctx.requestBytes);
      if (ctx.status !== undefined) {
        span.setAttribute('http.response.status_code', ctx.status);
        attrs['http.response.status_code'] = ctx.status;
      }
      if (ctx.outcome === 'error') attrs['error.type'] = errorType(ctx);
      if (ctx.durationMs !== undefined) httpDuration.record(ctx.durationMs / 1000, attrs);
    },
  );

  follow<HintsRefreshContext>(
    CHANNELS.hintsRefresh,
    (ctx) => ({
      spanName: 'affiliation-validation hints refresh',
      kind: SpanKind.INTERNAL,
      attrs: { [ATTR.feed]: ctx.feed },
    }),
    (ctx, { span, attrs }) => {
      attrs[ATTR.refreshStatus] = ctx.status ?? 'failed';
      if (ctx.outcome === 'error') attrs['error.type'] = errorType(ctx);
      span.setAttributes({
        ...attrs,
        'affiliation_validation.hints.sources': ctx.sources,
        'affiliation_validation.hints.failed_sources': ctx.failedSources ?? 0,
        'affiliation_validation.hints.added': ctx.added ?? 0,
        'affiliation_validation.hints.removed': ctx.removed ?? 0,
        'affiliation_validation.hints.total': ctx.total ?? 0,
      });
      refreshes.add(1, attrs);
      if (ctx.total !== undefined) feeds.set(ctx.feed, { updatedAt: ctx.listUpdatedAt, size: ctx.total });
    },
  );

  recording = true;
  let disabled = false;
  return {
    disable() {
      if (disabled) return;
      disabled = true;
      recording = false;
      for (const unsubscribe of unsubscribers) unsubscribe();
      meter.removeBatchObservableCallback(observeHints, [hintAge, hintSize]);
      feeds.clear();
    },
  };
}

/**
 * The store the start channels bind: the OpenTelemetry context itself. `runStores` calls a bound
 * store's `run(value, fn)` and nothing else, so the SDK's operation runs with its span active in the
 * merchant's context manager (an AsyncLocalStorage under NodeSDK): a token request inside a callback
 * finds the callback span there, and so do other instrumentations (undici's request spans). A store
 * of our own would be a second AsyncLocalStorage, which every promise of the process pays for.
 */
const activeContext = {
  run: <T>(value: Context, fn: () => T): T => context.with(value, fn),
} as unknown as AsyncLocalStorage<Context>;

/** What the start of an operation opened. */
interface Opened {
  span: Span;
  /**
   * The attributes known at the start (the span copied them): a documentation-site request and a
   * hint refresh complete them at the end for their metric points.
   */
  attrs: Attributes;
}

/** `error.type`: the SDK error's documented code, else {@link OTHER}. */
function errorType(ctx: OutcomeFields): string {
  return ctx.error?.code ?? OTHER;
}

/** The attributes of a start or a callback: its metric points', its span's, a failed start's event. */
function validationAttributes(ctx: ValidationStartContext | ValidationCallbackContext): Attributes {
  const attrs: Attributes = {};
  if (ctx.outcome === 'error') {
    attrs[ATTR.outcome] = 'error';
    attrs['error.type'] = errorType(ctx);
  } else {
    attrs[ATTR.outcome] = 'success';
  }
  if (ctx.flow) attrs[ATTR.flow] = ctx.flow;
  if (ctx.affiliation) attrs[ATTR.affiliation] = ctx.affiliation;
  if (ctx.identifier) attrs[ATTR.identifier] = ctx.identifier;
  // The channel carries only an asserted institution or one the hints know: any other is one value.
  attrs[ATTR.institution] = ctx.institution ?? OTHER;
  return attrs;
}

/**
 * Subscribers of an operation's end only (Node subscribes just the handlers given; its types want all
 * five): an event nobody subscribes to costs the SDK nothing when it publishes. A failure before the
 * operation's first await ends it at `end`, with no async events after it.
 */
function onEnd<C extends OutcomeFields>(done: (ctx: C) => void): TracingChannelSubscribers<C> {
  return {
    end(ctx: C) {
      if (ctx.outcome === 'error') done(ctx);
    },
    asyncEnd: done,
  } as TracingChannelSubscribers<C>;
}
