/**
 * The README's "Validate a shopper" example, run exactly as written (only its package import is
 * pointed at the source) against the msw OP mock.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { CLIENT_ID, CLIENT_SECRET } from '../helpers/op-mock.js';
import { useOp } from '../helpers/setup.js';

// README code passes no fetch: the SDK's default (undici's own fetch) is pointed at the global fetch,
// which msw intercepts.
vi.mock('../../src/http/dispatcher.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/http/dispatcher.js')>()),
  getDefaultFetch: async () => (input: string | URL | Request, init?: RequestInit) =>
    globalThis.fetch(input, init),
}));

const { op } = useOp();
const root = fileURLToPath(new URL('../../', import.meta.url));

async function readmeExample(): Promise<string> {
  const readme = await readFile(`${root}README.md`, 'utf8');
  const section = readme.split(/^## /m).find((s) => s.startsWith('Validate a shopper'));
  const code = section && /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new Error('README: no ts example in "Validate a shopper"');
  return code;
}

describe('README example', () => {
  it('starts a validation and validates the callback, as written', async () => {
    const code = await readmeExample();
    expect(code).toContain("from 'affiliation-validation'");
    const source = code.replace("'affiliation-validation'", JSON.stringify(`${root}src/index.ts`));
    const dir = `${root}.tmp/rp-core`;
    await mkdir(dir, { recursive: true });
    const file = `${dir}/readme-example-${process.pid}-${Date.now()}.ts`;
    await writeFile(file, source);
    process.env.AV_CLIENT_ID = CLIENT_ID;
    process.env.AV_CLIENT_SECRET = CLIENT_SECRET;
    process.env.AV_TX_SECRET = 'readme-example-test-secret-0123456789abcdef';
    let example: {
      startValidation(request: Request): Promise<Response>;
      callback(request: Request): Promise<Response>;
    };
    try {
      example = await import(pathToFileURL(file).href);
    } finally {
      await rm(file, { force: true });
    }

    // As Chromium and Firefox send the form of a page served with Referrer-Policy: no-referrer.
    const form = (headers: Record<string, string>) =>
      new Request('https://shop.example.com/validate', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null', ...headers },
        body: 'affiliation=student&institution=',
      });
    expect((await example.startValidation(form({ 'sec-fetch-site': 'cross-site' }))).status).toBe(403);
    const start = await example.startValidation(form({ 'sec-fetch-site': 'same-origin' }));
    expect(start.status).toBe(303);
    const location = start.headers.get('location') ?? '';
    expect(location).toMatch(/^https:\/\/op\.example\.org\/Service\/authorization\?response_type=code&/);
    const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

    const back = await example.callback(new Request(await op.authorize(location), { headers: { cookie } }));
    expect(back.status).toBe(200);
    expect(await back.json()).toEqual({ affiliation: 'student', transactionId: expect.any(String) });

    // The browser deleted the transaction cookie with the answer.
    const replay = await example.callback(new Request(await op.authorize(location)));
    expect(replay.status).toBe(400);
    expect(await replay.text()).toMatch(/already used|no longer valid/);
  });
});
