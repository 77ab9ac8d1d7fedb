/**
 * The Web build of `dispatcher.ts` (package.json `imports` `#transport`, for workerd, Vercel's Edge
 * and browsers): the runtime's own `fetch`, looked up at call time; no undici, no pool to close.
 */
const globalFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

export const getDefaultFetch = async (): Promise<typeof fetch> => globalFetch;
export async function closeDefaultDispatcher(): Promise<void> {}
