import type { DocsSiteError } from '../errors.js';

/** The state file's name in the synced folder. Commit it with the Markdown. */
export const STATE_FILE = '.docs-sync.json';

/**
 * What the sync does with one item: `create` (no item with the slug on the site), `update` (the site
 * differs from the file), `unchanged`, `conflict` (changed on the site since the last sync, and
 * different from the file: refused unless `force`), `delete` (`prune`: its file is gone; moved to the
 * trash).
 *
 * @group Docs site
 */
export type SyncAction = 'create' | 'update' | 'unchanged' | 'conflict' | 'delete';

/**
 * One item of a sync, in the plan and in the report.
 *
 * @group Docs site
 */
export interface SyncItem {
  slug: string;
  /** The Markdown file, relative to the folder (`/` separators); absent for `delete`. */
  file?: string | undefined;
  action: SyncAction;
  /** The site's id: known except for a `create` not yet written (or that failed). */
  id?: number | undefined;
  /** The parent page's slug, for pages that have one. */
  parent?: string | undefined;
  /** The fields that differ between the file and the site (`update`, `conflict`). */
  changes?: string[] | undefined;
  /**
   * `planned` (nothing written: a plan, or an item left alone), `done` (written, or nothing to
   * write), `failed` (`error` says why; the other items still synced), `skipped` (not written because
   * its parent could not be written).
   */
  outcome: 'planned' | 'done' | 'failed' | 'skipped';
  /** The site's error for a failed item. */
  error?: DocsSiteError | undefined;
  /** The item's address on the site, when the site said. */
  link?: string | undefined;
}

/**
 * Options of {@link syncFolder}.
 *
 * @group Docs site
 */
export interface SyncOptions {
  /** Sync to pages (default; hierarchical, `parent` and `menu_order`) or posts. */
  type?: 'pages' | 'posts' | undefined;
  /** Compute the plan and write nothing, not even the state file. */
  plan?: boolean | undefined;
  /** Move to the trash the items this sync created earlier (named in the state file) whose file is gone. */
  prune?: boolean | undefined;
  /** Overwrite conflicts (items changed on the site since the last sync) with the files. */
  force?: boolean | undefined;
  /**
   * Called once with the plan before anything is written, when there is something to write; resolve
   * `false` to write nothing (the CLI asks on a terminal before trashing).
   */
  confirm?: ((plan: readonly SyncItem[]) => boolean | Promise<boolean>) | undefined;
  /** Progress of the writes: uploads, and each call of the batch route. */
  onProgress?: ((progress: { done: number; total: number }) => void) | undefined;
}

/**
 * The result of {@link syncFolder}.
 *
 * @group Docs site
 */
export interface SyncReport {
  type: 'pages' | 'posts';
  /** `true` when this is a plan: nothing was written. */
  planned: boolean;
  /** `false` when `confirm` declined: nothing was written. */
  confirmed: boolean;
  /** One entry per file, parents before children, then the deletes. */
  items: SyncItem[];
  /** Items by action. */
  counts: Record<SyncAction, number>;
  /** Items that failed or were skipped. */
  failed: number;
  /** Local images: uploaded now (or to upload, in a plan), and found on the site by content hash. */
  media: { uploaded: number; reused: number; failed: number };
  /** Items the sync created whose file is gone, kept because `prune` was not set (slugs). */
  orphans: string[];
  /** The state file's path. */
  stateFile: string;
}
