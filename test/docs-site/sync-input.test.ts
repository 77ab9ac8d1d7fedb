/**
 * Bad input is refused with a DocsSyncError naming the file (and the key) before any request: the msw
 * server has no handler, so a request would fail the test.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DocsSyncError, type DocsSyncIssue, syncFolder } from '../../src/docs-site.js';
import { client, useServer } from './helpers.js';
import { md, writeFiles } from './sync-site.js';

useServer();
const docs = client({ contentNamespace: 'wp/v2' });

async function folder(files: Record<string, string | Uint8Array>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docs-sync-input-'));
  await writeFiles(dir, files);
  return dir;
}

async function refused(
  files: Record<string, string | Uint8Array>,
  options: Parameters<typeof syncFolder>[2] = {},
): Promise<DocsSyncIssue[]> {
  const error = await syncFolder(docs, await folder(files), options).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DocsSyncError);
  expect((error as DocsSyncError).message).toMatch(/nothing was written/);
  return [...(error as DocsSyncError).issues];
}

describe('syncFolder refuses bad input before any request', () => {
  it('front matter that is not YAML, with the file and the parser message', async () => {
    const issues = await refused({ 'a.md': '---\ntitle: [unclosed\n---\nText\n', 'ok.md': 'Fine.\n' });
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'invalid_front_matter',
        file: 'a.md',
        message: expect.stringMatching(/not valid YAML: .+/),
      }),
    ]);
  });

  it('front matter that is not closed, not a mapping, or has a duplicate key', async () => {
    const issues = await refused({
      'open.md': '---\ntitle: x\nno end\n',
      'list.md': '---\n- a\n- b\n---\n',
      'twice.md': '---\ntitle: a\ntitle: b\n---\n',
    });
    expect(issues.map((i) => [i.file, i.code])).toEqual([
      ['list.md', 'invalid_front_matter'],
      ['open.md', 'invalid_front_matter'],
      ['twice.md', 'invalid_front_matter'],
    ]);
    expect(issues[0]?.message).toMatch(/mapping/);
    expect(issues[1]?.message).toMatch(/no closing "---"/);
  });

  it('unknown front matter keys, each named; parent and menu_order on posts', async () => {
    const issues = await refused({ 'a.md': md({ title: 'A', tags: ['x'], autor: 'me' }) });
    expect(issues.map((i) => [i.code, i.key])).toEqual([
      ['unknown_front_matter_key', 'tags'],
      ['unknown_front_matter_key', 'autor'],
    ]);
    expect(issues[1]?.message).toMatch(/unknown front matter key "autor" \(known: title, slug, status/);
    const posts = await refused({ 'p.md': md({ parent: 'x', menu_order: 2 }) }, { type: 'posts' });
    expect(posts.map((i) => [i.key, i.message])).toEqual([
      ['parent', '"parent" is for pages, not posts'],
      ['menu_order', '"menu_order" is for pages, not posts'],
    ]);
  });

  it('values of the wrong type or out of range', async () => {
    const issues = await refused({
      'a.md': md({ title: 3, status: 'future', menu_order: 1.5, template: ['x'] }),
    });
    expect(issues.map((i) => i.key)).toEqual(['status', 'menu_order', 'template', 'title']);
    expect(issues.find((i) => i.key === 'status')?.message).toBe(
      '"status" must be one of publish, draft, pending, private',
    );
  });

  it.each([
    ['Getting Started.md', {}, /from the file name\) is refused.*set "slug:"/],
    ['a.md', { slug: 'Upper-Case' }, /"slug: Upper-Case" is refused/],
    ['a.md', { slug: 'two--hyphens' }, /single hyphens/],
    ['a.md', { slug: 'ü-accent' }, /is refused/],
    ['a.md', { slug: '2024' }, /not a number/],
    ['a.md', { slug: 'page3' }, /not a number or "page"/],
    ['a.md', { slug: 'feed' }, /reserves for feeds/],
    ['a.md', { slug: 'x'.repeat(201) }, /at most 200/],
  ])('a slug the site would refuse or rewrite: %s %j', async (name, meta, message) => {
    const issues = await refused({ [name]: md(meta) });
    expect(issues).toEqual([
      expect.objectContaining({ code: 'invalid_slug', key: 'slug', message: expect.stringMatching(message) }),
    ]);
  });

  it('two files with the same slug, both named', async () => {
    const issues = await refused({ 'a.md': md({ slug: 'same' }), 'sub/b.md': md({ slug: 'same' }) });
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'duplicate_slug',
        slug: 'same',
        message: expect.stringContaining('a.md, sub/b.md'),
      }),
    ]);
  });

  it('a folder page and a file of the same name are the same slug', async () => {
    const issues = await refused({ 'guide.md': 'x', 'guide/index.md': 'y' });
    expect(issues.map((i) => i.code)).toEqual(['duplicate_slug']);
  });

  it('a missing image, an image outside the folder, a missing featured image', async () => {
    const issues = await refused({
      'a.md': '![x](img/none.png)\n\n![y](../../etc/x.png)\n',
      'b.md': md({ featured_image: 'nope.png' }),
      'c.md': '![remote](https://example.org/x.png) ![root](/x.png) are not local files\n',
    });
    expect(issues.map((i) => [i.file, i.code, i.key])).toEqual([
      ['a.md', 'missing_image', undefined],
      ['a.md', 'missing_image', undefined],
      ['b.md', 'missing_image', 'featured_image'],
    ]);
    expect(issues[0]?.message).toBe('the image "img/none.png" does not exist (looked for img/none.png)');
    expect(issues[1]?.message).toMatch(/outside the folder/);
  });

  it('a parent cycle, reported once', async () => {
    const issues = await refused({
      'a.md': md({ parent: 'c' }),
      'b.md': md({ parent: 'a' }),
      'c.md': md({ parent: 'b' }),
      'self.md': md({ parent: 'self' }),
    });
    expect(issues.map((i) => [i.code, i.message])).toEqual([
      ['parent_cycle', 'the parents form a cycle: a → c → b → a'],
      ['parent_cycle', 'the parents form a cycle: self → self'],
    ]);
  });

  it('every problem of the folder in one error', async () => {
    const issues = await refused({
      'a.md': md({ nope: 1 }),
      'B.md': 'x',
      'c.md': '![x](missing.png)',
    });
    expect(issues.map((i) => i.code).sort()).toEqual([
      'invalid_slug',
      'missing_image',
      'unknown_front_matter_key',
    ]);
  });

  it('a state file that is malformed, or of another site or kind', async () => {
    const bad = await refused({ 'a.md': 'x', '.docs-sync.json': '{"version":1,"items":{"a":{"id":"7"}}}' });
    expect(bad).toEqual([
      expect.objectContaining({
        code: 'invalid_state',
        message: expect.stringMatching(/malformed entry for "a"/),
      }),
    ]);
    const other = JSON.stringify({ version: 1, site: 'https://other.example.org', type: 'pages', items: {} });
    const mismatch = await refused({ 'a.md': 'x', '.docs-sync.json': other });
    expect(mismatch).toEqual([
      expect.objectContaining({
        code: 'state_mismatch',
        message: expect.stringContaining('not of pages to https://docs.example.org'),
      }),
    ]);
  });

  it('a path that is not a folder; a bad type', async () => {
    const dir = await folder({});
    await writeFile(join(dir, 'file.md'), 'x');
    await expect(syncFolder(docs, join(dir, 'file.md'))).rejects.toMatchObject({ code: 'invalid_folder' });
    // @ts-expect-error: only pages or posts
    await expect(syncFolder(docs, dir, { type: 'media' })).rejects.toMatchObject({
      code: 'invalid_param',
      param: 'type',
    });
  });
});
