import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { DocsSyncIssue } from './errors.js';
import type { Renderer } from './render.js';

/** What a Markdown file asks for, after its front matter was checked. */
export interface SourceFile {
  /** Path relative to the folder, with `/` separators. */
  file: string;
  slug: string;
  /** The parent's slug: from `parent:`, else from the folder structure (pages); `undefined` for none. */
  parentSlug: string | undefined;
  /** Whether `parent:` named the parent (it may then be a page outside the folder). */
  parentFromFrontMatter: boolean;
  title: string;
  status: SyncStatus;
  excerpt: string;
  menuOrder: number;
  template: string;
  /** Absolute path of the featured image, when set. */
  featuredImage: string | undefined;
  /** Absolute paths of the local images the body references. */
  images: string[];
  /** Absolute paths of the Markdown files of the folder the body links to. */
  links: string[];
  /**
   * Renders the body with the images' addresses filled in, and each link to a Markdown file of the
   * folder made the link of its page (its `#anchor` kept), or left as written while `linkOf` does not
   * know it yet.
   */
  render: (urlOf: (image: string) => string, linkOf: (file: string) => string | undefined) => string;
}

/** The statuses a synced item may have (`future` needs a date, which the sync does not set). */
export const SYNC_STATUSES = ['publish', 'draft', 'pending', 'private'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

const KEYS = new Set([
  'title',
  'slug',
  'status',
  'excerpt',
  'parent',
  'menu_order',
  'template',
  'featured_image',
]);
const PAGE_ONLY = new Set(['parent', 'menu_order']);

/**
 * A slug WordPress stores unchanged: lower-case letters, digits and underscores in words joined by
 * single hyphens, at most 200 characters. WordPress rewrites others (sanitize_title), and adds a suffix
 * to slugs that look like a page number (`2`, `page2`) or a feed or embed endpoint, so the sync could
 * never find them again by slug.
 */
const SLUG = /^[a-z0-9_]+(?:-[a-z0-9_]+)*$/;
const RESERVED = new Set(['feed', 'rdf', 'rss', 'rss2', 'atom', 'embed']);

export function slugProblem(slug: string): string | undefined {
  if (!SLUG.test(slug)) {
    return 'lower-case letters, digits and underscores in words joined by single hyphens (WordPress would rewrite any other)';
  }
  if (slug.length > 200) return 'at most 200 characters';
  if (/^(page)?\d+$/.test(slug)) return 'not a number or "page" and a number (WordPress would add a suffix)';
  if (RESERVED.has(slug)) return `not "${slug}", which WordPress reserves for feeds and embeds`;
  return undefined;
}

/**
 * The front matter (YAML between a first line `---` and a line `---` or `...`) as a mapping, and the
 * body after it; or what is wrong with it.
 */
function frontMatter(
  text: string,
  renderer: Renderer,
): { meta: Record<string, unknown>; body: string } | string {
  const lines = text.split('\n');
  if (lines[0]?.trimEnd() !== '---') return { meta: {}, body: text };
  const end = lines.findIndex((line, i) => i > 0 && ['---', '...'].includes(line.trimEnd()));
  if (end === -1) return 'the front matter that starts with "---" has no closing "---" line';
  const parsed = renderer.yaml(lines.slice(1, end).join('\n'));
  if ('error' in parsed) return `the front matter is not valid YAML: ${parsed.error}`;
  const meta = parsed.value ?? {};
  if (typeof meta !== 'object' || Array.isArray(meta))
    return 'the front matter must be a mapping of keys to values';
  return { meta: meta as Record<string, unknown>, body: lines.slice(end + 1).join('\n') };
}

/** All `*.md` files below `dir` (hidden files and folders and `node_modules` left out), sorted. */
async function listMarkdown(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (at: string): Promise<void> => {
    const entries = await readdir(at, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) out.push(path);
    }
  };
  await walk(dir);
  return out.sort();
}

function posix(path: string): string {
  return path.split(sep).join('/');
}

/** An absolute path inside `dir`, or `undefined` when `path` leaves it. */
function inside(dir: string, from: string, path: string): string | undefined {
  const abs = resolve(from, path);
  const rel = relative(dir, abs);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? undefined : abs;
}

/**
 * Read and check every Markdown file of `dir`. Every problem is collected (so one run names them
 * all); the caller refuses the sync when there is any.
 */
export async function readFolder(
  dir: string,
  type: 'pages' | 'posts',
  renderer: Renderer,
  issues: DocsSyncIssue[],
): Promise<SourceFile[]> {
  const files = await listMarkdown(dir);
  const sources: SourceFile[] = [];
  /** Folder (relative, posix) → the file that is its page (`a/index.md` or `a.md`). */
  const folderPage = new Map<string, SourceFile>();
  const pending: { source: SourceFile; folder: string }[] = [];
  for (const abs of files) {
    const file = posix(relative(dir, abs));
    const problem = (code: DocsSyncIssue['code'], message: string, key?: string) =>
      issues.push({ code, file, message, ...(key ? { key } : {}) });
    const text = (await readFile(abs, 'utf8')).replace(/^\uFEFF/, '');
    const front = frontMatter(text, renderer);
    if (typeof front === 'string') {
      problem('invalid_front_matter', front);
      continue;
    }
    const { meta, body } = front;
    // A file with a problem is left out once all of its problems are named.
    const problemsBefore = issues.length;
    for (const key of Object.keys(meta)) {
      if (!KEYS.has(key)) {
        const known = [...KEYS].join(', ');
        problem('unknown_front_matter_key', `unknown front matter key "${key}" (known: ${known})`, key);
      } else if (type === 'posts' && PAGE_ONLY.has(key)) {
        problem('unknown_front_matter_key', `"${key}" is for pages, not posts`, key);
      }
    }
    const stringValue = (key: string): string | undefined => {
      const value = meta[key] ?? undefined;
      if (value === undefined || typeof value === 'string') return value;
      problem('invalid_front_matter', `"${key}" must be a string`, key);
      return undefined;
    };
    const name = abs.slice(dirname(abs).length + 1).replace(/\.md$/i, '');
    const folder = posix(relative(dir, dirname(abs)));
    const isIndex = name.toLowerCase() === 'index' && folder !== '';
    const defaultSlug = isIndex ? (folder.split('/').pop() ?? name) : name;
    const slug = stringValue('slug') ?? defaultSlug;
    const slugBad = slugProblem(slug);
    if (slugBad) {
      problem(
        'invalid_slug',
        meta.slug === undefined
          ? `the slug "${slug}" (from the file name) is refused: it must be ${slugBad}; set "slug:" in the front matter or rename the file`
          : `"slug: ${slug}" is refused: it must be ${slugBad}`,
        'slug',
      );
    }
    const status = stringValue('status') ?? 'publish';
    if (!(SYNC_STATUSES as readonly string[]).includes(status)) {
      problem('invalid_front_matter', `"status" must be one of ${SYNC_STATUSES.join(', ')}`, 'status');
    }
    const menuOrder = meta.menu_order ?? 0;
    if (!Number.isSafeInteger(menuOrder)) {
      problem('invalid_front_matter', '"menu_order" must be a whole number', 'menu_order');
    }
    const parentFromFrontMatter = 'parent' in meta;
    const parentSlug = stringValue('parent');
    if (parentSlug !== undefined && slugProblem(parentSlug)) {
      problem('invalid_slug', `"parent: ${parentSlug}" is not a slug the site can hold`, 'parent');
    }
    const template = stringValue('template') ?? '';
    const excerpt = stringValue('excerpt') ?? '';
    const featured = stringValue('featured_image');
    const featuredImage =
      featured === undefined ? undefined : await localImage(dir, abs, featured, 'featured_image', problem);
    const parsed = renderer.markdown(body);
    const images: string[] = [];
    for (const src of parsed.imageSources.filter(isLocal)) {
      const image = await localImage(dir, abs, src, undefined, problem);
      if (image !== undefined && !images.includes(image)) images.push(image);
    }
    const links: string[] = [];
    for (const href of parsed.linkTargets.filter(isMarkdownLink)) {
      const target = inside(dir, dirname(abs), decodePath(href));
      if (target === undefined || !files.includes(target)) {
        problem(
          'missing_link',
          `the link "${href}" leads ${target === undefined ? 'outside the folder' : `to ${posix(relative(dir, target))}, which is not a Markdown file of the folder`}; only links to its Markdown files become links to their pages`,
        );
      } else if (!links.includes(target)) links.push(target);
    }
    const title = stringValue('title') ?? (parsed.firstHeading || slug);
    if (issues.length > problemsBefore) continue;
    const source: SourceFile = {
      file,
      slug,
      parentSlug,
      parentFromFrontMatter,
      title,
      status: status as SyncStatus,
      excerpt,
      menuOrder: menuOrder as number,
      template,
      featuredImage,
      images,
      links,
      render: (urlOf, linkOf) =>
        parsed.render((src, kind) => {
          if (kind === 'link' && !isMarkdownLink(src)) return undefined;
          const target = isLocal(src) ? inside(dir, dirname(abs), decodePath(src)) : undefined;
          if (target === undefined) return undefined;
          if (kind === 'image') return urlOf(target);
          const link = linkOf(target);
          return link === undefined ? undefined : link + (/#.*$/s.exec(src)?.[0] ?? '');
        }),
    };
    sources.push(source);
    if (isIndex) folderPage.set(folder, source);
    else {
      const own = folder === '' ? name : `${folder}/${name}`;
      // `a.md` stands for the folder `a` unless `a/index.md` exists.
      if (!folderPage.has(own)) folderPage.set(own, source);
    }
    // An index page's parent is looked for from the folder above its own.
    pending.push({ source, folder: isIndex ? parentFolder(folder) : folder });
  }
  if (type === 'pages') {
    // The folder structure gives a parent to a page whose front matter does not name one: the page of
    // the nearest folder above it that has one.
    for (const { source, folder } of pending) {
      if (source.parentFromFrontMatter) continue;
      for (let at = folder; at !== ''; at = parentFolder(at)) {
        const page = folderPage.get(at);
        if (page && page !== source) {
          source.parentSlug = page.slug;
          break;
        }
      }
    }
  }
  return sources;
}

function parentFolder(folder: string): string {
  return folder.split('/').slice(0, -1).join('/');
}

/** A reference to a file of the folder: no scheme, not protocol-relative, not absolute, not a fragment. */
function isLocal(src: string): boolean {
  return src !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(src) && !src.startsWith('/') && !src.startsWith('#');
}

/** A link to a Markdown file of the folder: local, its path (before `?` or `#`) ending in `.md`. */
function isMarkdownLink(href: string): boolean {
  return isLocal(href) && /\.md$/i.test(href.replace(/[?#].*$/s, ''));
}

/** The file path of a Markdown link target: query and fragment dropped, percent-escapes decoded. */
function decodePath(src: string): string {
  const bare = src.replace(/[?#].*$/s, '');
  try {
    return decodeURIComponent(bare);
  } catch {
    return bare;
  }
}

async function localImage(
  dir: string,
  file: string,
  src: string,
  key: string | undefined,
  problem: (code: DocsSyncIssue['code'], message: string, key?: string) => void,
): Promise<string | undefined> {
  const what = key ? `"${key}: ${src}"` : `the image "${src}"`;
  const abs = inside(dir, dirname(file), decodePath(src));
  if (abs === undefined) {
    problem('missing_image', `${what} is outside the folder; only files inside it are uploaded`, key);
    return undefined;
  }
  if (!(await stat(abs).catch(() => undefined))?.isFile()) {
    problem('missing_image', `${what} does not exist (looked for ${posix(relative(dir, abs))})`, key);
    return undefined;
  }
  // A symbolic link is followed: the file it leads to must be inside the folder too.
  const [real, realDir] = await Promise.all([realpath(abs), realpath(dir)]);
  if (inside(realDir, realDir, real) === undefined) {
    problem(
      'missing_image',
      `${what} is a symbolic link to ${real}, outside the folder; only files inside it are uploaded`,
      key,
    );
    return undefined;
  }
  return abs;
}
