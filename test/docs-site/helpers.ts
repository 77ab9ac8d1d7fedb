import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { DocsSiteClient, type DocsSiteOptions } from '../../src/docs-site.js';
import { mswFetch } from '../helpers/msw-fetch.js';

export const BASE = 'https://docs.example.org';
export const ROOT = `${BASE}/wp-json`;
export const USER = 'editor';
export const PASSWORD = 'abcd EFGH 1234 ijkl MNOP 5678';

/** One msw server per test file, refusing any request no handler expects. */
export function useServer() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** Options of the test clients: the emulated site, an editor's application password, no retries. */
export function options(overrides: Partial<DocsSiteOptions> = {}): DocsSiteOptions {
  return {
    baseUrl: BASE,
    auth: { username: USER, applicationPassword: PASSWORD },
    retries: 0,
    fetch: mswFetch,
    ...overrides,
  };
}

/** A client built without a request (`new`), content namespace cms/v2 unless overridden. */
export function client(overrides: Partial<DocsSiteOptions> = {}): DocsSiteClient {
  return new DocsSiteClient(options(overrides));
}

/** A client made by the static factory: reads the index first. */
export function connect(overrides: Partial<DocsSiteOptions> = {}): Promise<DocsSiteClient> {
  return DocsSiteClient.connect(options(overrides));
}

export function wpError(code: string, message: string, status: number, data: Record<string, unknown> = {}) {
  return HttpResponse.json({ code, message, data: { status, ...data } }, { status });
}

export function post(id: number, extra: Record<string, unknown> = {}) {
  return {
    id,
    date: '2024-05-01T10:00:00',
    slug: `post-${id}`,
    status: 'publish',
    type: 'post',
    title: { rendered: `Post ${id}` },
    content: { rendered: '<p>x</p>', protected: false },
    meta: [],
    _links: {},
    ...extra,
  };
}

/** A recorded request: method, URL and parsed JSON body. */
export interface Seen {
  method: string;
  url: URL;
  body: unknown;
  headers: Headers;
}

export async function record(request: Request, into: Seen[]): Promise<void> {
  const text = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.clone().text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {}
  into.push({ method: request.method, url: new URL(request.url), body, headers: request.headers });
}

export { HttpResponse, http };
