/**
 * The SDK's `node:diagnostics_channel` tracing channels: what a validation, a key fetch, a token
 * request, a hint refresh or a docs-site request did, for whoever subscribes (the
 * `affiliation-validation/otel` entry, or the merchant's own code). The names and the context fields
 * below are public API (docs/operations.md).
 *
 * A context carries only safe fields: never a subject, a `reuse_detection` value, a token, a code,
 * `state`, `nonce`, a PKCE verifier, a secret, a cookie value, an application password or the
 * shopper's IP. Every failure, on every channel, publishes the `error` event with `error`: a plain
 * `{ name, code }` (the code documented in docs/errors.md), never the thrown error itself, whose
 * `cause` may hold a provider's body.
 *
 * With no subscriber a traced call runs as if untraced: one `hasSubscribers` check, no context
 * object filled, no event published.
 */
import type { TracingChannel } from 'node:diagnostics_channel';
import { AffiliationError } from '../core/errors.js';
import { withProcess } from '../core/node-process.js';

/**
 * `node:diagnostics_channel` where the runtime has it (Node, Bun, Deno, workerd with
 * nodejs_compat), through `process.getBuiltinModule`, which no bundler follows: a static import
 * breaks the bundles of the runtimes without it (Next.js's edge runtime refuses it, workerd without
 * nodejs_compat cannot resolve it). There the channels never have subscribers, so a traced call costs
 * one property read.
 */
const dc = withProcess((process) => process.getBuiltinModule?.('node:diagnostics_channel'));
const NO_CHANNEL = { hasSubscribers: false } as TracingChannel<unknown, never>;

/** The channel names, as `diagnostics_channel.tracingChannel(name)` takes them. */
export const CHANNELS = {
  /** `createAuthorizationRequest()`: a validation is started. */
  validationStart: 'affiliation-validation:validation.start',
  /** `validateCallback()`: the service's answer is checked. */
  validationCallback: 'affiliation-validation:validation.callback',
  /** A request to the service's token endpoint (code flow). */
  token: 'affiliation-validation:oidc.token',
  /** A fetch of the service's signing keys (`jwks_uri`). */
  keys: 'affiliation-validation:oidc.keys',
  /** `HintFeed.refresh()`. */
  hintsRefresh: 'affiliation-validation:hints.refresh',
  /** A request to the documentation site. */
  docsSiteRequest: 'affiliation-validation:docs-site.request',
} as const;

/** How a failure is described in a context: the error's class and stable code, nothing else. */
export interface SafeError {
  readonly name: string;
  /** The SDK error's `code` (docs/errors.md); undefined for an error that is not the SDK's. */
  readonly code: string | undefined;
}

/** Fields every context gets when its operation ends. */
export interface OutcomeFields {
  /** `success` or `error`. */
  outcome?: 'success' | 'error';
  /** The failure, reduced to its class and code (what the tracing channel convention calls `error`). */
  error?: SafeError;
  /** Wall time of the operation in milliseconds. */
  durationMs?: number;
}

/** Context of `validation.start`. */
export interface ValidationStartContext extends OutcomeFields {
  /** `code` or `id_token`. */
  flow: 'code' | 'id_token';
  /** One of `AFFILIATIONS`; absent when the start was given something else. */
  affiliation?: string;
  /** `persistent` or `transient` (the default the service assumes when none is sent); absent when
   * the start was given something else. */
  identifier?: string;
  /** The hinted institution's entityID, only when the configured hints know it: never a value that
   * only a form post vouches for. */
  institution?: string;
}

/** Context of `validation.callback`. Fields become known as the callback is checked. */
export interface ValidationCallbackContext extends OutcomeFields {
  flow?: 'code' | 'id_token';
  affiliation?: string;
  identifier?: string;
  /** The institution's entityID: asserted by the service, else hinted by the shop and known to the
   * configured hints. */
  institution?: string;
  /** Milliseconds from the start of the validation to this callback (the shopper's time at the service). */
  transactionAgeMs?: number;
  /** A `ProviderError`'s `reason` (`unknown_institution`: the service did not resolve the hinted institution). */
  reason?: string;
}

/** Context of `oidc.token` and `oidc.keys`: one HTTP request to the service. */
export interface ServiceRequestContext extends OutcomeFields {
  method: string;
  /** The endpoint's URL without query (token endpoint or `jwks_uri`: public, fixed addresses). */
  url: string;
  status?: number;
  /** Bytes of the response body, when it was read. */
  responseBytes?: number;
  /** `oidc.keys`: true when the fetch was forced by a token signed with a key the cache lacked. */
  forced?: boolean;
}

/** Context of `hints.refresh`. */
export interface HintsRefreshContext extends OutcomeFields {
  /** The host of the feed's first source: tells several feeds of one process apart. */
  feed: string;
  /** Number of configured sources. */
  sources: number;
  /** `updated`, `not-modified` or `failed`. */
  status?: string;
  added?: number;
  removed?: number;
  renamed?: number;
  /** Institutions served after the refresh. */
  total?: number;
  /** Sources that failed. */
  failedSources?: number;
  /** When the served list was last fetched successfully (epoch ms), if ever. */
  listUpdatedAt?: number;
}

/** Context of `docs-site.request`. */
export interface DocsSiteRequestContext extends OutcomeFields {
  method: string;
  /** The route with ids replaced by `{id}` (`/wp/v2/pages/{id}`): low cardinality, no query. */
  route: string;
  /** Host (and port) of the site. */
  serverAddress: string;
  status?: number;
  /** Bytes of the request body, when one was sent as JSON or raw data. */
  requestBytes?: number;
}

function channel<C extends object>(name: string): TracingChannel<unknown, C> {
  return dc ? dc.tracingChannel<unknown, C>(name) : (NO_CHANNEL as TracingChannel<unknown, C>);
}

export const validationStartChannel = channel<ValidationStartContext>(CHANNELS.validationStart);
export const validationCallbackChannel = channel<ValidationCallbackContext>(CHANNELS.validationCallback);
export const tokenChannel = channel<ServiceRequestContext>(CHANNELS.token);
export const keysChannel = channel<ServiceRequestContext>(CHANNELS.keys);
export const hintsRefreshChannel = channel<HintsRefreshContext>(CHANNELS.hintsRefresh);
export const docsSiteRequestChannel = channel<DocsSiteRequestContext>(CHANNELS.docsSiteRequest);

/**
 * Run `fn` as one traced operation on `tc` (start, end, asyncStart, asyncEnd, and error on failure,
 * as `TracingChannel#tracePromise` does), with `context` made current for the subscribers' bound
 * stores while `fn` runs, so operations inside it (a token request inside a callback) can find their
 * parent. `context` makes the context object (only when someone listens); `settle` copies safe
 * fields of the result into the context before the end events, and returns the error of a result
 * that reports a failure (a refresh's, an endpoint's error answer) so that it is published as one.
 * The result and the thrown error themselves are never published.
 */
export function traceAsync<C extends OutcomeFields, T>(
  tc: TracingChannel<unknown, C>,
  context: () => NoInfer<C>,
  fn: () => Promise<T>,
  settle?: (context: C, result: T) => unknown,
): Promise<T> {
  if (!tc.hasSubscribers) return fn();
  const ctx = context();
  const began = performance.now();
  const failed = (error: unknown): void => {
    ctx.durationMs = performance.now() - began;
    const status = (error as { status?: unknown } | null)?.status;
    if (typeof status === 'number') (ctx as { status?: number }).status ??= status;
    ctx.outcome = 'error';
    // The thrown value's class name, and `code` only for the SDK's own errors: never the error itself.
    ctx.error = {
      name: error instanceof Error ? error.name : typeof error,
      code: error instanceof AffiliationError ? error.code : undefined,
    };
    tc.error.publish(ctx);
  };
  const settled = (): void => {
    tc.asyncStart.publish(ctx);
    tc.asyncEnd.publish(ctx);
  };
  return tc.start.runStores(ctx, () => {
    let promise: Promise<T>;
    try {
      promise = fn();
    } catch (error) {
      failed(error);
      throw error;
    } finally {
      tc.end.publish(ctx);
    }
    return promise.then(
      (result) => {
        try {
          const failure = settle?.(ctx, result);
          if (failure !== undefined) failed(failure);
        } finally {
          ctx.durationMs ??= performance.now() - began;
          ctx.outcome ??= 'success';
          settled();
        }
        return result;
      },
      (error: unknown) => {
        failed(error);
        settled();
        throw error;
      },
    );
  });
}
