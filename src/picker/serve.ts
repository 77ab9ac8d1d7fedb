/**
 * Serving `<institution-picker>` from the shop's own origin (so `script-src 'self'` allows it): the
 * module's source, and a `Request → Response` handler with the right content type, a strong ETag and
 * cache headers.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OptionsError } from '../core/errors.js';

/**
 * Options of {@link pickerModuleHandler}.
 *
 * @group Picker
 */
export interface PickerModuleHandlerOptions {
  /**
   * `Cache-Control: max-age` in seconds. Default 3 600 (an hour; browsers revalidate with the ETag
   * afterwards, and a new version of the package changes the ETag). Use a versioned URL and a long
   * value (31 536 000 with `immutable`) if you prefer.
   */
  maxAgeSeconds?: number | undefined;
  /** Add `immutable` to `Cache-Control` (only for a URL that changes with every version). Default false. */
  immutable?: boolean | undefined;
}

let cached: { source: string; etag: string } | undefined;

function load(): { source: string; etag: string } {
  if (cached) return cached;
  const dir = dirname(fileURLToPath(import.meta.url));
  // From the package: dist/picker/ beside dist/picker.js (or beside the chunk that holds this code).
  const file = [join(dir, 'institution-picker.js'), join(dir, 'picker', 'institution-picker.js')].find(
    existsSync,
  );
  const source = file === undefined ? compileSources(dir) : readFileSync(file, 'utf8');
  cached = { source, etag: `"${createHash('sha256').update(source).digest('base64url').slice(0, 27)}"` };
  return cached;
}

/** From the sources (the SDK's own tests): the module compiled as the package build compiles it (tsup.config.ts). */
function compileSources(dir: string): string {
  const entryPoints = [join(dir, 'institution-picker.ts')];
  if (!existsSync(entryPoints[0]!)) throw new Error(`institution-picker.js is missing in ${dir}: reinstall`);
  const { buildSync } = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  const built = buildSync({ entryPoints, bundle: true, format: 'esm', target: 'es2022', write: false });
  return built.outputFiles[0]!.text;
}

/**
 * The `<institution-picker>` ES module's source, to serve from the shop as `text/javascript` (or to
 * write to your static files at build time).
 *
 * @group Picker
 */
export function pickerScript(): string {
  return load().source;
}

/**
 * A `Request → Response` handler that serves the `<institution-picker>` module: `GET`/`HEAD` only,
 * `text/javascript; charset=utf-8`, a strong ETag (304 on `If-None-Match`), `Cache-Control`, and
 * `X-Content-Type-Options: nosniff`. Mount it at the URL your page's `<script type="module" src>` names.
 *
 * @example
 * ```ts
 * const picker = pickerModuleHandler();
 * app.get('/assets/institution-picker.js', (c) => picker(c.req.raw));
 * ```
 * @group Picker
 */
export function pickerModuleHandler(
  options: PickerModuleHandlerOptions = {},
): (request: Request) => Promise<Response> {
  const maxAge = options.maxAgeSeconds ?? 3600;
  if (!Number.isInteger(maxAge) || maxAge < 0 || maxAge > 31_536_000) {
    throw new OptionsError('maxAgeSeconds must be an integer from 0 to 31536000');
  }
  if (options.immutable !== undefined && typeof options.immutable !== 'boolean') {
    throw new OptionsError('immutable must be a boolean');
  }
  const { source, etag } = load();
  const headers = {
    'content-type': 'text/javascript; charset=utf-8',
    'cache-control': `public, max-age=${maxAge}${options.immutable ? ', immutable' : ''}`,
    etag,
    'x-content-type-options': 'nosniff',
  };
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('use GET\n', { status: 405, headers: { allow: 'GET, HEAD' } });
    }
    const inm = request.headers.get('if-none-match');
    if (inm?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
      return new Response(null, { status: 304, headers });
    }
    return new Response(request.method === 'HEAD' ? null : source, { status: 200, headers });
  };
}
