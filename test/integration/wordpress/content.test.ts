import { describe, expect, it } from 'vitest';
import { DocsSiteError } from '../../../src/docs-site.js';
import { atLeast, makeClient, uniqueToken } from './helpers.js';

const docs = makeClient();

/** The error a promise rejects with (fails the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<DocsSiteError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DocsSiteError);
  return error as DocsSiteError;
}

describe('posts against WordPress', () => {
  it('creates, reads, updates, lists and deletes a post', async () => {
    const token = uniqueToken('crud');
    const created = await docs.posts.create({
      title: `${token} first`,
      content: '<p>Hello</p>',
      status: 'publish',
    });
    expect(created.id).toBeGreaterThan(0);
    expect(created.status).toBe('publish');

    const read = await docs.posts.get(created.id, { context: 'edit' });
    expect(read.id).toBe(created.id);
    expect(read.title).toMatchObject({ raw: `${token} first` });
    // WordPress 6.1 sends an empty meta object as `[]` (the client gives an object); 6.3+ registers
    // footnotes, an empty string by default.
    expect(read.meta).toEqual(atLeast('6.3') ? { footnotes: '' } : {});

    const updated = await docs.posts.update(created.id, { title: `${token} second`, excerpt: 'short' });
    expect(updated.title).toMatchObject({ rendered: `${token} second` });

    const patched = await docs.posts.update(created.id, { status: 'draft' }, { method: 'PATCH' });
    expect(patched.status).toBe('draft');

    const listed = await docs.posts.list({ search: token, status: ['draft'] });
    expect(listed.items.map((p) => p.id)).toEqual([created.id]);
    expect(listed.total).toBe(1);

    const removed = await docs.posts.delete(created.id, { force: true });
    expect(removed.deleted).toBe(true);
    expect(removed.item.id).toBe(created.id);
    expect((await rejection(docs.posts.get(created.id))).status).toBe(404);
  });

  it('moves a post to the trash without force, and deletes it for good with force', async () => {
    const post = await docs.posts.create({ title: uniqueToken('trash'), status: 'publish' });

    const trashed = await docs.posts.delete(post.id);
    expect(trashed.deleted).toBe(false);
    expect(trashed.item.status).toBe('trash');
    // Still there, in the trash.
    expect((await docs.posts.get(post.id, { context: 'edit' })).status).toBe('trash');

    // Trashing again is refused by the site (410 rest_already_trashed).
    const again = await rejection(docs.posts.delete(post.id));
    expect(again.status).toBe(410);
    expect(again.code).toBe('rest_already_trashed');

    const gone = await docs.posts.delete(post.id, { force: true });
    expect(gone.deleted).toBe(true);
    const missing = await rejection(docs.posts.get(post.id));
    expect(missing.code).toBe('rest_post_invalid_id');
  });

  it('keeps revisions of updates, and deletes a revision only with force', async () => {
    const post = await docs.posts.create({ title: uniqueToken('rev'), content: 'one', status: 'publish' });
    await docs.posts.update(post.id, { content: 'two' });
    await docs.posts.update(post.id, { content: 'three' });

    const revisions = await docs.posts.revisions(post.id).list({ context: 'edit' });
    // WordPress 6.1 keeps one revision per update (none for the creation), newest first.
    expect(revisions.items.map((r) => r.content)).toMatchObject([{ raw: 'three' }, { raw: 'two' }]);
    expect(revisions.total).toBe(2);
    expect(revisions.items.every((r) => r.parent === post.id)).toBe(true);
    const newest = revisions.items[0]!;

    const one = await docs.posts.revisions(post.id).get(newest.id);
    expect(one.id).toBe(newest.id);

    // The client refuses to send a revision delete without force: true…
    const refused = await rejection(
      docs.posts.revisions(post.id).delete(newest.id, {} as unknown as { force: true }),
    );
    expect(refused.code).toBe('invalid_param');
    expect(refused.param).toBe('force');
    expect(refused.status).toBeUndefined();
    // …which is what the site would answer too (revisions have no trash).
    const server = await rejection(
      docs.request('DELETE', `/wp/v2/posts/${post.id}/revisions/${newest.id}`, { query: { force: false } }),
    );
    expect(server.status).toBe(501);
    expect(server.code).toBe('rest_trash_not_supported');
    expect((await docs.posts.revisions(post.id).list()).total).toBe(2);

    // (Stock 6.1 refuses every revision delete with 403; scripts/wordpress/mu-plugins lets the parent's
    // owner delete one, as the interface documents.)
    const deleted = await docs.posts.revisions(post.id).delete(newest.id, { force: true });
    expect(deleted.deleted).toBe(true);
    expect(deleted.item.id).toBe(newest.id);
    expect((await docs.posts.revisions(post.id).list()).total).toBe(1);

    await docs.posts.delete(post.id, { force: true });
  });
});

describe('pages against WordPress', () => {
  it('creates a page tree, updates, lists by parent, trashes and deletes', async () => {
    const token = uniqueToken('page');
    const parent = await docs.pages.create({ title: `${token} parent`, status: 'publish' });
    const child = await docs.pages.create({
      title: `${token} child`,
      status: 'publish',
      parent: parent.id,
      menu_order: 3,
    });
    expect(child.parent).toBe(parent.id);
    expect(child.menu_order).toBe(3);

    const updated = await docs.pages.update(child.id, { menu_order: 5 }, { method: 'PUT' });
    expect(updated.menu_order).toBe(5);

    const children = await docs.pages.list({ parent: [parent.id], orderby: 'menu_order' });
    expect(children.items.map((p) => p.id)).toEqual([child.id]);

    const trashed = await docs.pages.delete(child.id);
    expect(trashed.deleted).toBe(false);
    expect((await docs.pages.list({ parent: [parent.id] })).total).toBe(0);
    expect((await docs.pages.list({ parent: [parent.id], status: ['trash'] })).total).toBe(1);

    expect((await docs.pages.delete(child.id, { force: true })).deleted).toBe(true);
    expect((await docs.pages.delete(parent.id, { force: true })).deleted).toBe(true);
  });

  it('keeps page revisions', async () => {
    const page = await docs.pages.create({ title: uniqueToken('pagerev'), content: 'a', status: 'draft' });
    await docs.pages.update(page.id, { content: 'b' });
    const revisions = await docs.pages.revisions(page.id).list();
    expect(revisions.total).toBeGreaterThanOrEqual(1);
    expect(revisions.items.every((r) => r.parent === page.id)).toBe(true);
    await docs.pages.delete(page.id, { force: true });
  });
});

describe('reusable blocks against WordPress', () => {
  it('reads a block in every context (context=embed sends its raw-only title as [])', async () => {
    const token = uniqueToken('block');
    const block = await docs.blocks.create({
      title: token,
      content: '<!-- wp:paragraph --><p>b</p><!-- /wp:paragraph -->',
      status: 'publish',
    });
    try {
      expect((await docs.blocks.get(block.id, { context: 'edit' })).title).toMatchObject({ raw: token });
      expect((await docs.blocks.get(block.id, { context: 'view' })).id).toBe(block.id);
      expect((await docs.blocks.get(block.id, { context: 'embed' })).title).toEqual({});
      await docs.blocks.update(block.id, { title: `${token} 2` });
      const revisions = await docs.blocks.revisions(block.id).list({ context: 'edit' });
      expect(revisions.items.length).toBeGreaterThanOrEqual(1);
    } finally {
      await docs.blocks.delete(block.id, { force: true });
    }
  });
});
