/**
 * The fetch to give the SDK in tests that use msw. msw intercepts the global fetch only, while the
 * SDK's default is undici's own fetch (one undici for the fetch and its connection pool), so a client
 * under msw must be given the global fetch, looked up at call time (msw patches it in `listen()`).
 */
export const mswFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);
