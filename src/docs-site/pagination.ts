import { DocsSiteError, invalidParam } from './errors.js';

/**
 * One page of a list: the items and the totals the site reports in `X-WP-Total` and
 * `X-WP-TotalPages`. Routes that are not paginated (templates, autosaves) report their own item
 * count and one page.
 *
 * @group Docs site
 */
export interface Page<T> {
  items: T[];
  /** Number of items over all pages (`X-WP-Total`). */
  total: number;
  /** Number of pages (`X-WP-TotalPages`). */
  totalPages: number;
}

/**
 * Options of `iterate()`.
 *
 * @group Docs site
 */
export interface IterateOptions {
  /** Pages fetched at the same time after the first one. Default 4; from 1 to 16. */
  concurrency?: number | undefined;
  /**
   * Stops the iteration: requests in flight are cancelled and the loop throws a `TransportError`
   * with code `aborted`.
   */
  signal?: AbortSignal | undefined;
}

function headerInt(headers: Headers, name: string, method: string, path: string): number | undefined {
  const value = headers.get(name);
  if (value === null) return undefined;
  if (!/^\d+$/.test(value.trim())) {
    throw new DocsSiteError(`${method} ${path}: the ${name} header "${value.slice(0, 20)}" is not a count`, {
      code: 'invalid_response',
      method,
      path,
    });
  }
  return Number(value.trim());
}

/** Build a {@link Page} from items and the pagination headers (missing headers: not paginated). */
export function toPage<T>(items: T[], headers: Headers, method: string, path: string): Page<T> {
  const total = headerInt(headers, 'x-wp-total', method, path) ?? items.length;
  const totalPages = headerInt(headers, 'x-wp-totalpages', method, path) ?? 1;
  return { items, total, totalPages };
}

/**
 * Iterate over every item of a paginated list: the first page is fetched alone (it tells how many
 * pages there are), then later pages are fetched with at most `concurrency` requests in flight and
 * yielded strictly in order. Stopping the loop early (`break`, an exception in its body) or the
 * caller's `signal` cancels the requests still in flight.
 */
export async function* iteratePages<T>(
  fetchPage: (page: number, signal: AbortSignal) => Promise<Page<T>>,
  firstPage: number,
  options: IterateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) {
    throw invalidParam('concurrency', 'must be an integer from 1 to 16', 'iterate');
  }
  const outer = options.signal;
  if (outer !== undefined && !(outer instanceof AbortSignal)) {
    throw invalidParam('signal', 'must be an AbortSignal', 'iterate');
  }
  // One controller for every request of this iteration: the caller's signal aborts it, and so does
  // leaving the loop, so no page is fetched for nobody.
  const controller = new AbortController();
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  const { signal } = controller;
  try {
    const first = await fetchPage(firstPage, signal);
    yield* first.items;
    const last = first.totalPages;
    let next = firstPage + 1;
    const inFlight: Promise<Page<T>>[] = [];
    const launch = () => {
      while (inFlight.length < concurrency && next <= last) {
        const p = fetchPage(next++, signal);
        // Rejections are handled when the page's turn comes; avoid an unhandled rejection meanwhile.
        p.catch(() => {});
        inFlight.push(p);
      }
    };
    launch();
    while (inFlight.length > 0) {
      const page = await (inFlight.shift() as Promise<Page<T>>);
      launch();
      yield* page.items;
    }
  } finally {
    outer?.removeEventListener('abort', forward);
    if (!signal.aborted) controller.abort();
  }
}
