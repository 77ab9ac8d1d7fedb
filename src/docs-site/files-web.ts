/** The Web build of `files.ts` (package.json `imports` `#docs-site-files`): no file system here. */
import { OptionsError } from '../core/errors.js';

export { STATE_FILE } from './sync/types.js';

export async function syncFolder(): Promise<never> {
  throw new OptionsError('syncFolder() reads a folder: run it on Node, Bun or Deno, not on a Web runtime');
}

export async function readFileUpload(): Promise<never> {
  throw Object.assign(new Error('no file system'), {
    code: 'no file system on this runtime: pass the bytes, a Blob or a stream',
  });
}
