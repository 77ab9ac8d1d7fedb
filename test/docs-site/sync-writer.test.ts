/**
 * What a writer meets (issue 31, part 3) against the emulated site: prune and the pages under a
 * trashed page, a wrong application password, images linked in from outside the folder, links
 * between the Markdown files. The same against real WordPress: test/integration/wordpress/sync.test.ts.
 */
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { DocsSiteError, DocsSyncError, syncFolder } from '../../src/docs-site.js';
import { mswFetch } from '../helpers/msw-fetch.js';
import { BASE, client, PASSWORD, USER, useServer } from './helpers.js';
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

async function issuesOf(run: Promise<unknown>) {
  const error = await run.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DocsSyncError);
  return (error as DocsSyncError).issues;
}

async function cli(args: string[], password = PASSWORD) {
  const err: string[] = [];
  const code = await runCli(args, {
    stdout: { write: () => {} },
    stderr: { write: (c: string) => err.push(c), isTTY: false },
    stdin: new PassThrough(),
    env: { AV_DOCS_BASE_URL: BASE, AV_DOCS_USERNAME: USER, AV_DOCS_APP_PASSWORD: password },
    fetch: mswFetch,
  });
  return { code, err: err.join('') };
}

describe('prune never leaves pages under a trashed page', () => {
  /** The folder of the issue: sec/index.md, sec/named.md (parent: sec), sec/implicit.md, synced. */
  async function synced() {
    const dir = await folder({
      'sec/index.md': '# Security\n',
      'sec/named.md': md({ parent: 'sec' }, 'Named.\n'),
      'sec/implicit.md': 'Implicit.\n',
    });
    await syncFolder(docs, dir);
    await rm(join(dir, 'sec/index.md'));
    return dir;
  }

  it('refuses, before any write, a file whose parent: names the page to be trashed', async () => {
    const dir = await synced();
    const sec = site.bySlug('sec')!;
    const writes = site.writes().length;
    for (const plan of [true, false]) {
      const issues = await issuesOf(syncFolder(docs, dir, { prune: true, plan }));
      expect(issues).toEqual([
        expect.objectContaining({ code: 'trashed_parent', file: 'sec/named.md', key: 'parent' }),
      ]);
      expect(issues[0]?.message).toMatch(/"parent: sec".*restore its file, or change or remove "parent"/);
    }
    expect(site.writes()).toHaveLength(writes);
    expect(site.items.get(sec.id)?.status).toBe('publish');
    // Without prune nothing is trashed: named stays under sec, which is reported as an orphan.
    expect((await syncFolder(docs, dir, { plan: true })).orphans).toEqual(['sec']);
  });

  it('moves the pages the folder holds as it now says, trashes the page, and the next run works', async () => {
    const dir = await synced();
    await writeFiles(dir, { 'sec/named.md': 'Named.\n' });
    const sec = site.bySlug('sec')!;
    const plan = await syncFolder(docs, dir, { prune: true, plan: true });
    expect(plan.items.map((i) => [i.action, i.slug, i.changes])).toEqual([
      ['update', 'implicit', ['parent']],
      ['update', 'named', ['parent']],
      ['delete', 'sec', undefined],
    ]);
    const report = await syncFolder(docs, dir, { prune: true });
    expect(report.failed).toBe(0);
    expect(site.items.get(sec.id)?.status).toBe('trash');
    expect(site.bySlug('implicit')?.parent).toBe(0);
    expect(site.bySlug('named')?.parent).toBe(0);
    const next = await syncFolder(docs, dir, { prune: true, plan: true });
    expect(next.counts).toMatchObject({ unchanged: 2, create: 0, update: 0, delete: 0 });
  });

  it('refuses when a page not in the folder is under the page to be trashed', async () => {
    const dir = await folder({ 'sec/index.md': '# Security\n', 'other.md': 'Other.\n' });
    await syncFolder(docs, dir);
    const sec = site.bySlug('sec')!;
    const handmade = site.add('page', { slug: 'handmade', parent: sec.id });
    await rm(join(dir, 'sec/index.md'));
    const writes = site.writes().length;
    const issues = await issuesOf(syncFolder(docs, dir, { prune: true }));
    expect(issues).toEqual([expect.objectContaining({ code: 'trash_has_children', slug: 'sec' })]);
    expect(issues[0]?.message).toContain(`"handmade" (id ${handmade.id})`);
    expect(site.writes()).toHaveLength(writes);
    // Moved on the site: the trash goes ahead.
    handmade.parent = 0;
    expect((await syncFolder(docs, dir, { prune: true })).counts.delete).toBe(1);
  });
});

describe('a wrong application password is named as such', () => {
  it('syncFolder asks who it is first: credentials_refused, nothing else read', async () => {
    site.password = 'the-right-one';
    const dir = await folder({ 'a.md': 'A.\n' });
    const error = await syncFolder(docs, dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocsSiteError);
    expect(error).toMatchObject({ code: 'credentials_refused', status: 401 });
    expect(site.requests.map((r) => r.path)).toEqual(['/wp/v2/users/me']);
  });

  it('docs sync and docs get exit 5 and say the site did not accept them', async () => {
    site.password = 'the-right-one';
    const dir = await folder({ 'a.md': 'A.\n' });
    for (const args of [
      ['docs', 'sync', dir],
      ['docs', 'sync', dir, '--plan'],
      ['docs', 'get', '/wp/v2/pages'],
    ]) {
      const { code, err } = await cli(args);
      expect(code).toBe(5);
      expect(err).toContain('the site did not accept the user name and application password');
      expect(err).not.toContain(PASSWORD);
    }
    expect((await cli(['docs', 'get', '/wp/v2/pages'], 'the-right-one')).code).toBe(0);
  });
});

describe('images and links', () => {
  it('refuses an image that is a symbolic link to a file outside the folder', async () => {
    const outside = await folder({ 'secret.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47]) });
    const dir = await folder({ 'a.md': '![x](pic.png)\n' });
    await symlink(join(outside, 'secret.png'), join(dir, 'pic.png'));
    const issues = await issuesOf(syncFolder(docs, dir, { plan: true }));
    expect(issues).toEqual([expect.objectContaining({ code: 'missing_image', file: 'a.md' })]);
    expect(issues[0]?.message).toContain('symbolic link');
    expect(site.writes()).toEqual([]);
  });

  it('follows a symbolic link that stays inside the folder', async () => {
    const dir = await folder({ 'a.md': '![x](pic.png)\n', 'img/real.png': new Uint8Array([1, 2, 3]) });
    await symlink(join(dir, 'img/real.png'), join(dir, 'pic.png'));
    expect((await syncFolder(docs, dir)).media.uploaded).toBe(1);
  });

  it("makes a link to another file the page's link, #anchor kept, also for a page created in the same run", async () => {
    const dir = await folder({
      'index.md':
        '[Install](guide/install.md#setup), [again](guide/install.md) and [out](https://x.example/a.md)\n',
      'guide/install.md': 'See [home](../index.md).\n',
    });
    const report = await syncFolder(docs, dir);
    expect(report.failed).toBe(0);
    const install = site.bySlug('install')!;
    const index = site.bySlug('index')!;
    expect(index.content.raw).toContain(`href="${install.link}#setup"`);
    expect(index.content.raw).toContain(`href="${install.link}"`);
    expect(index.content.raw).toContain('href="https://x.example/a.md"');
    expect(install.content.raw).toContain(`href="${index.link}"`);
    // Settled: the next run writes nothing.
    expect((await syncFolder(docs, dir, { plan: true })).counts).toMatchObject({ unchanged: 2 });
  });

  it('lists a link to a missing .md file as a problem before any write', async () => {
    const dir = await folder({
      'a.md': '[Gone](gone.md#x) and [Up](../elsewhere.md)\n',
      'b.md': 'Fine.\n',
    });
    const issues = await issuesOf(syncFolder(docs, dir));
    expect(issues.map((i) => [i.code, i.file])).toEqual([
      ['missing_link', 'a.md'],
      ['missing_link', 'a.md'],
    ]);
    expect(issues[0]?.message).toContain('"gone.md#x"');
    expect(issues[1]?.message).toContain('outside the folder');
    expect(site.writes()).toEqual([]);
  });
});
