/** The README's docs-site example runs as written (import mapped to src/), against an emulated site. */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpResponse, http, post, ROOT, useServer } from './helpers.js';

// README code passes no fetch: the SDK's default (undici's own fetch) is pointed at the global fetch,
// which msw intercepts.
vi.mock('../../src/http/dispatcher.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/http/dispatcher.js')>()),
  getDefaultFetch: async () => (input: string | URL | Request, init?: RequestInit) =>
    globalThis.fetch(input, init),
}));

const server = useServer();
const root = resolve(import.meta.dirname, '../..');

async function snippet(): Promise<string> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('## Script the documentation site');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  // The client example, then the abilities namespace reached with request().
  expect(blocks).toHaveLength(2);
  return blocks
    .join('\n')
    .replaceAll("'affiliation-validation/docs-site'", JSON.stringify(join(root, 'src', 'docs-site.ts')));
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('README: Script the documentation site', () => {
  it('runs the example', async () => {
    vi.stubEnv('AV_DOCS_APP_PASSWORD', 'abcd efgh ijkl mnop');
    let batchBody: { validation: string; requests: unknown[] } | undefined;
    let abilityQuery: URLSearchParams | undefined;
    server.use(
      http.get('https://docs.example.org/wp-json/', () =>
        HttpResponse.json({ namespaces: ['cms/v2', 'wp-abilities/v1'], authentication: [] }),
      ),
      http.get(`${ROOT}/wp-abilities/v1/abilities/core/get-site-info/run`, ({ request }) => {
        abilityQuery = new URL(request.url).searchParams;
        return HttpResponse.json({ name: 'Docs' });
      }),
      http.get(`${ROOT}/cms/v2/pages`, () =>
        HttpResponse.json([post(1, { type: 'page' })], {
          headers: { 'X-WP-Total': '1', 'X-WP-TotalPages': '1' },
        }),
      ),
      http.get(`${ROOT}/cms/v2/posts`, () =>
        HttpResponse.json([post(5, { status: 'draft' })], {
          headers: { 'X-WP-Total': '1', 'X-WP-TotalPages': '1' },
        }),
      ),
      http.post(`${ROOT}/batch/v1`, async ({ request }) => {
        batchBody = (await request.json()) as typeof batchBody;
        return HttpResponse.json(
          {
            responses: batchBody!.requests.map((_, i) => ({ body: post(10 + i), status: 201, headers: [] })),
          },
          { status: 207 },
        );
      }),
    );
    const dir = join(root, '.tmp', 'docs-site');
    await mkdir(dir, { recursive: true });
    const file = join(dir, `readme-example-${process.pid}.ts`);
    await writeFile(
      file,
      `${await snippet()}\nexport { results, failed, items, total, totalPages, siteInfo };\n`,
    );
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const m = (await import(file)) as {
        results: unknown[];
        failed: unknown[];
        total: number;
        siteInfo?: { body: unknown };
      };
      expect(m.results).toHaveLength(3);
      expect(m.failed).toEqual([]);
      expect(m.total).toBe(1);
      expect(batchBody?.validation).toBe('require-all-validate');
      expect(log).toHaveBeenCalledWith('invalid_param', 'per_page');
      expect(log).toHaveBeenCalledWith(5);
      expect(m.siteInfo?.body).toEqual({ name: 'Docs' });
      expect(abilityQuery?.getAll('input[fields][]')).toEqual(['name']);
    } finally {
      log.mockRestore();
      await rm(file, { force: true });
    }
  });
});
