/**
 * Publish release notes to the documentation site as drafts, in one atomic batch, then list every
 * draft and (with --cleanup) delete what was created.
 *
 *   AV_DOCS_BASE_URL=https://docs.example.org AV_DOCS_USERNAME=editor AV_DOCS_APP_PASSWORD='xxxx xxxx …' \
 *     npx tsx examples/docs-scripting/release-notes.ts [notes.json] [--cleanup]
 *
 * In your own project import from 'affiliation-validation/docs-site'.
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { DocsSiteClient, DocsSiteError } from '../../src/docs-site.js';

export interface Note {
  title: string;
  content: string;
}

const SAMPLE: Note[] = [
  { title: 'Release 1.4: faculty+staff affiliation', content: '<p>Validate staff members too.</p>' },
  {
    title: 'Release 1.4: institution hints',
    content: '<p>Skip the discovery page with <code>idpHint</code>.</p>',
  },
];

/** What the example does, given a connected client; returns the ids it created. */
export async function run(
  docs: DocsSiteClient,
  notes: Note[],
  options: { cleanup?: boolean; log?: (line: string) => void } = {},
): Promise<number[]> {
  const log = options.log ?? console.log;
  const { total } = await docs.posts.list({ per_page: 1 });
  log(`${docs.baseUrl}: ${total} published posts (namespace ${docs.contentNamespace})`);

  // All or nothing: if one note is invalid, none is created.
  const results = await docs.batch(
    notes.map((n) => docs.posts.batchCreate({ title: n.title, content: n.content, status: 'draft' })),
    { validation: 'require-all-validate' },
  );
  const created: number[] = [];
  for (const [i, r] of results.entries()) {
    if (r.error) log(`not created: ${notes[i]?.title}: ${r.error.code} ${r.error.message}`);
    else created.push(docs.posts.parse(r.body).id); // checked against the documented shape
  }
  log(`created ${created.length} of ${notes.length} drafts`);

  // Every draft, later pages fetched four at a time, in order.
  for await (const post of docs.posts.iterate({
    status: ['draft'],
    per_page: 100,
    _fields: ['id', 'title'],
  })) {
    const title = typeof post.title === 'string' ? post.title : post.title?.rendered;
    log(`draft #${post.id}: ${title}`);
  }

  if (options.cleanup && created.length > 0) {
    const removed = await docs.batch(created.map((id) => docs.posts.batchDelete(id, { force: true })));
    log(`deleted ${removed.filter((r) => r.ok).length} drafts`);
  }
  return created;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--'));
  const notes = file ? (JSON.parse(await readFile(file, 'utf8')) as Note[]) : SAMPLE;
  const { AV_DOCS_BASE_URL, AV_DOCS_USERNAME, AV_DOCS_APP_PASSWORD } = process.env;
  if (!AV_DOCS_BASE_URL) throw new Error('set AV_DOCS_BASE_URL (and AV_DOCS_USERNAME, AV_DOCS_APP_PASSWORD)');
  // Reads the index: picks cms/v2 on the service, wp/v2 on a stock WordPress.
  const docs = await DocsSiteClient.connect({
    baseUrl: AV_DOCS_BASE_URL,
    auth:
      AV_DOCS_USERNAME && AV_DOCS_APP_PASSWORD
        ? { username: AV_DOCS_USERNAME, applicationPassword: AV_DOCS_APP_PASSWORD }
        : undefined,
  });
  await run(docs, notes, { cleanup: args.includes('--cleanup') });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof DocsSiteError ? `${error.message} [${error.code}]` : error);
    process.exitCode = 1;
  });
}
