/**
 * The Web build of `dispatcher.ts` (package.json `imports` `#transport`, taken by the bundlers of
 * workerd, Vercel's Edge and browsers): the runtime's own `fetch`, looked up at call time. There is
 * no pool to keep or close and no undici; the HTTP layer's time limit, retries, `Retry-After`, size
 * limits and redaction are the same as on Node.
 */
const globalFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

export function getDefaultFetch(): Promise<typeof fetch> {
  return Promise.resolve(globalFetch);
}

/** Nothing to close on a Web runtime: the runtime owns its connections. */
export async function closeDefaultDispatcher(): Promise<void> {}
