import { AffiliationError } from '../../core/errors.js';

/** Every code of {@link DocsSyncError}; docs/errors.md explains each. */
export const DOCS_SYNC_ERROR_CODES = [
  'invalid_folder',
  'invalid_front_matter',
  'unknown_front_matter_key',
  'invalid_slug',
  'duplicate_slug',
  'missing_image',
  'missing_link',
  'unknown_parent',
  'trashed_parent',
  'trash_has_children',
  'parent_cycle',
  'ambiguous_slug',
  'invalid_state',
  'state_mismatch',
  'conflict',
] as const;

/**
 * Codes of {@link DocsSyncError}.
 *
 * @group Errors
 */
export type DocsSyncErrorCode = (typeof DOCS_SYNC_ERROR_CODES)[number];

/**
 * One problem found in the folder, the state file or the site before any write.
 *
 * @group Docs site
 */
export interface DocsSyncIssue {
  code: DocsSyncErrorCode;
  /** The Markdown file at fault, relative to the folder; absent for a problem of the folder as a whole. */
  file?: string | undefined;
  /** The slug at fault, when known. */
  slug?: string | undefined;
  /** The front matter key at fault (`unknown_front_matter_key`, or a bad value). */
  key?: string | undefined;
  message: string;
}

/**
 * The folder, its state file or the site's content refuses a sync: nothing was written. `.issues`
 * lists every problem found (each with the file and, where it applies, the front matter key);
 * `.code` is the first one's code.
 *
 * @example
 * ```ts
 * try {
 *   await syncFolder(docs, './site-docs');
 * } catch (error) {
 *   if (error instanceof DocsSyncError) for (const i of error.issues) console.error(i.file, i.message);
 * }
 * ```
 *
 * @group Errors
 */
export class DocsSyncError extends AffiliationError {
  declare readonly code: DocsSyncErrorCode;
  readonly issues: readonly DocsSyncIssue[];

  constructor(issues: readonly DocsSyncIssue[]) {
    const first = issues[0] ?? { code: 'invalid_folder' as const, message: 'unknown problem' };
    const shown = issues.slice(0, 20).map((i) => `  - ${i.file ? `${i.file}: ` : ''}${i.message}`);
    if (issues.length > 20) shown.push(`  … and ${issues.length - 20} more`);
    super(
      issues.length === 1
        ? `docs sync: ${first.file ? `${first.file}: ` : ''}${first.message}; nothing was written`
        : `docs sync: ${issues.length} problems, nothing was written:\n${shown.join('\n')}`,
      { code: first.code, userMessage: 'The documentation could not be synchronised.' },
    );
    this.issues = Object.freeze(issues.map((i) => Object.freeze({ ...i })));
  }
}
