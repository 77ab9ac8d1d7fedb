import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { mswFetch } from '../helpers/msw-fetch.js';
import {
  BASE,
  HttpResponse,
  http,
  PASSWORD,
  post,
  ROOT,
  record,
  type Seen,
  USER,
  useServer,
  wpError,
} from './helpers.js';

const server = useServer();
/** Who the credentials are (`users/me`), on either route style: asked before any other request. */
const me = (accepted = true) =>
  http.get(/users(%2F|\/)me/, () =>
    accepted
      ? HttpResponse.json({ id: 1, name: USER })
      : wpError('rest_not_logged_in', 'You are not currently logged in.', 401),
  );
beforeEach(() =>
  server.use(
    me(),
    http.get(`${ROOT}/`, () => HttpResponse.json({ namespaces: ['wp/v2'], authentication: [], routes: {} })),
  ),
);

function io(env: Record<string, string | undefined> = {}, tty = false) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      stdout: { write: (c: string) => out.push(c) },
      stderr: { write: (c: string) => err.push(c), isTTY: tty },
      env: { AV_DOCS_BASE_URL: BASE, AV_DOCS_USERNAME: USER, AV_DOCS_APP_PASSWORD: PASSWORD, ...env },
      fetch: mswFetch,
    },
  };
}

const indexWp = () =>
  http.get(`${ROOT}/`, () => HttpResponse.json({ namespaces: ['wp/v2'], authentication: [], routes: {} }));

async function batchFile(content: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docs-cli-'));
  const file = join(dir, 'batch.json');
  await writeFile(file, JSON.stringify(content));
  return file;
}

describe('docs get|post|put|patch|delete', () => {
  it('gets a path with --query pairs, credentials from the environment, and prints the body', async () => {
    const seen: Seen[] = [];
    server.use(
      http.get(`${ROOT}/wp/v2/posts`, async ({ request }) => {
        await record(request, seen);
        return HttpResponse.json([post(1)], { headers: { 'X-WP-Total': '1', 'X-WP-TotalPages': '1' } });
      }),
    );
    const t = io();
    const code = await runCli(
      ['docs', 'get', '/wp/v2/posts', '--query', 'per_page=5', '-q', 'status[]=draft'],
      t.io,
    );
    expect(code).toBe(0);
    expect(JSON.parse(t.out.join(''))[0].id).toBe(1);
    expect(t.err.join('')).toContain('1 items, 1 pages');
    expect(seen[0]!.url.searchParams.get('per_page')).toBe('5');
    expect(seen[0]!.url.searchParams.getAll('status[]')).toEqual(['draft']);
    expect(seen[0]!.headers.get('authorization')).toMatch(/^Basic /);
  });

  it('posts --data JSON (inline or @file) and prints a --json envelope', async () => {
    const seen: Seen[] = [];
    server.use(
      http.all(`${ROOT}/wp/v2/posts*`, async ({ request }) => {
        await record(request, seen);
        return HttpResponse.json(post(9), { status: request.method === 'POST' ? 201 : 200 });
      }),
    );
    const t = io();
    expect(await runCli(['docs', 'post', '/wp/v2/posts', '--data', '{"title":"Hi"}', '--json'], t.io)).toBe(
      0,
    );
    expect(JSON.parse(t.out.join(''))).toMatchObject({ status: 201, body: { id: 9 } });
    const file = await batchFile({ title: 'From file' });
    expect(await runCli(['docs', 'patch', '/wp/v2/posts/9', '--data', `@${file}`], io().io)).toBe(0);
    expect(await runCli(['docs', 'delete', '/wp/v2/posts/9', '--query', 'force=true'], io().io)).toBe(0);
    expect(seen.map((s) => s.method)).toEqual(['POST', 'PATCH', 'DELETE']);
    expect(seen[1]!.body).toEqual({ title: 'From file' });
    expect(seen[2]!.url.searchParams.get('force')).toBe('true');
  });

  it('exits 1 with the server error code; --json prints it as JSON; the password never shows', async () => {
    server.use(
      http.post(`${ROOT}/wp/v2/posts`, () => wpError('rest_cannot_create', `not allowed ${PASSWORD}`, 401)),
    );
    const t = io();
    expect(await runCli(['docs', 'post', '/wp/v2/posts', '--data', '{}'], t.io)).toBe(1);
    expect(t.err.join('')).toContain('[credentials_refused]');
    const j = io();
    expect(await runCli(['docs', 'post', '/wp/v2/posts', '--data', '{}', '--json'], j.io)).toBe(1);
    expect(JSON.parse(j.out.join(''))).toMatchObject({ error: { code: 'credentials_refused', status: 401 } });
    for (const text of [...t.err, ...j.out, ...j.err]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain('EFGH');
    }
  });

  it.each([
    [['docs', 'get', '/wp/v2/posts', '--password', 'x'], 'never taken from arguments'],
    [['docs', 'get', '/wp/v2/posts', '--app-password=x'], 'never taken from arguments'],
    [['docs', 'get', '/wp/v2/posts', '-p', 'x'], 'never taken from arguments'],
    [
      ['docs', 'get', '/wp/v2/posts', '--base-url', 'https://u:secret@docs.example.org'],
      'must not hold credentials',
    ],
    [['docs', 'get'], 'needs a PATH'],
    [['docs'], 'subcommand is required'],
    [['docs', 'head', '/x'], 'unknown subcommand'],
    [['docs', 'get', '/x', '--data', '{}'], 'not sent with get'],
    [['docs', 'post', '/x', '--data', '{nope'], 'not valid JSON'],
    [['docs', 'get', '/x', '--query', 'novalue'], 'key=value'],
    [['docs', 'get', '/x', '--bogus'], 'bogus'],
    [['docs', 'batch'], 'FILE.json'],
    [['docs', 'batch', '/nonexistent/b.json'], 'cannot read'],
  ])('refuses %j with exit 2', async (argv, message) => {
    const t = io();
    expect(await runCli(argv, t.io)).toBe(2);
    expect(t.err.join('')).toContain(message);
    expect(t.err.join('')).not.toContain('secret');
  });

  it('a wrong --rest-root says what to check, in command-line terms (rest_api_not_found, exit 1)', async () => {
    server.use(
      http.get(
        `${BASE}/api/*`,
        () =>
          new HttpResponse('<!doctype html><p>Not found</p>', {
            status: 404,
            headers: { 'content-type': 'text/html' },
          }),
      ),
    );
    const t = io();
    expect(await runCli(['docs', 'get', '/wp/v2/posts', '--rest-root', 'api'], t.io)).toBe(1);
    const stderr = t.err.join('');
    expect(stderr).toContain('[rest_api_not_found]');
    expect(stderr).toContain(`${BASE}/api/`);
    expect(stderr).toContain('--rest-root');
    expect(stderr).toContain('--route-style query');
    expect(stderr).toContain('--base-url');
    expect(stderr).not.toContain('abcd');
  });

  it('prints its usage with --help, naming the environment variables', async () => {
    const t = io();
    expect(await runCli(['docs', '--help'], t.io)).toBe(0);
    const text = t.out.join('');
    for (const word of [
      'docs batch',
      'AV_DOCS_BASE_URL',
      'AV_DOCS_USERNAME',
      'AV_DOCS_APP_PASSWORD',
      '--route-style',
    ]) {
      expect(text).toContain(word);
    }
  });

  it('needs the base URL and both credentials or neither', async () => {
    const a = io({ AV_DOCS_BASE_URL: undefined });
    expect(await runCli(['docs', 'get', '/x'], a.io)).toBe(2);
    expect(a.err.join('')).toContain('AV_DOCS_BASE_URL');
    const b = io({ AV_DOCS_APP_PASSWORD: undefined });
    expect(await runCli(['docs', 'get', '/x'], b.io)).toBe(2);
    expect(b.err.join('')).toContain('AV_DOCS_APP_PASSWORD');
  });

  it('reaches a site without pretty permalinks with --route-style query', async () => {
    let route: string | null = null;
    server.use(
      http.get(`${BASE}/`, ({ request }) => {
        const asked = new URL(request.url).searchParams.get('rest_route');
        if (asked === '/') return HttpResponse.json({ namespaces: ['wp/v2'], routes: {} });
        if (asked === '/wp/v2/users/me') return HttpResponse.json({ id: 1 });
        route = asked;
        return HttpResponse.json([]);
      }),
    );
    expect(await runCli(['docs', 'get', '/wp/v2/pages', '--route-style', 'query'], io().io)).toBe(0);
    expect(route).toBe('/wp/v2/pages');
    expect(await runCli(['docs', 'get', '/wp/v2/pages', '--route-style', 'hash'], io().io)).toBe(2);
  });

  it('works anonymously with --base-url', async () => {
    let auth: string | null = 'unset';
    server.use(
      http.get('https://other.example/wp-json/wp/v2/pages', ({ request }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json([]);
      }),
    );
    const t = io({ AV_DOCS_USERNAME: undefined, AV_DOCS_APP_PASSWORD: undefined });
    expect(await runCli(['docs', 'get', '/wp/v2/pages', '--base-url', 'https://other.example'], t.io)).toBe(
      0,
    );
    expect(auth).toBeNull();
  });
});

describe('docs batch', () => {
  function batchSite() {
    const calls: { validation: string; requests: unknown[] }[] = [];
    server.use(
      indexWp(),
      http.post(`${ROOT}/batch/v1`, async ({ request }) => {
        const body = (await request.json()) as { validation: string; requests: { path: string }[] };
        calls.push(body);
        return HttpResponse.json(
          {
            responses: body.requests.map((r, i) =>
              r.path.endsWith('/999')
                ? {
                    body: {
                      code: 'rest_post_invalid_id',
                      message: 'Invalid post ID.',
                      data: { status: 404 },
                    },
                    status: 404,
                    headers: [],
                  }
                : { body: post(i + 1), status: 201, headers: [] },
            ),
          },
          { status: 207 },
        );
      }),
    );
    return calls;
  }

  it('runs a file of 30 requests in two calls with plain progress lines, exit 0', async () => {
    const calls = batchSite();
    const file = await batchFile(
      Array.from({ length: 30 }, (_, i) => ({ path: '/wp/v2/posts', body: { title: `t${i}` } })),
    );
    const t = io();
    expect(await runCli(['docs', 'batch', file], t.io)).toBe(0);
    expect(calls.map((c) => c.requests.length)).toEqual([25, 5]);
    expect(t.err.join('')).toContain('batch: 25/30 done\n');
    expect(t.err.join('')).toContain('30 ok, 0 failed');
    expect(t.out.join('').trim().split('\n')).toHaveLength(30);
  });

  it('draws a progress bar on a TTY and prints --json results; a failed item exits 1', async () => {
    batchSite();
    const file = await batchFile({
      validation: 'normal',
      requests: [
        { path: '/wp/v2/posts', body: { title: 'a' } },
        { method: 'PUT', path: '/wp/v2/posts/999', body: { title: 'b' } },
      ],
    });
    const t = io({}, true);
    expect(await runCli(['docs', 'batch', file, '--json'], t.io)).toBe(1);
    expect(t.err.join('')).toMatch(/\r\[#+\] 2\/2/);
    const out = JSON.parse(t.out.join(''));
    expect(out[0]).toMatchObject({ index: 0, ok: true, status: 201 });
    expect(out[1]).toMatchObject({
      index: 1,
      ok: false,
      status: 404,
      error: { code: 'rest_post_invalid_id' },
    });
  });

  it('refuses a require-all-validate file over 25 and a media request (exit 1, nothing sent)', async () => {
    const calls = batchSite();
    const big = await batchFile(Array.from({ length: 26 }, () => ({ path: '/wp/v2/posts', body: {} })));
    const t = io();
    expect(await runCli(['docs', 'batch', big, '--validation', 'require-all-validate'], t.io)).toBe(1);
    expect(t.err.join('')).toContain('[invalid_batch]');
    const media = await batchFile([{ path: '/wp/v2/media', body: {} }]);
    expect(await runCli(['docs', 'batch', media], io().io)).toBe(1);
    expect(calls).toHaveLength(0);
  });

  it('--concurrency N keeps up to N calls in flight; a bad value is a usage error (exit 2, nothing sent)', async () => {
    const calls = batchSite();
    const file = await batchFile(
      Array.from({ length: 60 }, (_, i) => ({ path: '/wp/v2/posts', body: { title: `t${i}` } })),
    );
    const t = io();
    expect(await runCli(['docs', 'batch', file, '--concurrency', '3', '--json'], t.io)).toBe(0);
    expect(calls.map((c) => c.requests.length).sort()).toEqual([10, 25, 25]);
    expect(JSON.parse(t.out.join('')).map((r: { index: number }) => r.index)).toEqual(
      Array.from({ length: 60 }, (_, i) => i),
    );
    calls.length = 0;
    for (const bad of ['0', '9', '1.5', 'two', '-1', '']) {
      const b = io();
      expect(await runCli(['docs', 'batch', file, `--concurrency=${bad}`], b.io)).toBe(2);
      expect(b.err.join('')).toContain('--concurrency must be');
    }
    const g = io();
    expect(await runCli(['docs', 'get', '/wp/v2/posts', '--concurrency', '2'], g.io)).toBe(2);
    expect(calls).toHaveLength(0);
  });

  it('refuses a bad --validation value and a file that is not a request list', async () => {
    const file = await batchFile({ nope: true });
    const t = io();
    expect(await runCli(['docs', 'batch', file], t.io)).toBe(2);
    const good = await batchFile([{ path: '/wp/v2/posts', body: {} }]);
    const v = io();
    expect(await runCli(['docs', 'batch', good, '--validation', 'strict'], v.io)).toBe(2);
    expect(v.err.join('')).toContain('--validation must be');
  });
});
