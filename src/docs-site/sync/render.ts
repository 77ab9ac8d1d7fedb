/*
 * Markdown and YAML through maintained libraries (markdown-it, yaml), loaded only when a sync runs:
 * importing `affiliation-validation/docs-site` loads neither.
 */
import type { Token } from 'markdown-it';

/** A Markdown body parsed once and rendered when the addresses of its images and links are known. */
export interface ParsedMarkdown {
  /** Every image source the body references, as written (percent-encoded by the parser). */
  imageSources: string[];
  /** Every link target (`href`) the body has, as written. */
  linkTargets: string[];
  /** The text of the first level-1 heading, or `''`. */
  firstHeading: string;
  /**
   * HTML of the body; `urlOf` gives the address of an image source or a link target, or `undefined`
   * to keep it as written.
   */
  render: (urlOf: (src: string, kind: 'image' | 'link') => string | undefined) => string;
}

export interface Renderer {
  yaml: (text: string) => { value: unknown } | { error: string };
  markdown: (body: string) => ParsedMarkdown;
}

/** Load the libraries and build a renderer: CommonMark (raw HTML allowed, as CommonMark has it) plus tables. */
export async function loadRenderer(): Promise<Renderer> {
  const [{ default: MarkdownIt }, { parseDocument }] = await Promise.all([
    import('markdown-it'),
    import('yaml'),
  ]);
  const md = new MarkdownIt('commonmark').enable('table');
  return {
    yaml: (text) => {
      // logLevel 'silent': the library's warnings would otherwise go to process.emitWarning.
      const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true, logLevel: 'silent' });
      const error = doc.errors[0];
      if (error) return { error: error.message.split('\n')[0] ?? 'not valid YAML' };
      return { value: doc.toJS({ maxAliasCount: 50 }) };
    },
    markdown: (body) => {
      const env = {};
      const tokens = md.parse(body, env);
      const images: Token[] = [];
      const links: Token[] = [];
      let firstHeading = '';
      tokens.forEach((token, i) => {
        if (!firstHeading && token.type === 'heading_open' && token.tag === 'h1') {
          firstHeading = (tokens[i + 1]?.children ?? [])
            .filter((t) => t.type === 'text' || t.type === 'code_inline')
            .map((t) => t.content)
            .join('')
            .trim();
        }
        const walk = (list: Token[] | null) => {
          for (const t of list ?? []) {
            if (t.type === 'image') images.push(t);
            else if (t.type === 'link_open') links.push(t);
            walk(t.children);
          }
        };
        walk(token.children);
      });
      const sources = images.map((t) => String(t.attrGet('src') ?? ''));
      const targets = links.map((t) => String(t.attrGet('href') ?? ''));
      return {
        imageSources: sources,
        linkTargets: targets,
        firstHeading,
        render: (urlOf) => {
          const set = (list: Token[], attr: string, written: string[], kind: 'image' | 'link') =>
            list.forEach((t, i) => {
              const url = urlOf(written[i] ?? '', kind);
              t.attrSet(attr, url === undefined ? (written[i] ?? '') : md.normalizeLink(url));
            });
          set(images, 'src', sources, 'image');
          set(links, 'href', targets, 'link');
          return md.renderer.render(tokens, md.options, env);
        },
      };
    },
  };
}
