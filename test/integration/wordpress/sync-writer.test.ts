/**
 * `docs sync` as a writer uses it, against real WordPress (issue 31, part 3): prune and the pages
 * under a trashed page, a wrong application password, an image linked in from outside the folder,
 * links between the Markdown files.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import type { SitePage } from '../../../src/docs-site.js';
import { makeClient, makePng, site, uniqueToken } from './helpers.js';

const docs = makeClient();
const token = uniqueToken('writer');
let root: string;

/** `docs …` on the command line, the site in the environment (not on a terminal). */
async function cli(args: string[], password = site.applicationPassword) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['docs', ...args], {
    stdout: { write: (c: string) => out.push(c) },
    stderr: { write: (c: string) => err.push(c), isTTY: false },
    stdin: new PassThrough(),
    env: {
      AV_DOCS_BASE_URL: site.baseUrl,
      AV_DOCS_REST_ROOT: site.restRoot,
      AV_DOCS_USERNAME: site.username,
      AV_DOCS_APP_PASSWORD: password,
    },
  });
  return { code, lines: out.join('').split('\n').filter(Boolean), err: err.join('') };
}

/** A folder of the run: `files` written under a new folder of `root`. */
async function folder(files: Record<string, string | Uint8Array>): Promise<string> {
  const dir = await mkdtemp(join(root, 'f-'));
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
  }
  return dir;
}

/** The run's pages by slug, any status but trash unless asked. */
async function pages(): Promise<Map<string, SitePage>> {
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

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'docs-sync-writer-'));
});

afterAll(async () => {
  const ids = [...(await pages()).values()].map((p) => p.id);
  if (ids.length > 0) await docs.batch(ids.map((id) => docs.pages.batchDelete(id, { force: true })));
  await rm(root, { recursive: true, force: true });
});

describe(`docs sync as a writer uses it, WordPress ${site.version}`, () => {
  it('--prune never leaves published pages under a trashed page; the next run works', async () => {
    const sec = `${token}-sec`;
    const dir = await folder({
      [`${sec}/index.md`]: `# Security ${token}\n`,
      [`${sec}/${token}-named.md`]: `---\nparent: ${sec}\n---\nNamed.\n`,
      [`${sec}/${token}-implicit.md`]: 'Implicit.\n',
    });
    expect((await cli(['sync', dir])).code).toBe(0);
    const before = await pages();
    expect(before.get(`${token}-named`)?.parent).toBe(before.get(sec)?.id);
    expect(before.get(`${token}-implicit`)?.parent).toBe(before.get(sec)?.id);
    await rm(join(dir, sec, 'index.md'));

    // The file that names the page to be trashed as its parent: refused before any write.
    for (const args of [
      ['sync', dir, '--prune', '--plan'],
      ['sync', dir, '--prune', '--yes'],
    ]) {
      const refused = await cli(args);
      expect(refused.code).toBe(4);
      expect(refused.err).toMatch(
        /named\.md: "parent: .*-sec" is a page whose file is gone.*\[trashed_parent\]/,
      );
    }
    expect((await pages()).get(sec)?.status).toBe('publish');

    // The writer drops the parent: both pages move as the folder now says, then the page is trashed.
    await writeFile(join(dir, sec, `${token}-named.md`), 'Named.\n');
    const plan = await cli(['sync', dir, '--prune', '--plan']);
    expect(plan.code).toBe(0);
    expect(plan.lines).toEqual([
      expect.stringMatching(/^update +.*-implicit #\d+ .*\[parent\]$/),
      expect.stringMatching(/^update +.*-named #\d+ .*\[parent\]$/),
      expect.stringMatching(/^delete +.*-sec #\d+$/),
    ]);
    expect((await cli(['sync', dir, '--prune', '--yes'])).code).toBe(0);
    const after = await pages();
    expect(after.get(sec)?.status).toBe('trash');
    for (const slug of [`${token}-named`, `${token}-implicit`]) {
      expect(after.get(slug)).toMatchObject({ parent: 0, status: 'publish' });
    }
    const next = await cli(['sync', dir, '--prune', '--plan']);
    expect(next.code).toBe(0);
    expect(next.err).toMatch(/plan: 0 create, 0 update, 2 unchanged, 0 conflict, 0 delete/);
  });

  it('refuses the trash while a page not in the folder is under the page', async () => {
    const top = `${token}-top`;
    const dir = await folder({ [`${top}.md`]: 'Top.\n', [`${token}-other.md`]: 'Other.\n' });
    expect((await cli(['sync', dir])).code).toBe(0);
    const parent = (await pages()).get(top)!;
    const handmade = await docs.pages.create({ slug: `${token}-handmade`, title: token, parent: parent.id });
    await rm(join(dir, `${top}.md`));
    const refused = await cli(['sync', dir, '--prune', '--yes']);
    expect(refused.code).toBe(4);
    expect(refused.err).toContain(`"${token}-handmade" (id ${handmade.id}) is under it`);
    expect(refused.err).toContain('[trash_has_children]');
    expect((await pages()).get(top)?.status).toBe('publish');
  });

  it('names a wrong application password, exit 5, for docs sync and docs get', async () => {
    const dir = await folder({ [`${token}-a.md`]: 'A.\n' });
    for (const args of [
      ['sync', dir, '--plan'],
      ['sync', dir],
      ['get', '/wp/v2/pages'],
    ]) {
      const run = await cli(args, 'abcd EFGH ijkl MNOP qrst UVWX');
      expect(run.code).toBe(5);
      expect(run.err).toContain('the site did not accept the user name and application password');
      expect(run.err).not.toContain('EFGH');
    }
    expect((await pages()).has(`${token}-a`)).toBe(false);
  });

  it('refuses an image symlinked from outside the folder (exit 4, nothing written)', async () => {
    const outside = await folder({ 'secret.png': makePng(4, 4) });
    const dir = await folder({ [`${token}-pic.md`]: '![x](pic.png)\n' });
    await symlink(join(outside, 'secret.png'), join(dir, 'pic.png'));
    const run = await cli(['sync', dir]);
    expect(run.code).toBe(4);
    expect(run.err).toMatch(
      /the image "pic.png" is a symbolic link to .*outside the folder.*\[missing_image\]/,
    );
    expect((await pages()).has(`${token}-pic`)).toBe(false);
  });

  it("rewrites links between the files to the pages' links, #anchor kept; a missing one is refused", async () => {
    const home = `${token}-home`;
    const install = `${token}-install`;
    const dir = await folder({
      [`${home}.md`]: `[Install](guide/${install}.md#setup)\n`,
      [`guide/${install}.md`]: `Back [home](../${home}.md).\n`,
    });
    expect((await cli(['sync', dir])).code).toBe(0);
    const byslug = await pages();
    const link = (slug: string) => byslug.get(slug)?.link as string;
    expect(link(install)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const raw = (slug: string) => (byslug.get(slug)?.content as { raw?: string } | undefined)?.raw;
    expect(raw(home)).toContain(`href="${link(install)}#setup"`);
    expect(raw(install)).toContain(`href="${link(home)}"`);
    // The page answers at that link (no 404).
    expect((await fetch(link(install))).status).toBe(200);
    expect((await cli(['sync', dir, '--plan'])).err).toMatch(/0 create, 0 update, 2 unchanged/);

    await writeFile(join(dir, `${home}.md`), `[Gone](guide/${token}-gone.md)\n`);
    const refused = await cli(['sync', dir]);
    expect(refused.code).toBe(4);
    expect(refused.err).toMatch(/-home\.md: the link ".*-gone\.md" leads to .*\[missing_link\]/);
    // Nothing was written: the page still links to the install page.
    const now = (await pages()).get(home)?.content as { raw: string };
    expect(now.raw).toContain(`href="${link(install)}#setup"`);
  });
});
