import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import {
  DocsSiteClient,
  DocsSyncError,
  type SitePage,
  SYNC_STATE_FILE,
  syncFolder,
} from '../../../src/docs-site.js';
import { site, uniqueToken } from './helpers.js';
import { writeHierarchy } from './sync-fixture.js';

/** Every request the sync client sends, by method and path. */
const sent: { method: string; path: string }[] = [];
const counting: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  sent.push({ method: request.method, path: new URL(request.url).pathname });
  return fetch(request);
};
const docs = new DocsSiteClient({
  baseUrl: site.baseUrl,
  restRoot: site.restRoot,
  contentNamespace: 'wp/v2',
  auth: { username: site.username, applicationPassword: site.applicationPassword },
  fetch: counting,
  timeoutMs: 60_000,
});
const writes = () => sent.filter((r) => r.method !== 'GET');

/** `docs sync` on the command line, with the site in the environment (not on a terminal). */
async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['docs', 'sync', ...args], {
    stdout: { write: (c: string) => out.push(c) },
    stderr: { write: (c: string) => err.push(c), isTTY: false },
    stdin: new PassThrough(),
    env: {
      AV_DOCS_BASE_URL: site.baseUrl,
      AV_DOCS_REST_ROOT: site.restRoot,
      AV_DOCS_USERNAME: site.username,
      AV_DOCS_APP_PASSWORD: site.applicationPassword,
    },
    fetch: counting,
  });
  const lines = out.join('').split('\n').filter(Boolean);
  return { code, lines, err: err.join('') };
}

const token = uniqueToken('sync');
let dir: string;
/** Pages of the run by slug (any status, trash too). */
async function pagesBySlug(): Promise<Map<string, SitePage>> {
  const out = new Map<string, SitePage>();
  for await (const page of docs.pages.iterate({
    search: token,
    status: ['publish', 'draft', 'trash'],
    context: 'edit',
    per_page: 100,
  })) {
    out.set((page.slug ?? '').replace(/__trashed$/, ''), page);
  }
  return out;
}

/**
 * Delete the uploads of the fixture's images: the sync finds media by the hash of their bytes, which
 * are the same in every run, so an earlier run's uploads would be reused.
 */
async function deleteFixtureMedia(): Promise<void> {
  const slugs: string[] = [];
  for (const name of await readdir(join(dir, 'images'))) {
    const hash = createHash('sha256')
      .update(await readFile(join(dir, 'images', name)))
      .digest('hex');
    slugs.push(`docs-sync-${hash.slice(0, 24)}`);
  }
  for (const media of (await docs.media.list({ slug: slugs, per_page: 100 })).items) {
    await docs.media.delete(media.id, { force: true });
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docs-sync-wp-'));
  expect(await writeHierarchy(dir, token)).toHaveLength(30);
  await deleteFixtureMedia();
});

afterAll(async () => {
  const ids = [...(await pagesBySlug()).values()].map((p) => p.id);
  await docs.batch(ids.map((id) => docs.pages.batchDelete(id, { force: true })));
  await deleteFixtureMedia();
  await rm(dir, { recursive: true, force: true });
});

describe(`docs sync against WordPress ${site.version}`, () => {
  it('creates 30 pages in their hierarchy with their images uploaded once (one page already there is adopted)', async () => {
    // A page made by hand with the slug of a file: the sync updates it, but never trashes it.
    const adopted = await docs.pages.create({
      slug: `${token}-s1-p4`,
      title: `${token} by hand`,
      status: 'draft',
    });
    const plan = await syncFolder(docs, dir, { plan: true });
    expect(plan.counts).toEqual({ create: 29, update: 1, unchanged: 0, conflict: 0, delete: 0 });
    expect(plan.media).toEqual({ uploaded: 5, reused: 0, failed: 0 });
    expect(plan.items.find((i) => i.action === 'update')).toMatchObject({
      slug: `${token}-s1-p4`,
      id: adopted.id,
    });
    sent.length = 0;

    const run = await cli([dir, '--json']);
    expect(run.err).toMatch(/sync: 29 create, 1 update, 0 unchanged/);
    expect(run.code).toBe(0);
    const items = run.lines.map((l) => JSON.parse(l) as { slug: string; outcome: string; id: number });
    expect(items).toHaveLength(30);
    expect(items.every((i) => i.outcome === 'done' && i.id > 0)).toBe(true);
    // 5 uploads, then 3 batch calls: the top level, their children, the grand-children.
    const posts = writes();
    expect(posts.filter((r) => r.path.endsWith('/wp/v2/media'))).toHaveLength(5);
    expect(posts.filter((r) => r.path.endsWith('/batch/v1'))).toHaveLength(3);
    expect(posts).toHaveLength(8);

    const pages = await pagesBySlug();
    expect(pages.size).toBe(30);
    const id = (slug: string) => pages.get(`${token}-${slug}`)?.id;
    const page = (slug: string) => pages.get(`${token}-${slug}`) as SitePage;
    expect(page('welcome').parent).toBe(0);
    expect(page('about').parent).toBe(id('welcome'));
    expect(page('about').menu_order).toBe(2);
    expect(page('s2').parent).toBe(0);
    expect(page('s2-p3').parent).toBe(id('s2'));
    expect(page('s2-deep').parent).toBe(id('s2'));
    expect(page('s2-leaf').parent).toBe(id('s2-deep'));
    expect(page('s1-p4').id).toBe(adopted.id);
    expect(page('s1-p4').status).toBe('publish');

    const logoUrl = /<img src="([^"]+)" alt="logo" title="The logo"/.exec(
      (page('s3-p1').content as { raw: string }).raw,
    )?.[1];
    expect(logoUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*\.png$/);
    expect((page('s4-p2').content as { raw: string }).raw).toContain(`src="${logoUrl}"`);
    const logo = (await docs.media.list({ search: 'logo', per_page: 100 })).items.find(
      (m) => m.source_url === logoUrl,
    );
    expect(page('welcome').featured_media).toBe(logo?.id);
    expect((page('s1').content as { raw: string }).raw).toMatch(/<table>[\s\S]*<td>configure<\/td>/);
    expect(page('s1').title).toMatchObject({ raw: `Section 1 ${token}` });

    const state = JSON.parse(await readFile(join(dir, SYNC_STATE_FILE), 'utf8'));
    expect(Object.keys(state.items)).toHaveLength(30);
    expect(state.items[`${token}-s1-p4`]).toMatchObject({ id: adopted.id, created: false });
    expect(state.items[`${token}-s1-p3`]).toMatchObject({ id: id('s1-p3'), created: true });
  });

  it('writes nothing when nothing changed', async () => {
    sent.length = 0;
    const report = await syncFolder(docs, dir);
    expect(report.counts).toEqual({ create: 0, update: 0, unchanged: 30, conflict: 0, delete: 0 });
    expect(report.media).toEqual({ uploaded: 0, reused: 5, failed: 0 });
    expect(writes()).toEqual([]);
  });

  it('updates exactly the 3 files edited, in one batch call', async () => {
    for (const file of ['s1/p1.md', 's2/deep/leaf.md', 'about.md']) {
      const path = join(dir, file);
      await writeFile(path, `${await readFile(path, 'utf8')}\nEdited in git.\n`);
    }
    const plan = await syncFolder(docs, dir, { plan: true });
    expect(
      plan.items.filter((i) => i.action !== 'unchanged').map((i) => [i.action, i.slug, i.changes]),
    ).toEqual(
      expect.arrayContaining([
        ['update', `${token}-about`, ['content']],
        ['update', `${token}-s1-p1`, ['content']],
        ['update', `${token}-s2-leaf`, ['content']],
      ]),
    );
    expect(plan.counts.update).toBe(3);
    sent.length = 0;
    const report = await syncFolder(docs, dir);
    expect(report.counts).toMatchObject({ update: 3, unchanged: 27 });
    expect(writes().map((r) => r.path)).toEqual([expect.stringMatching(/\/batch\/v1$/)]);
    expect(
      (await docs.pages.get(report.items.find((i) => i.slug === `${token}-about`)!.id!, { context: 'edit' }))
        .content,
    ).toMatchObject({
      raw: expect.stringContaining('Edited in git.'),
    });
  });

  it('shows a page edited on the site as a conflict, refuses to sync it, and overwrites it with --force', async () => {
    const id = (await pagesBySlug()).get(`${token}-s3-p2`)!.id;
    // Edited right after the last sync: within the same second, modified_gmt may not move.
    await docs.pages.update(id, { title: 'Changed on the site' });

    const plan = await cli([dir, '--plan', '--json']);
    expect(plan.code).toBe(3);
    const conflict = plan.lines.map((l) => JSON.parse(l)).filter((i) => i.action !== 'unchanged');
    expect(conflict).toEqual([
      expect.objectContaining({ action: 'conflict', slug: `${token}-s3-p2`, id, changes: ['title'] }),
    ]);

    sent.length = 0;
    const refused = await cli([dir]);
    expect(refused.code).toBe(3);
    expect(refused.err).toMatch(
      /s3\/p2\.md: .*changed on the site since the last sync \(title\).* \[conflict\]/,
    );
    expect(writes()).toEqual([]);
    await expect(syncFolder(docs, dir)).rejects.toBeInstanceOf(DocsSyncError);
    expect((await docs.pages.get(id, { context: 'edit' })).title).toMatchObject({
      raw: 'Changed on the site',
    });

    const forced = await cli([dir, '--force']);
    expect(forced.code).toBe(0);
    expect(forced.lines.filter((l) => !l.startsWith('unchanged'))).toEqual([
      expect.stringMatching(/^conflict +.*-s3-p2 #\d+/),
    ]);
    expect((await docs.pages.get(id, { context: 'edit' })).title).toMatchObject({ raw: `Page 3.2 ${token}` });
    expect((await syncFolder(docs, dir, { plan: true })).counts.unchanged).toBe(30);
  });

  it('moves to the trash, with --prune, only a page the sync created whose file is gone', async () => {
    await rm(join(dir, 's1', 'p3.md')); // created by the sync
    await rm(join(dir, 's1', 'p4.md')); // adopted: made by hand before the first sync
    const before = await pagesBySlug();

    const kept = await cli([dir]);
    expect(kept.code).toBe(0);
    expect(kept.err).toMatch(/1 item\(s\) the sync created have no file any more .*--prune/);
    expect((await docs.pages.get(before.get(`${token}-s1-p3`)!.id, { context: 'edit' })).status).toBe(
      'publish',
    );

    const unconfirmed = await cli([dir, '--prune']);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.err).toMatch(/--yes/);

    const plan = await cli([dir, '--prune', '--plan']);
    expect(plan.code).toBe(0);
    expect(plan.lines.filter((l) => !l.startsWith('unchanged'))).toEqual([
      expect.stringMatching(/^delete +.*-s1-p3 #\d+$/),
    ]);

    const pruned = await cli([dir, '--prune', '--yes', '--json']);
    expect(pruned.code).toBe(0);
    expect(pruned.lines.map((l) => JSON.parse(l)).filter((i) => i.action === 'delete')).toEqual([
      expect.objectContaining({ slug: `${token}-s1-p3`, outcome: 'done' }),
    ]);
    const after = await pagesBySlug();
    expect(after.get(`${token}-s1-p3`)?.status).toBe('trash');
    expect(after.get(`${token}-s1-p4`)?.status).toBe('publish');
    const state = JSON.parse(await readFile(join(dir, SYNC_STATE_FILE), 'utf8'));
    expect(Object.keys(state.items)).toHaveLength(28);
    expect((await syncFolder(docs, dir, { prune: true, plan: true })).counts).toEqual({
      create: 0,
      update: 0,
      unchanged: 28,
      conflict: 0,
      delete: 0,
    });
  });
});
