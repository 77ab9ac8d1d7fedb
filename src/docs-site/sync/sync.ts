import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import type { BatchRequest, BatchResult } from '../batch-request.js';
import type { DocsSiteClient } from '../client.js';
import { DocsSiteError, invalidParam } from '../errors.js';
import type { ContentItem, RenderedField } from '../types/resources.js';
import { DocsSyncError, type DocsSyncIssue } from './errors.js';
import { readFolder, type SourceFile } from './folder.js';
import { loadRenderer } from './render.js';
import { readState, type StateEntry, type SyncState, writeState } from './state.js';
import { STATE_FILE, type SyncAction, type SyncItem, type SyncOptions, type SyncReport } from './types.js';

/** A page or post as the sync reads it (`context=edit`). */
type SiteItem = ContentItem & { parent?: number; menu_order?: number };

/** The part of the pages and posts resources the sync uses. */
interface SyncResource {
  iterate(params: Record<string, unknown>): AsyncIterable<SiteItem>;
  batchCreate(body: Desired): BatchRequest;
  batchUpdate(id: number, body: Desired): BatchRequest;
  batchDelete(id: number): BatchRequest;
  parse(value: unknown): SiteItem;
}

/** The fields the sync sets, in the order they are hashed and compared. */
interface Desired {
  slug: string;
  title: string;
  content: string;
  excerpt: string;
  status: string;
  template: string;
  featured_media: number;
  /** Pages only; `undefined` while the parent is still to be created. */
  parent?: number | undefined;
  menu_order?: number | undefined;
}

/** One uploaded (or to-upload) local image, keyed by the SHA-256 of its bytes. */
interface MediaFile {
  path: string;
  /** The media slug that finds it again on the site: derived from the content hash only. */
  slug: string;
  id?: number;
  url?: string;
  error?: DocsSiteError;
}

/** Work item of one Markdown file. */
interface Work {
  source: SourceFile;
  item: SyncItem;
  entry: StateEntry | undefined;
  site: SiteItem | undefined;
  /** Whether the parent is a page outside the folder (its id is then known from the start). */
  externalParentId?: number;
  /** The content the site holds after this run's writes (or held, unchanged). */
  content?: string;
}

/** Everything a sync decided before writing: what {@link apply} carries out. */
interface Plan {
  root: string;
  type: 'pages' | 'posts';
  resource: SyncResource;
  state: SyncState | undefined;
  /** Works in write order: parents before children. */
  works: Work[];
  workOf: Map<string, Work>;
  /** By absolute path of the Markdown file. */
  workOfFile: Map<string, Work>;
  /** Items to move to the trash (`prune`). */
  deletes: SyncItem[];
  mediaOf: Map<string, MediaFile>;
  toUpload: MediaFile[];
  /** Ids the state file named that the site still has. */
  onSite: Set<number>;
}

const CHUNK = 100;
/** The address an image has in a plan until it is uploaded. */
const PENDING = 'about:blank#docs-sync-pending-upload';

/**
 * Sync a folder of Markdown files to the site's pages (or posts): each `*.md` file is one item,
 * created or updated by slug, with its local images uploaded once (matched by content hash) and its
 * links to other Markdown files of the folder made links to their pages. The plan (create / update
 * / unchanged / conflict / delete) is made before anything is written; bad input, a conflict
 * (unless `force`), a state file of another site, and a page to be trashed that would leave pages
 * under it are refused with a {@link DocsSyncError} before any write. Writes go through `/batch/v1`
 * in calls of at most 25, parents before children; a failed item is reported with the site's error
 * while the others sync. A state file in the folder (`.docs-sync.json`) records, per slug, the id,
 * the site's `modified_gmt` and a hash of what was written: commit it with the Markdown. With
 * credentials configured, the sync first asks the site who they are (`credentials_refused` when it
 * does not accept them).
 *
 * The Markdown and YAML libraries are loaded when this is first called, not when the entry point is
 * imported.
 *
 * @example
 * ```ts
 * const docs = await DocsSiteClient.connect({ baseUrl, auth });
 * const plan = await syncFolder(docs, './site-docs', { plan: true });
 * for (const item of plan.items) console.log(item.action, item.slug);
 * const report = await syncFolder(docs, './site-docs', { prune: true });
 * if (report.failed > 0) process.exitCode = 1;
 * ```
 *
 * @group Docs site
 */
export async function syncFolder(
  docs: DocsSiteClient,
  dir: string,
  options: SyncOptions = {},
): Promise<SyncReport> {
  const { plan, report } = await planSync(docs, dir, options);
  if (options.plan) return report;
  const conflicts = report.items.filter((i) => i.action === 'conflict');
  if (conflicts.length > 0 && !options.force) {
    throw new DocsSyncError(
      conflicts.map((c) => ({
        code: 'conflict' as const,
        file: c.file,
        slug: c.slug,
        message: `"${c.slug}" (id ${c.id}) was changed on the site since the last sync (${(c.changes ?? []).join(', ')}); sync with force to overwrite it, or copy the change into the file`,
      })),
    );
  }
  const writes = report.items.some((i) => i.action !== 'unchanged');
  if (writes && options.confirm && !(await options.confirm(report.items))) {
    report.confirmed = false;
    report.media.uploaded = 0;
    return report;
  }
  return apply(docs, plan, report, options);
}

/** Read the folder, the state file and the site, and decide every item's action. Writes nothing. */
async function planSync(
  docs: DocsSiteClient,
  dir: string,
  options: SyncOptions,
): Promise<{ plan: Plan; report: SyncReport }> {
  const where = 'syncFolder';
  const type = options.type ?? 'pages';
  if (type !== 'pages' && type !== 'posts') throw invalidParam('type', 'must be "pages" or "posts"', where);
  if (typeof dir !== 'string' || dir === '') throw invalidParam('dir', 'is required: a folder', where);
  const root = resolve(dir);
  if (!(await stat(root).catch(() => undefined))?.isDirectory()) {
    throw new DocsSyncError([{ code: 'invalid_folder', message: `${dir} is not a folder` }]);
  }
  const resource = docs[type] as unknown as SyncResource;
  const issues: DocsSyncIssue[] = [];
  const sources = await readFolder(root, type, await loadRenderer(), issues);
  checkSlugs(sources, issues);
  const state = await readState(root, docs.baseUrl, type, issues);
  if (issues.length > 0) throw new DocsSyncError(issues);
  // A wrong application password looks anonymous to WordPress: find out who we are first.
  await docs.verifyCredentials().catch((error: unknown) => {
    if (!(error instanceof DocsSiteError && error.code === 'invalid_param')) throw error;
  });

  const bySlug = new Map(sources.map((s) => [s.slug, s]));
  const entries = state?.items ?? {};

  // What the site holds: the items the state file names, and the others (and outside parents) by slug.
  const byId = new Map<number, SiteItem>();
  const read = async (params: Record<string, unknown>) => {
    const found: SiteItem[] = [];
    const query = { ...params, status: ['any'], context: 'edit', per_page: CHUNK };
    for await (const item of resource.iterate(query)) found.push(item);
    for (const item of found) byId.set(item.id, item);
    return found;
  };
  for (const ids of chunks(Object.values(entries).map((e) => e.id))) await read({ include: ids });
  const onSite = new Set(Object.values(entries).flatMap((e) => (byId.has(e.id) ? [e.id] : [])));
  const unresolved = new Set(sources.filter((s) => !byId.has(entries[s.slug]?.id ?? 0)).map((s) => s.slug));
  for (const s of sources) if (s.parentSlug && !bySlug.has(s.parentSlug)) unresolved.add(s.parentSlug);
  for (const slugs of chunks([...unresolved])) await read({ slug: slugs });
  const siteBySlug = new Map<string, SiteItem[]>();
  for (const item of byId.values()) {
    if (item.slug !== undefined) siteBySlug.set(item.slug, [...(siteBySlug.get(item.slug) ?? []), item]);
  }

  const claimed = new Set(onSite);
  const works = sources.map((source) =>
    match(source, { entries, byId, siteBySlug, bySlug, claimed, type, issues }),
  );
  if (issues.length > 0) throw new DocsSyncError(issues);
  const ordered = parentsFirst(works);
  const plan: Plan = {
    root,
    type,
    resource,
    state,
    works: ordered,
    workOf: new Map(ordered.map((w) => [w.source.slug, w])),
    workOfFile: new Map(ordered.map((w) => [join(root, w.source.file), w])),
    deletes: [],
    mediaOf: new Map(),
    toUpload: [],
    onSite,
  };
  const reused = await findMedia(docs, sources, plan);

  const pages = type === 'pages';
  for (const work of ordered) {
    const { item, site, entry } = work;
    if (!site) continue;
    const desired = desiredOf(plan, work);
    const changes = differences(desired, siteFields(site, pages));
    const siteChanged = changedOnSite(site, entry, pages);
    // Equal, or the site keeps what it made of the sync's last write (it may normalise the HTML) and
    // the file has not changed since.
    if (changes.length === 0 || (entry && !siteChanged && hashOf(desired) === entry.hash)) {
      item.action = 'unchanged';
    } else {
      item.action = siteChanged ? 'conflict' : 'update';
      item.changes = changes;
    }
  }

  // Items the sync created earlier whose file is gone.
  const orphans: string[] = [];
  for (const [slug, entry] of Object.entries(entries)) {
    const site = byId.get(entry.id);
    if (bySlug.has(slug) || !entry.created || !site) continue;
    if (!options.prune) {
      orphans.push(slug);
      continue;
    }
    const item: SyncItem = { slug, action: 'delete', id: entry.id, outcome: 'planned' };
    if (typeof site.link === 'string') item.link = site.link;
    if (changedOnSite(site, entry, pages)) {
      item.action = 'conflict';
      item.changes = ['edited on the site since the last sync, and its file is gone'];
    }
    plan.deletes.push(item);
  }
  if (pages && plan.deletes.length > 0) await checkChildren(plan, read, issues);
  if (issues.length > 0) throw new DocsSyncError(issues);

  const items = [...ordered.map((w) => w.item), ...plan.deletes];
  const report: SyncReport = {
    type,
    planned: options.plan === true,
    confirmed: true,
    items,
    counts: countActions(items),
    failed: 0,
    media: { uploaded: plan.toUpload.length, reused, failed: 0 },
    orphans,
    stateFile: join(root, STATE_FILE),
  };
  return { plan, report };
}

/** The site's item for a file (by the state file's id, else adopted by slug) and a parent outside the folder. */
function match(
  source: SourceFile,
  known: {
    entries: Record<string, StateEntry>;
    byId: Map<number, SiteItem>;
    siteBySlug: Map<string, SiteItem[]>;
    bySlug: Map<string, SourceFile>;
    claimed: Set<number>;
    type: 'pages' | 'posts';
    issues: DocsSyncIssue[];
  },
): Work {
  const { siteBySlug, claimed, issues } = known;
  let entry: StateEntry | undefined = known.entries[source.slug];
  let site = entry ? known.byId.get(entry.id) : undefined;
  if (!site) {
    // Not in the state file, or gone from the site: adopt an item with the slug, if one.
    entry = undefined;
    const candidates = (siteBySlug.get(source.slug) ?? []).filter((i) => !claimed.has(i.id));
    if (candidates.length > 1) {
      issues.push({
        code: 'ambiguous_slug',
        file: source.file,
        slug: source.slug,
        message: `the site has ${candidates.length} ${known.type} with the slug "${source.slug}" (ids ${candidates.map((c) => c.id).join(', ')}); trash all but one`,
      });
    }
    site = candidates.length === 1 ? candidates[0] : undefined;
    if (site) claimed.add(site.id);
  }
  const item: SyncItem = { slug: source.slug, file: source.file, action: 'create', outcome: 'planned' };
  if (site) {
    item.id = site.id;
    if (typeof site.link === 'string') item.link = site.link;
  }
  const work: Work = { source, entry, site, item };
  const parent = source.parentSlug;
  if (parent === undefined) return work;
  work.item.parent = parent;
  if (known.bySlug.has(parent)) return work;
  const found = (siteBySlug.get(parent) ?? []).filter((i) => i.status !== 'trash');
  if (found.length === 1) work.externalParentId = found[0]!.id;
  else {
    issues.push({
      code: found.length === 0 ? 'unknown_parent' : 'ambiguous_slug',
      file: source.file,
      slug: source.slug,
      key: 'parent',
      message:
        found.length === 0
          ? `"parent: ${parent}" is neither a file of the folder nor a page on the site`
          : `"parent: ${parent}" matches ${found.length} pages on the site`,
    });
  }
  return work;
}

/** Local images, found on the site by a slug made from their content hash. Returns how many are there. */
async function findMedia(docs: DocsSiteClient, sources: SourceFile[], plan: Plan): Promise<number> {
  const media = new Map<string, MediaFile>();
  for (const path of new Set(sources.flatMap(imagesOf))) {
    const hash = sha256(await readFile(path));
    const file = media.get(hash) ?? { path, slug: `docs-sync-${hash.slice(0, 24)}` };
    media.set(hash, file);
    plan.mediaOf.set(path, file);
  }
  for (const slugs of chunks([...media.values()].map((m) => m.slug))) {
    for await (const found of docs.media.iterate({ slug: slugs, per_page: CHUNK })) {
      const file = [...media.values()].find((m) => m.slug === found.slug);
      if (file && file.id === undefined && found.source_url) {
        file.id = found.id;
        file.url = found.source_url;
      }
    }
  }
  plan.toUpload = [...media.values()].filter((m) => m.id === undefined);
  return media.size - plan.toUpload.length;
}

/** A page to be trashed never keeps pages under it: the folder's own are moved, any other is refused. */
async function checkChildren(
  plan: Plan,
  read: (params: Record<string, unknown>) => Promise<SiteItem[]>,
  issues: DocsSyncIssue[],
): Promise<void> {
  const trashed = new Map(plan.deletes.map((d) => [d.id as number, d.slug]));
  for (const { source, externalParentId } of plan.works) {
    if (externalParentId === undefined || !trashed.has(externalParentId)) continue;
    issues.push({
      code: 'trashed_parent',
      file: source.file,
      slug: source.slug,
      key: 'parent',
      message: `"parent: ${source.parentSlug}" is a page whose file is gone, which prune moves to the trash; restore its file, or change or remove "parent"`,
    });
  }
  const mine = new Set(plan.works.flatMap((w) => (w.site ? [w.site.id] : [])));
  for (const ids of chunks([...trashed.keys()])) {
    for (const child of await read({ parent: ids })) {
      if (mine.has(child.id) || trashed.has(child.id)) continue;
      const slug = trashed.get(child.parent ?? 0);
      issues.push({
        code: 'trash_has_children',
        slug,
        message: `"${slug}" (id ${child.parent}) is to be moved to the trash, but the page "${child.slug}" (id ${child.id}) is under it and not in the folder; move that page to another parent on the site first, or restore the file of "${slug}"`,
      });
    }
  }
}

/** What the file asks the site to hold, with the addresses of images and pages known so far. */
function desiredOf(plan: Plan, work: Work): Desired {
  const { source } = work;
  const featured = source.featuredImage ? plan.mediaOf.get(source.featuredImage) : undefined;
  const desired: Desired = {
    slug: source.slug,
    title: source.title,
    content: source.render(
      (image) => plan.mediaOf.get(image)?.url ?? PENDING,
      (file) => plan.workOfFile.get(file)?.item.link,
    ),
    excerpt: source.excerpt,
    status: source.status,
    template: source.template,
    featured_media: featured ? (featured.id ?? -1) : 0,
  };
  if (plan.type === 'pages') {
    const parent = source.parentSlug === undefined ? undefined : plan.workOf.get(source.parentSlug);
    desired.parent =
      source.parentSlug === undefined ? 0 : (work.externalParentId ?? parent?.item.id ?? parent?.site?.id);
    desired.menu_order = source.menuOrder;
  }
  return desired;
}

/**
 * Changed on the site since the last sync: its modified_gmt moved, or (an edit within the same
 * second) what it holds is not what it held after the sync's write.
 */
function changedOnSite(site: SiteItem, entry: StateEntry | undefined, pages: boolean): boolean {
  return (
    entry !== undefined &&
    (site.modified_gmt !== entry.modified_gmt || hashOf(siteFields(site, pages)) !== entry.site_hash)
  );
}

/** Carry out a plan: uploads, then the items in waves (a page after its parent), links, then the trash. */
async function apply(
  docs: DocsSiteClient,
  plan: Plan,
  report: SyncReport,
  options: SyncOptions,
): Promise<SyncReport> {
  const { works, toUpload, resource } = plan;
  const pages = plan.type === 'pages';
  const next: SyncState = {
    version: 1,
    site: docs.baseUrl,
    type: plan.type,
    items: { ...plan.state?.items },
  };
  const before = JSON.stringify(plan.state ?? null);
  const total = toUpload.length + report.items.filter((i) => i.action !== 'unchanged').length;
  let done = 0;
  const progress = () => options.onProgress?.({ done: ++done, total });
  /** A call of the batch route, its progress counted on from what is done. */
  const batch = async (requests: BatchRequest[]) => {
    const start = done;
    const results = await docs.batch(requests, {
      onProgress: (p) => options.onProgress?.({ done: Math.min(total, start + p.done), total }),
    });
    done = Math.min(total, start + requests.length);
    return results;
  };
  const fail = (item: SyncItem, error?: DocsSiteError) => {
    item.outcome = 'failed';
    item.error =
      error ?? new DocsSiteError('the site answered without the written item', { code: 'invalid_response' });
  };

  let uploaded = 0;
  for (const file of toUpload) {
    try {
      const name = basename(file.path, extname(file.path));
      const answer = await docs.media.upload(file.path, { fields: { slug: file.slug, title: name } });
      file.id = answer.id;
      file.url = answer.source_url;
      uploaded++;
    } catch (error) {
      // The site refused this file: the pages that show it fail, the others sync. Anything else (the
      // site cannot be reached) ends the sync; what was uploaded is found again by its hash.
      if (!(error instanceof DocsSiteError)) throw error;
      file.error = error;
    }
    progress();
  }
  report.media = { uploaded, reused: report.media.reused, failed: toUpload.length - uploaded };

  const remember = (work: Work, site: SiteItem, desired: Desired) => {
    work.content = desired.content;
    next.items[work.source.slug] = {
      id: site.id,
      modified_gmt: site.modified_gmt ?? '',
      hash: hashOf(desired),
      site_hash: hashOf(siteFields(site, pages)),
      created: work.entry?.created ?? work.site === undefined,
    };
  };
  /** Writes `wave` through the batch route; each item is done (and remembered) or failed. */
  const write = async (wave: Work[]) => {
    const bodies = wave.map((w) => desiredOf(plan, w));
    const results = await batch(
      wave.map(({ item }, i) => {
        const body = bodies[i] as Desired;
        return item.id === undefined ? resource.batchCreate(body) : resource.batchUpdate(item.id, body);
      }),
    );
    for (const [i, work] of wave.entries()) {
      const { item } = work;
      const result = results[i] as BatchResult;
      const answer = result.ok ? parseAnswer(resource, result) : undefined;
      if (!answer) {
        fail(item, result.error);
        continue;
      }
      item.id = answer.id;
      if (typeof answer.link === 'string') item.link = answer.link;
      item.outcome = 'done';
      remember(work, answer, bodies[i] as Desired);
    }
    await writeState(plan.root, next);
  };

  let pending: Work[] = [];
  for (const work of works) {
    if (work.item.action === 'unchanged') {
      work.item.outcome = 'done';
      // The site's modified_gmt may have moved on with nothing to write (an edit undone): remember it.
      remember(work, work.site as SiteItem, desiredOf(plan, work));
      continue;
    }
    const broken = imagesOf(work.source)
      .map((p) => plan.mediaOf.get(p)?.error)
      .find((e) => e !== undefined);
    if (broken) {
      fail(work.item, broken);
      progress();
    } else pending.push(work);
  }
  while (pending.length > 0) {
    const wave: Work[] = [];
    const later: Work[] = [];
    for (const work of pending) {
      const parent = work.source.parentSlug;
      const parentWork = parent === undefined ? undefined : plan.workOf.get(parent);
      if (parentWork && (parentWork.item.outcome === 'failed' || parentWork.item.outcome === 'skipped')) {
        work.item.outcome = 'skipped';
        work.item.error = new DocsSiteError(`not written: its parent "${parent}" could not be written`, {
          code: 'batch_not_executed',
        });
        progress();
      } else if (parentWork && parentWork.item.id === undefined) later.push(work);
      else wave.push(work);
    }
    if (wave.length === 0) {
      // Unreachable: the folder was checked for parent cycles; kept so a bug cannot loop forever.
      for (const work of later) work.item.outcome = 'skipped';
      break;
    }
    await write(wave);
    pending = later;
  }
  // Links to pages created (or moved) in this run are known now: the pages that show them again.
  const relinked = works.filter(
    (w) => w.item.outcome === 'done' && w.source.links.length > 0 && desiredOf(plan, w).content !== w.content,
  );
  if (relinked.length > 0) await write(relinked);

  if (plan.deletes.length > 0) {
    const results = await batch(plan.deletes.map((item) => resource.batchDelete(item.id as number)));
    for (const [i, item] of plan.deletes.entries()) {
      const result = results[i] as BatchResult;
      if (!result.ok) fail(item, result.error);
      else {
        item.outcome = 'done';
        delete next.items[item.slug];
      }
    }
  }
  // Entries of items gone from the site, or adopted items whose file is gone, are forgotten.
  for (const [slug, entry] of Object.entries(next.items)) {
    if (!plan.workOf.has(slug) && (!entry.created || !plan.onSite.has(entry.id))) delete next.items[slug];
  }
  if (JSON.stringify(next) !== before) await writeState(plan.root, next);
  report.failed = report.items.filter((i) => i.outcome === 'failed' || i.outcome === 'skipped').length;
  return report;
}

function parseAnswer(resource: SyncResource, result: BatchResult): SiteItem | undefined {
  try {
    return resource.parse(result.body);
  } catch {
    return undefined;
  }
}

function* chunks<T>(values: T[]): Generator<T[]> {
  for (let i = 0; i < values.length; i += CHUNK) yield values.slice(i, i + CHUNK);
}

/** Duplicate slugs and parent cycles: refused before anything is read from the site. */
function checkSlugs(sources: SourceFile[], issues: DocsSyncIssue[]): void {
  const files = new Map<string, string[]>();
  for (const s of sources) files.set(s.slug, [...(files.get(s.slug) ?? []), s.file]);
  for (const [slug, list] of files) {
    if (list.length > 1) {
      issues.push({
        code: 'duplicate_slug',
        file: list[0],
        slug,
        message: `the slug "${slug}" is used by ${list.length} files: ${list.join(', ')}; give each a slug of its own`,
      });
    }
  }
  const bySlug = new Map(sources.map((s) => [s.slug, s]));
  const reported = new Set<string>();
  for (const s of sources) {
    const path: string[] = [];
    for (let at: SourceFile | undefined = s; at; at = at.parentSlug ? bySlug.get(at.parentSlug) : undefined) {
      if (path.includes(at.slug)) {
        const cycle = path.slice(path.indexOf(at.slug));
        const key = [...cycle].sort().join(' ');
        if (!reported.has(key)) {
          reported.add(key);
          issues.push({
            code: 'parent_cycle',
            file: at.file,
            slug: at.slug,
            key: 'parent',
            message: `the parents form a cycle: ${[...cycle, at.slug].join(' → ')}`,
          });
        }
        break;
      }
      path.push(at.slug);
    }
  }
}

/** Parents before children (depth first, files in name order within a level). */
function parentsFirst(works: Work[]): Work[] {
  const bySlug = new Map(works.map((w) => [w.source.slug, w]));
  const depth = (w: Work): number => {
    const parent = w.source.parentSlug === undefined ? undefined : bySlug.get(w.source.parentSlug);
    return parent ? 1 + depth(parent) : 0;
  };
  return [...works].sort((a, b) => depth(a) - depth(b));
}

function rawOf(field: string | RenderedField | undefined): string | undefined {
  return typeof field === 'string' ? field : field?.raw;
}

/** The fields the sync sets, as the site holds them (edit context), in the order of {@link Desired}. */
function siteFields(site: SiteItem, pages: boolean): Desired {
  const fields: Desired = {
    slug: site.slug ?? '',
    title: rawOf(site.title) ?? '',
    content: rawOf(site.content) ?? '',
    excerpt: rawOf(site.excerpt) ?? '',
    status: site.status ?? '',
    template: site.template ?? '',
    featured_media: site.featured_media ?? 0,
  };
  if (pages) {
    fields.parent = site.parent ?? 0;
    fields.menu_order = site.menu_order ?? 0;
  }
  return fields;
}

/** The fields that differ between what the file asks for and what the site holds. */
function differences(desired: Desired, held: Desired): string[] {
  return (Object.keys(desired) as (keyof Desired)[]).filter((key) => desired[key] !== held[key]);
}

function hashOf(desired: Desired): string {
  return sha256(JSON.stringify(desired));
}

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The local images a file shows: in its body, and its featured image. */
function imagesOf(source: SourceFile): string[] {
  return source.featuredImage ? [...source.images, source.featuredImage] : source.images;
}

function countActions(items: SyncItem[]): Record<SyncAction, number> {
  const counts: Record<SyncAction, number> = { create: 0, update: 0, unchanged: 0, conflict: 0, delete: 0 };
  for (const i of items) counts[i.action]++;
  return counts;
}
