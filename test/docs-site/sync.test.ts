/** syncFolder() against an emulated site (test/docs-site/sync-site.ts): plan, writes, state, conflicts. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DocsSiteError, DocsSyncError, SYNC_STATE_FILE, syncFolder } from '../../src/docs-site.js';
import { client, useServer } from './helpers.js';
import { FakeSite, md, writeFiles } from './sync-site.js';

const server = useServer();
const docs = client({ contentNamespace: 'wp/v2' });
let site: FakeSite;

beforeEach(() => {
  site = new FakeSite();
  server.use(...site.handlers());
});

async function folder(files: Record<string, string | Uint8Array>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docs-sync-'));
  await writeFiles(dir, files);
  return dir;
}

const png = (n: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, n]);

describe('syncFolder', () => {
  it('plans creates and writes nothing, not even the state file', async () => {
    const dir = await folder({
      'a.md': '# Alpha\n\nText.\n',
      'b.md': md({ title: 'Beta', status: 'draft' }),
    });
    const plan = await syncFolder(docs, dir, { plan: true });
    expect(plan.planned).toBe(true);
    expect(plan.items.map((i) => [i.action, i.slug, i.outcome])).toEqual([
      ['create', 'a', 'planned'],
      ['create', 'b', 'planned'],
    ]);
    expect(site.writes()).toEqual([]);
    await expect(readFile(join(dir, SYNC_STATE_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('renders CommonMark with tables, the title from front matter or the first heading', async () => {
    const dir = await folder({
      'a.md': '# Alpha *one*\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<div class="raw">kept</div>\n',
      'b.md': md({ title: 'Beta', excerpt: 'Short.', template: 'wide', menu_order: 3 }, 'No heading.\n'),
      'c.md': 'No heading at all.\n',
    });
    await syncFolder(docs, dir);
    const a = site.bySlug('a');
    expect(a?.title.raw).toBe('Alpha one');
    expect(a?.content.raw).toContain('<table>\n<thead>\n<tr>\n<th>a</th>');
    expect(a?.content.raw).toContain('<div class="raw">kept</div>');
    expect(site.bySlug('b')).toMatchObject({
      title: { raw: 'Beta' },
      excerpt: { raw: 'Short.' },
      template: 'wide',
      menu_order: 3,
    });
    expect(site.bySlug('c')?.title.raw).toBe('c');
  });

  it('writes parents before children, in batch calls of at most 25', async () => {
    const files: Record<string, string> = { 'guide/index.md': 'Guide.', 'top.md': md({ parent: 'b' }) };
    for (let i = 0; i < 30; i++) files[`guide/p${i}.md`] = `Page ${i}.`;
    files['guide/b/index.md'] = 'Sub.';
    files['guide/b/leaf.md'] = 'Leaf.';
    const dir = await folder(files);
    const report = await syncFolder(docs, dir);
    expect(report.failed).toBe(0);
    const batches = site.writes().map((r) => r.items?.length);
    // guide; its 31 children (30 pages and b) in 25 + 6; then b's children (leaf, top).
    expect(batches).toEqual([1, 25, 6, 2]);
    const guide = site.bySlug('guide')!;
    expect(site.bySlug('p7')?.parent).toBe(guide.id);
    expect(site.bySlug('b')?.parent).toBe(guide.id);
    expect(site.bySlug('leaf')?.parent).toBe(site.bySlug('b')?.id);
    expect(guide.parent).toBe(0);
    expect(site.bySlug('top')?.parent).toBe(site.bySlug('b')?.id);
  });

  it('reports a failed item with the site error; the others sync, its children are skipped', async () => {
    site.refuse.add('bad');
    const dir = await folder({ 'bad/index.md': 'x', 'bad/child.md': 'y', 'good.md': 'z' });
    const report = await syncFolder(docs, dir);
    const bad = report.items.find((i) => i.slug === 'bad');
    expect(bad?.outcome).toBe('failed');
    expect(bad?.error).toBeInstanceOf(DocsSiteError);
    expect(bad?.error).toMatchObject({ code: 'rest_invalid_param', status: 400 });
    expect(report.items.find((i) => i.slug === 'child')).toMatchObject({ outcome: 'skipped' });
    expect(report.items.find((i) => i.slug === 'good')).toMatchObject({ outcome: 'done', action: 'create' });
    expect(report.failed).toBe(2);
    const state = JSON.parse(await readFile(join(dir, SYNC_STATE_FILE), 'utf8'));
    expect(Object.keys(state.items)).toEqual(['good']);
    // Fixed on the site's side: the next run writes what is missing only.
    site.refuse.clear();
    const again = await syncFolder(docs, dir);
    expect(again.counts).toMatchObject({ create: 2, unchanged: 1 });
    expect(site.bySlug('child')?.parent).toBe(site.bySlug('bad')?.id);
  });

  it('a parent named in front matter may be a page of the site; an unknown one is refused', async () => {
    const home = site.add('page', { slug: 'home' });
    const dir = await folder({ 'a.md': md({ parent: 'home' }) });
    await syncFolder(docs, dir);
    expect(site.bySlug('a')?.parent).toBe(home.id);
    const missing = await folder({ 'a.md': md({ parent: 'nowhere' }) });
    const error = await syncFolder(docs, missing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocsSyncError);
    expect((error as DocsSyncError).issues).toEqual([
      expect.objectContaining({ code: 'unknown_parent', key: 'parent' }),
    ]);
  });

  it('is idempotent: a second run writes nothing, even when the site normalises the HTML', async () => {
    site.normalize = (html) => html.replaceAll('<p>', '<p class="wp">');
    const dir = await folder({ 'a.md': 'One.', 'b/index.md': 'Two.', 'b/c.md': 'Three.' });
    await syncFolder(docs, dir);
    const before = site.requests.length;
    const again = await syncFolder(docs, dir);
    expect(again.counts).toEqual({ create: 0, update: 0, unchanged: 3, conflict: 0, delete: 0 });
    expect(site.requests.slice(before).every((r) => r.method === 'GET')).toBe(true);
  });

  it('updates only what changed, naming the fields', async () => {
    const dir = await folder({ 'a.md': 'One.', 'b.md': 'Two.' });
    await syncFolder(docs, dir);
    site.second++;
    await writeFile(join(dir, 'b.md'), md({ title: 'Bee', status: 'private' }, 'Two.'));
    const plan = await syncFolder(docs, dir, { plan: true });
    expect(plan.items.map((i) => [i.slug, i.action, i.changes])).toEqual([
      ['a', 'unchanged', undefined],
      ['b', 'update', ['title', 'status']],
    ]);
    await syncFolder(docs, dir);
    expect(site.bySlug('b')).toMatchObject({ title: { raw: 'Bee' }, status: 'private' });
  });

  it('finds an edit on the site as a conflict, also within the same second, and refuses it unless force', async () => {
    const dir = await folder({ 'a.md': 'One.', 'b.md': 'Two.' });
    await syncFolder(docs, dir);
    // Same second: modified_gmt does not move, what the site holds does.
    site.write(site.bySlug('a')!, { title: 'Edited on the site' });
    await writeFile(join(dir, 'b.md'), 'Two, edited.');
    const plan = await syncFolder(docs, dir, { plan: true });
    expect(plan.items.map((i) => [i.slug, i.action, i.changes])).toEqual([
      ['a', 'conflict', ['title']],
      ['b', 'update', ['content']],
    ]);
    const before = site.writes().length;
    const error = await syncFolder(docs, dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocsSyncError);
    expect(error).toMatchObject({ code: 'conflict' });
    expect((error as DocsSyncError).message).toMatch(
      /a\.md: "a" \(id \d+\) was changed on the site since the last sync \(title\)/,
    );
    expect(site.writes().length).toBe(before);

    const forced = await syncFolder(docs, dir, { force: true });
    expect(forced.items.map((i) => [i.slug, i.action, i.outcome])).toEqual([
      ['a', 'conflict', 'done'],
      ['b', 'update', 'done'],
    ]);
    expect(site.bySlug('a')?.title.raw).toBe('a');
    expect((await syncFolder(docs, dir, { plan: true })).counts.unchanged).toBe(2);
  });

  it('an edit on the site that equals the file is no conflict', async () => {
    const dir = await folder({ 'a.md': 'One.' });
    await syncFolder(docs, dir);
    site.second += 5;
    site.write(site.bySlug('a')!, { title: 'Changed' });
    site.write(site.bySlug('a')!, { title: 'a' });
    expect((await syncFolder(docs, dir)).counts.unchanged).toBe(1);
    // The new modified_gmt is remembered: a later edit on the site is still found.
    site.second += 5;
    site.write(site.bySlug('a')!, { title: 'Changed again' });
    expect((await syncFolder(docs, dir, { plan: true })).counts.conflict).toBe(1);
  });

  it('uploads each local image once, by content, and rewrites the links', async () => {
    const dir = await folder({
      'a.md': '![one](img/one.png) ![same bytes](img/copy.png) ![spaced](<img/with space.png>)',
      'b.md': md({ featured_image: 'img/one.png' }, '![one again](./img/one.png "t")'),
      'img/one.png': png(1),
      'img/copy.png': png(1),
      'img/with space.png': png(2),
    });
    const plan = await syncFolder(docs, dir, { plan: true });
    expect(plan.media).toEqual({ uploaded: 2, reused: 0, failed: 0 });
    const report = await syncFolder(docs, dir);
    expect(report.media).toEqual({ uploaded: 2, reused: 0, failed: 0 });
    const uploads = site.writes().filter((r) => r.path.endsWith('/media'));
    expect(uploads).toHaveLength(2);
    const media = [...site.items.values()].filter((i) => i.type === 'attachment');
    const one = media.find((m) => m.source_url?.includes('one.png'))!;
    expect(one.slug).toMatch(/^docs-sync-[0-9a-f]{24}$/);
    const a = site.bySlug('a')!.content.raw;
    expect(a.match(new RegExp(`src="${one.source_url!.replace(/[?]/g, '\\?')}"`, 'g'))).toHaveLength(2);
    expect(a).toContain('src="https://docs.example.org/wp-content/uploads/with%20space.png');
    expect(site.bySlug('b')).toMatchObject({ featured_media: one.id });
    expect(site.bySlug('b')!.content.raw).toContain(
      `<img src="${one.source_url}" alt="one again" title="t" />`,
    );

    // Another checkout without the state file: the images are found on the site by their hash.
    await rm(join(dir, SYNC_STATE_FILE));
    const fresh = await syncFolder(docs, dir);
    expect(fresh.media).toEqual({ uploaded: 0, reused: 2, failed: 0 });
    expect(fresh.counts.unchanged).toBe(2);
  });

  it('an upload the site refuses fails the pages that show it, not the others', async () => {
    const dir = await folder({ 'a.md': '![x](broken.png)', 'b.md': 'Fine.', 'broken.png': png(3) });
    const report = await syncFolder(docs, dir);
    expect(report.media).toEqual({ uploaded: 0, reused: 0, failed: 1 });
    expect(report.items.find((i) => i.slug === 'a')).toMatchObject({
      outcome: 'failed',
      error: expect.objectContaining({ code: 'rest_upload_unknown_error', status: 500 }),
    });
    expect(report.items.find((i) => i.slug === 'b')).toMatchObject({ outcome: 'done' });
  });

  it('adopts an item of the site by slug, and never trashes it', async () => {
    const mine = site.add('page', { slug: 'mine', title: { raw: 'Hand made', rendered: '' } });
    const dir = await folder({ 'mine.md': 'Now from git.', 'new.md': 'New.' });
    const first = await syncFolder(docs, dir);
    expect(first.items.map((i) => [i.slug, i.action, i.id])).toEqual([
      ['mine', 'update', mine.id],
      ['new', 'create', expect.any(Number)],
    ]);
    await rm(join(dir, 'mine.md'));
    await rm(join(dir, 'new.md'));
    const kept = await syncFolder(docs, dir);
    expect(kept.orphans).toEqual(['new']);
    const pruned = await syncFolder(docs, dir, { prune: true });
    expect(pruned.items.map((i) => [i.slug, i.action, i.outcome])).toEqual([['new', 'delete', 'done']]);
    expect(site.items.get(mine.id)?.status).toBe('publish');
    expect([...site.items.values()].find((i) => i.slug === 'new')?.status).toBe('trash');
    const state = JSON.parse(await readFile(join(dir, SYNC_STATE_FILE), 'utf8'));
    expect(state.items).toEqual({});
  });

  it('does not trash an item edited on the site since the last sync unless force', async () => {
    const dir = await folder({ 'a.md': 'One.' });
    await syncFolder(docs, dir);
    site.write(site.bySlug('a')!, { content: 'Edited there.' });
    await rm(join(dir, 'a.md'));
    const plan = await syncFolder(docs, dir, { prune: true, plan: true });
    expect(plan.items).toEqual([
      expect.objectContaining({
        slug: 'a',
        action: 'conflict',
        changes: ['edited on the site since the last sync, and its file is gone'],
      }),
    ]);
    await expect(syncFolder(docs, dir, { prune: true })).rejects.toMatchObject({ code: 'conflict' });
    await syncFolder(docs, dir, { prune: true, force: true });
    expect([...site.items.values()][0]?.status).toBe('trash');
  });

  it('asks confirm before writing; declined, nothing is written', async () => {
    const dir = await folder({ 'a.md': 'One.' });
    const seen: string[] = [];
    const report = await syncFolder(docs, dir, {
      confirm: (items) => {
        seen.push(...items.map((i) => `${i.action} ${i.slug}`));
        return false;
      },
    });
    expect(seen).toEqual(['create a']);
    expect(report.confirmed).toBe(false);
    expect(site.writes()).toEqual([]);
  });

  it('syncs posts the same way', async () => {
    const dir = await folder({ 'news.md': md({ title: 'News', status: 'draft' }) });
    const progress: string[] = [];
    await syncFolder(docs, dir, { type: 'posts', onProgress: (p) => progress.push(`${p.done}/${p.total}`) });
    expect(site.bySlug('news')).toMatchObject({ type: 'post', status: 'draft' });
    expect(site.bySlug('news')).not.toHaveProperty('parent');
    expect(progress).toEqual(['1/1']);
    const state = JSON.parse(await readFile(join(dir, SYNC_STATE_FILE), 'utf8'));
    expect(state).toMatchObject({ version: 1, site: 'https://docs.example.org', type: 'posts' });
    // The same folder as pages would be another site's content: refused.
    await expect(syncFolder(docs, dir)).rejects.toMatchObject({ code: 'state_mismatch' });
  });
});
