/**
 * What the docs-site client does with a file system (Node, Bun, Deno): `syncFolder`, and a media
 * upload given a file path. In dist/ this module is package.json `imports` `#docs-site-files`, whose
 * Web build (`files-web.ts`) keeps both out of the bundle of a Worker or an Edge function.
 */
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';

export { syncFolder } from './sync/sync.js';
export { STATE_FILE } from './sync/types.js';

/** A regular file as a Blob that is read while it is sent (never copied here), and its name. */
export async function readFileUpload(path: string): Promise<{ data: Blob; filename: string }> {
  if (!(await stat(path)).isFile()) {
    throw Object.assign(new Error('not a file'), { code: 'not a regular file' });
  }
  return { data: await openAsBlob(path), filename: basename(path) };
}
