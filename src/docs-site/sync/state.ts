import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { DocsSyncIssue } from './errors.js';
import { STATE_FILE } from './types.js';

/** What the sync knows of one item it wrote or adopted. */
export interface StateEntry {
  id: number;
  /** The site's `modified_gmt` after the last write or check. */
  modified_gmt: string;
  /** Hash of the fields the sync last wrote (or found equal). */
  hash: string;
  /** Hash of the same fields as the site held them after that write (it may normalise them). */
  site_hash: string;
  /** `true` when this sync created the item: only such items are ever moved to the trash by `prune`. */
  created: boolean;
}

export interface SyncState {
  version: 1;
  /** The site (base address and content namespace) and the kind the folder is synced to. */
  site: string;
  type: 'pages' | 'posts';
  items: Record<string, StateEntry>;
}

const entrySchema = z.object({
  id: z.int().min(1),
  modified_gmt: z.string(),
  hash: z.string(),
  site_hash: z.string(),
  created: z.boolean(),
});

/** Read the state file; `undefined` when there is none. A state file that cannot be trusted is an issue. */
export async function readState(
  dir: string,
  site: string,
  type: 'pages' | 'posts',
  issues: DocsSyncIssue[],
): Promise<SyncState | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, STATE_FILE), 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    issues.push({ code: 'invalid_state', file: STATE_FILE, message: 'cannot be read' });
    return undefined;
  }
  const bad = (message: string) => {
    issues.push({
      code: 'invalid_state',
      file: STATE_FILE,
      message: `${message}; restore it from version control, or delete it to adopt the site's items by slug`,
    });
    return undefined;
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return bad('is not JSON');
  }
  const state = value as Partial<SyncState> | null;
  if (typeof state !== 'object' || state === null || state.version !== 1)
    return bad('is not a version 1 state file');
  if (typeof state.items !== 'object' || state.items === null || Array.isArray(state.items)) {
    return bad('has no "items" object');
  }
  for (const [slug, entry] of Object.entries(state.items)) {
    if (!entrySchema.safeParse(entry).success) return bad(`has a malformed entry for "${slug}"`);
  }
  // Ids of another site or kind would make the sync update or trash the wrong items.
  if (state.site !== site || state.type !== type) {
    issues.push({
      code: 'state_mismatch',
      file: STATE_FILE,
      message: `records a sync of ${state.type ?? '?'} to ${state.site ?? '?'}, not of ${type} to ${site}; sync another folder, or delete the state file to adopt this site's items by slug`,
    });
    return undefined;
  }
  return state as SyncState;
}

/** Write the state file atomically (a temp file renamed over it), entries sorted by slug. */
export async function writeState(dir: string, state: SyncState): Promise<void> {
  const items: Record<string, StateEntry> = {};
  for (const slug of Object.keys(state.items).sort()) items[slug] = state.items[slug] as StateEntry;
  const path = join(dir, STATE_FILE);
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify({ ...state, items }, null, 2)}\n`);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
