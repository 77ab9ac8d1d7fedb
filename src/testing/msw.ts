/**
 * msw handlers that answer the test provider's origin from its Web-standard core, so unit tests
 * can run the whole protocol without opening a socket. msw is an optional peer dependency: it is
 * loaded only when this function is called.
 */
import type { HttpHandler } from 'msw';
import { OptionsError } from '../core/errors.js';
import type { TestProvider } from './provider.js';

/**
 * Request handlers for msw (`setupServer(...handlers)`) that send every request under the
 * provider's `baseUrl` to `provider.handle()`. Works with a provider from
 * `TestProvider.start({ listen: false })` (no server) or `TestProvider.start()` (requests are then
 * answered without touching its socket).
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * const op = await TestProvider.start({ listen: false });
 * const server = setupServer(...(await createTestProviderHandlers(op)));
 * server.listen({ onUnhandledRequest: 'error' });
 * ```
 * @throws {OptionsError} when msw is not installed.
 * @group Testing
 */
export async function createTestProviderHandlers(provider: TestProvider): Promise<HttpHandler[]> {
  let msw: typeof import('msw');
  try {
    msw = await import('msw');
  } catch (cause) {
    throw new OptionsError(
      `createTestProviderHandlers() needs the optional peer dependency "msw" (npm install --save-dev msw): ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
    );
  }
  const base = provider.baseUrl;
  // Both the exact base URL and every path under it.
  return [
    msw.http.all(base, ({ request }) => provider.handle(request)),
    msw.http.all(`${base}/*`, ({ request }) => provider.handle(request)),
  ];
}
