import { describe, expectTypeOf, it } from 'vitest';
import {
  type DocsSiteClient,
  type DocsSiteError,
  DocsSyncError,
  type DocsSyncErrorCode,
  type SyncAction,
  type SyncItem,
  type SyncReport,
  syncFolder,
} from '../../src/docs-site.js';

declare const docs: DocsSiteClient;

describe('syncFolder types', () => {
  it('takes a client, a folder and plain options, and resolves a report', () => {
    expectTypeOf(syncFolder(docs, './site-docs')).toEqualTypeOf<Promise<SyncReport>>();
    expectTypeOf(
      syncFolder(docs, 'd', {
        type: 'posts',
        plan: true,
        prune: true,
        force: false,
        confirm: async (items) => items.every((i) => i.action !== 'delete'),
        onProgress: ({ done, total }) => void (done / total),
      }),
    ).resolves.toEqualTypeOf<SyncReport>();
    // @ts-expect-error: pages or posts only
    syncFolder(docs, 'd', { type: 'media' });
    // @ts-expect-error: the folder is required
    syncFolder(docs);
  });

  it('reports items with a closed action and outcome, and the site error', () => {
    expectTypeOf<SyncItem['action']>().toEqualTypeOf<SyncAction>();
    expectTypeOf<SyncAction>().toEqualTypeOf<'create' | 'update' | 'unchanged' | 'conflict' | 'delete'>();
    expectTypeOf<SyncItem['outcome']>().toEqualTypeOf<'planned' | 'done' | 'failed' | 'skipped'>();
    expectTypeOf<SyncItem['error']>().toEqualTypeOf<DocsSiteError | undefined>();
    expectTypeOf<SyncReport['counts']>().toEqualTypeOf<Record<SyncAction, number>>();
  });

  it('narrows DocsSyncError on its codes', () => {
    const error = new DocsSyncError([{ code: 'duplicate_slug', message: 'x' }]);
    expectTypeOf(error.code).toEqualTypeOf<DocsSyncErrorCode>();
    expectTypeOf(error.issues[0]!.file).toEqualTypeOf<string | undefined>();
    // @ts-expect-error: not a sync code
    new DocsSyncError([{ code: 'nope', message: 'x' }]);
  });
});
