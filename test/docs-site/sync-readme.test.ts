/** The README's "Documentation as code" example runs as written (import and folder mapped), against an emulated site. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useServer } from './helpers.js';
import { FakeSite, md, writeFiles } from './sync-site.js';

// README code passes no fetch: the SDK's default fetch is pointed at the global fetch, which msw intercepts.
vi.mock('../../src/http/dispatcher.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/http/dispatcher.js')>()),
  getDefaultFetch: async () => (input: string | URL | Request, init?: RequestInit) =>
    globalThis.fetch(input, init),
}));

const server = useServer();
const root = resolve(import.meta.dirname, '../..');

async function snippet(folder: string): Promise<string> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('## Documentation as code');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  expect(blocks).toHaveLength(1);
  return (blocks[0] ?? '')
    .replaceAll("'affiliation-validation/docs-site'", JSON.stringify(join(root, 'src', 'docs-site.ts')))
    .replaceAll("'./site-docs'", JSON.stringify(folder));
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('README: Documentation as code', () => {
  it('runs the example', async () => {
    vi.stubEnv('AV_DOCS_APP_PASSWORD', 'abcd efgh ijkl mnop');
    const site = new FakeSite();
    server.use(...site.handlers());
    const folder = await mkdtemp(join(tmpdir(), 'docs-sync-readme-'));
    await writeFiles(folder, { 'guide/index.md': md({ title: 'Guide' }), 'guide/install.md': '# Install\n' });
    const dir = join(root, '.tmp', 'docs-site');
    await mkdir(dir, { recursive: true });
    const file = join(dir, `sync-readme-example-${process.pid}.ts`);
    await writeFile(file, `${await snippet(folder)}\nexport { plan, report, failed };\n`);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const m = (await import(file)) as { report: { counts: unknown }; failed: unknown[] };
      expect(log).toHaveBeenCalledWith({ create: 2, update: 0, unchanged: 0, conflict: 0, delete: 0 });
      expect(m.report.counts).toEqual({ create: 2, update: 0, unchanged: 0, conflict: 0, delete: 0 });
      expect(m.failed).toEqual([]);
      expect(site.bySlug('install')?.parent).toBe(site.bySlug('guide')?.id);
    } finally {
      log.mockRestore();
      await rm(file, { force: true });
      await rm(folder, { recursive: true, force: true });
    }
  });
});
