import { OptionsError } from '../core/errors.js';
import { integerOption, MAX_TIMER_MS } from '../core/options.js';
import type { RefreshResult } from './types.js';

/**
 * Options of {@link HintFeed.startAutoRefresh}.
 *
 * @group Hints
 */
export interface AutoRefreshOptions {
  /** Time between two refreshes, in ms. Default 3 600 000 (hourly: a 304 costs almost nothing). */
  everyMs?: number | undefined;
  /** A random 0..jitterMs ms added to every wait so many instances do not hit the feed at once. Default `everyMs / 10`. */
  jitterMs?: number | undefined;
  /** Refresh once at start (after loading `cacheFile`). Default true. */
  immediate?: boolean | undefined;
  /**
   * After a failed refresh, retry after this many ms, doubling per consecutive failure, never
   * later than `everyMs`. Default `min(everyMs, 60 000)`.
   */
  retryMs?: number | undefined;
}

const DEFAULT_EVERY_MS = 3_600_000;
const DEFAULT_RETRY_MS = 60_000;

/**
 * Run `refresh` on unref'd timers: every `everyMs` plus up to `jitterMs`, sooner after a failure
 * (`retryMs`, doubling). `refresh` never rejects (a rejection counts as a failure anyway). Options
 * are validated before anything is scheduled. Returns the function that stops the schedule.
 */
export function scheduleRefresh(
  refresh: () => Promise<RefreshResult>,
  options: AutoRefreshOptions,
): () => void {
  const everyMs = integerOption('everyMs', options.everyMs, DEFAULT_EVERY_MS, { max: MAX_TIMER_MS });
  // everyMs + jitterMs must still be a delay setTimeout takes.
  const maxJitterMs = MAX_TIMER_MS - everyMs;
  const defaultJitterMs = Math.min(Math.floor(everyMs / 10), maxJitterMs);
  const jitterMs = integerOption('jitterMs', options.jitterMs, defaultJitterMs, { min: 0, max: maxJitterMs });
  const retryMs = integerOption('retryMs', options.retryMs, DEFAULT_RETRY_MS, { max: MAX_TIMER_MS });
  if (options.immediate !== undefined && typeof options.immediate !== 'boolean') {
    throw new OptionsError('immediate must be a boolean');
  }
  let stopped = false;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(tick, Math.min(delayMs, MAX_TIMER_MS));
    // Node, Bun and Deno: the schedule alone keeps no process alive (a Web runtime's timer is a number).
    if (typeof timer === 'object') timer.unref?.();
  };
  const next = () => {
    const wait = failures > 0 ? Math.min(everyMs, retryMs * 2 ** Math.min(failures - 1, 30)) : everyMs;
    schedule(wait + Math.floor(Math.random() * (jitterMs + 1)));
  };
  const tick = () => {
    timer = undefined;
    refresh().then(
      (result) => {
        failures = result.status === 'failed' ? failures + 1 : 0;
        next();
      },
      () => {
        failures++;
        next();
      },
    );
  };
  if (options.immediate ?? true) schedule(0);
  else next();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
}
