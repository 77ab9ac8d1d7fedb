/** `affiliation-validation docs sync` against an emulated site: output, progress, exit codes, --prune. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { mswFetch } from '../helpers/msw-fetch.js';
import { BASE, PASSWORD, USER, useServer } from './helpers.js';
import { FakeSite, md, writeFiles } from './sync-site.js';

const server = useServer();
let site: FakeSite;
beforeEach(() => {
  site = new FakeSite();
  server.use(...site.handlers());
});

/** A terminal's stdin that answers `answer`, or a pipe. */
function stdin(answer?: string) {
  const stream = Object.assign(new PassThrough(), { isTTY: answer !== undefined });
  if (answer !== undefined) stream.end(`${answer}\n`);
  return stream;
}

async function sync(args: string[], options: { tty?: boolean; answer?: string } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['docs', 'sync', ...args], {
    stdout: { write: (c: string) => out.push(c) },
    stderr: { write: (c: string) => err.push(c), isTTY: options.tty === true },
    stdin: stdin(options.answer),
    env: { AV_DOCS_BASE_URL: BASE, AV_DOCS_USERNAME: USER, AV_DOCS_APP_PASSWORD: PASSWORD },
    fetch: mswFetch,
  });
  return { code, out: out.join(''), err: err.join('') };
}

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docs-sync-cli-'));
  await writeFiles(dir, files);
  return dir;
}

describe('docs sync', () => {
  it('prints one line per item, a summary, and plain progress lines when not on a terminal', async () => {
    const dir = await folder({ 'a.md': 'One.', 'b/index.md': 'Two.', 'b/c.md': 'Three.' });
    const plan = await sync([dir, '--plan']);
    expect(plan.code).toBe(0);
    expect(plan.out.split('\n').filter(Boolean)).toEqual([
      'create    a (a.md)',
      'create    b (b/index.md)',
      'create    c (b/c.md)',
    ]);
    expect(plan.err).toContain(
      'plan: 3 create, 0 update, 0 unchanged, 0 conflict, 0 delete; 0 image(s) to upload, 0 on the site; nothing was written',
    );
    expect(site.writes()).toEqual([]);

    const run = await sync([dir]);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^create +a #\d+ \(a\.md\)$/m);
    expect(run.err).toContain('sync: 2/3 done\nsync: 3/3 done\n');
    expect(run.err).toContain(
      'sync: 3 create, 0 update, 0 unchanged, 0 conflict, 0 delete; 0 image(s) uploaded, 0 reused; 0 failed',
    );
    // Sent with the credentials of the environment.
    expect(site.writes()).toHaveLength(2);
  });

  it('draws a progress bar on a terminal', async () => {
    const dir = await folder({ 'a.md': 'One.' });
    const run = await sync([dir], { tty: true, answer: '' });
    expect(run.code).toBe(0);
    expect(run.err).toContain('\r[##############################] 1/1\n');
  });

  it('--json: one object per item, the site error of a failed one, exit 1', async () => {
    site.refuse.add('bad');
    const dir = await folder({ 'bad.md': 'x', 'good.md': 'y' });
    const run = await sync([dir, '--json']);
    expect(run.code).toBe(1);
    const items = run.out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(items).toEqual([
      expect.objectContaining({
        slug: 'bad',
        action: 'create',
        outcome: 'failed',
        error: expect.objectContaining({ code: 'rest_invalid_param', status: 400 }),
      }),
      expect.objectContaining({ slug: 'good', action: 'create', outcome: 'done', id: expect.any(Number) }),
    ]);
    expect(run.err).toContain('1 failed');
  });

  it('bad input: exit 4, every problem named, nothing sent but the index', async () => {
    const dir = await folder({ 'a.md': md({ colour: 'red' }), 'b.md': '![x](gone.png)' });
    const run = await sync([dir]);
    expect(run.code).toBe(4);
    expect(run.err).toContain('a.md: unknown front matter key "colour"');
    expect(run.err).toContain(
      'b.md: the image "gone.png" does not exist (looked for gone.png) [missing_image]',
    );
    expect(run.err).toContain(`sync: 2 problem(s) in ${dir}; nothing was written`);
    expect(site.requests.map((r) => r.path)).toEqual([]);
    const json = await sync([dir, '--json']);
    expect(
      json.out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l).error.code),
    ).toEqual(['unknown_front_matter_key', 'missing_image']);
  });

  it('conflicts: --plan shows them and exits 3, a sync is refused with 3, --force writes', async () => {
    const dir = await folder({ 'a.md': 'One.' });
    expect((await sync([dir])).code).toBe(0);
    site.write(site.bySlug('a')!, { content: 'Edited on the site' });
    const plan = await sync([dir, '--plan']);
    expect(plan.code).toBe(3);
    expect(plan.out).toMatch(/^conflict +a #\d+ \(a\.md\) \[content\]$/m);
    const writes = site.writes().length;
    const refused = await sync([dir]);
    expect(refused.code).toBe(3);
    expect(refused.err).toMatch(/refused, 1 conflict\(s\); nothing was written/);
    expect(site.writes().length).toBe(writes);
    expect((await sync([dir, '--force'])).code).toBe(0);
    expect(site.bySlug('a')?.content.raw).toBe('<p>One.</p>\n');
  });

  it('--prune needs --yes when not on a terminal, and asks on one', async () => {
    const dir = await folder({ 'a.md': 'One.', 'b.md': 'Two.' });
    await sync([dir]);
    await rm(join(dir, 'b.md'));
    const before = site.requests.length;
    const refused = await sync([dir, '--prune']);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/--prune moves items to the trash: not on a terminal, confirm with --yes/);
    expect(site.requests.length).toBe(before);

    const declined = await sync([dir, '--prune'], { answer: 'n' });
    expect(declined.code).toBe(3);
    expect(declined.err).toMatch(/^delete +b #\d+$/m);
    expect(declined.err).toContain('Move 1 item(s) to the trash and write the rest? [y/N] ');
    expect(declined.err).toContain('sync: not confirmed; nothing was written');
    expect(site.bySlug('b')?.status).toBe('publish');

    const accepted = await sync([dir, '--prune'], { answer: 'y' });
    expect(accepted.code).toBe(0);
    expect(site.bySlug('b')).toBeUndefined();

    await writeFiles(dir, { 'c.md': 'Three.' });
    await sync([dir]);
    await rm(join(dir, 'c.md'));
    const yes = await sync([dir, '--prune', '--yes']);
    expect(yes.code).toBe(0);
    expect(yes.out).toMatch(/^delete +c #\d+$/m);
  });

  it('refuses bad flags with exit 2', async () => {
    expect((await sync([])).code).toBe(2);
    const dir = await folder({ 'a.md': 'x' });
    expect((await sync([dir, '--type', 'media'])).err).toMatch(/--type must be pages or posts/);
    expect((await sync([dir, '--data', '{}'])).code).toBe(2);
    expect((await sync([dir, '--password', 'x'])).err).toMatch(/credentials are never taken from arguments/);
    const out: string[] = [];
    const code = await runCli(['docs', 'get', '/wp/v2/posts', '--plan'], {
      stdout: { write: (c: string) => out.push(c) },
      stderr: { write: (c: string) => out.push(c) },
      env: { AV_DOCS_BASE_URL: BASE },
      fetch: mswFetch,
    });
    expect(code).toBe(2);
    expect(out.join('')).toMatch(/--plan is for docs sync/);
  });
});
