/**
 * `syncFolder()` of 200 Markdown pages (10 sections of a parent and 19 children) against the same
 * pages written one by one with plain REST calls (`pages.create`, parents first), on the same site in
 * the same run: HTTP requests and wall time of each, and of a second sync with nothing to change. The
 * two ways take turns (one-by-one, sync, sync, one-by-one) so that a change in what else runs on the
 * machine weighs on both alike. Part of `npm run bench docs-site`.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MarkdownIt from 'markdown-it';
import { DocsSiteClient, syncFolder } from '../src/docs-site.js';
import { fmt, report } from './util.js';

const SECTIONS = 10;
const CHILDREN = 19;
const PAGES = SECTIONS * (1 + CHILDREN);

interface Counted {
  docs: DocsSiteClient;
  /** Requests sent since the last call, by method. */
  take(): { total: number; writes: number };
}

function countingClient(options: ConstructorParameters<typeof DocsSiteClient>[0]): Counted {
  let total = 0;
  let writes = 0;
  const fetchCounted: typeof fetch = (input, init) => {
    total++;
    if ((init?.method ?? 'GET').toUpperCase() !== 'GET') writes++;
    return fetch(input, init);
  };
  return {
    docs: new DocsSiteClient({ ...options, fetch: fetchCounted }),
    take: () => {
      const out = { total, writes };
      total = 0;
      writes = 0;
      return out;
    },
  };
}

function markdown(prefix: string, s: number, c: number): string {
  return `---\ntitle: "Section ${s} page ${c} ${prefix}"\nmenu_order: ${c}\n---\n# Heading ${c}\n\nSome *text* for page ${c} of section ${s}, with a [link](https://example.org/${c}).\n\n| a | b |\n|---|---|\n| ${s} | ${c} |\n`;
}

/** A folder of the 200 pages: `sN/index.md` and `sN/pK.md`, slugs carrying `prefix`. */
async function writeFolder(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-docs-sync-'));
  for (let s = 1; s <= SECTIONS; s++) {
    await mkdir(join(dir, `${prefix}-s${s}`));
    await writeFile(join(dir, `${prefix}-s${s}`, 'index.md'), markdown(prefix, s, 0));
    for (let c = 1; c <= CHILDREN; c++) {
      await writeFile(join(dir, `${prefix}-s${s}`, `${prefix}-s${s}-p${c}.md`), markdown(prefix, s, c));
    }
  }
  return dir;
}

/** The same pages, one `pages.create` each, parents first: the baseline. Returns the ids. */
async function oneByOne(docs: DocsSiteClient, prefix: string): Promise<number[]> {
  const md = new MarkdownIt('commonmark').enable('table');
  const ids: number[] = [];
  for (let s = 1; s <= SECTIONS; s++) {
    const body = (c: number) => {
      const text = markdown(prefix, s, c);
      return {
        title: `Section ${s} page ${c} ${prefix}`,
        content: md.render(text.slice(text.indexOf('\n---\n') + 5)),
        status: 'publish' as const,
        menu_order: c,
      };
    };
    const parent = await docs.pages.create({ ...body(0), slug: `${prefix}-s${s}` });
    ids.push(parent.id);
    for (let c = 1; c <= CHILDREN; c++) {
      ids.push(
        (await docs.pages.create({ ...body(c), slug: `${prefix}-s${s}-p${c}`, parent: parent.id })).id,
      );
    }
  }
  return ids;
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await fn();
  return [performance.now() - start, value];
}

export async function measureSync(options: ConstructorParameters<typeof DocsSiteClient>[0]): Promise<void> {
  const counted = countingClient(options);
  const { docs } = counted;
  const token = `bsync${randomBytes(4).toString('hex')}`;
  const created: number[] = [];
  const dirs: string[] = [];
  try {
    for (let i = 0; i < 3; i++) await docs.pages.list({ per_page: 1 }); // warm-up
    counted.take();
    const plain = { ms: 0, requests: 0 };
    const sync = { ms: 0, requests: 0, writes: 0 };
    const again = { ms: 0, requests: 0, writes: 0 };
    const runPlain = async (round: number) => {
      const [ms, ids] = await timed(() => oneByOne(docs, `${token}r${round}`));
      created.push(...ids);
      plain.ms += ms;
      plain.requests += counted.take().total;
    };
    const runSync = async (round: number) => {
      const dir = await writeFolder(`${token}y${round}`);
      dirs.push(dir);
      const [ms, result] = await timed(() => syncFolder(docs, dir));
      if (result.failed > 0 || result.counts.create !== PAGES) {
        throw new Error(`sync: ${result.failed} failed, ${result.counts.create} created of ${PAGES}`);
      }
      for (const item of result.items) if (item.id !== undefined) created.push(item.id);
      const first = counted.take();
      sync.ms += ms;
      sync.requests += first.total;
      sync.writes += first.writes;
      const [ms2, second] = await timed(() => syncFolder(docs, dir));
      if (second.counts.unchanged !== PAGES) throw new Error('the second sync found changes');
      const counts = counted.take();
      again.ms += ms2;
      again.requests += counts.total;
      again.writes += counts.writes;
    };
    await runPlain(1);
    await runSync(1);
    await runSync(2);
    await runPlain(2);

    console.log(
      `  sync ${PAGES} Markdown pages (${SECTIONS} parents × ${CHILDREN} children; mean of 2 runs each)`,
    );
    report('one request per page (pages.create, parents first)', plain.ms / 2, 'ms');
    report('  HTTP requests', plain.requests / 2);
    report('syncFolder() (first run: everything created)', sync.ms / 2, 'ms');
    report('  HTTP requests (of which writes)', `${sync.requests / 2} (${sync.writes / 2})`);
    report('ratio one by one / syncFolder(), wall time', `${fmt(plain.ms / sync.ms)}×`);
    report('ratio one by one / syncFolder(), requests', `${fmt(plain.requests / sync.requests)}×`);
    report('syncFolder() again, nothing changed', again.ms / 2, 'ms');
    report('  HTTP requests (of which writes)', `${again.requests / 2} (${again.writes / 2})`);
  } finally {
    const results = await docs.batch(created.map((id) => docs.pages.batchDelete(id, { force: true })));
    const failed = results.filter((r) => !r.ok).length;
    if (failed > 0) console.log(`  cleanup: ${failed} of ${created.length} deletes failed`);
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}
