/**
 * `response_mode=form_post` (issue 22): the test provider ignores it, as spec 2.1 ignores every
 * parameter it does not list, and answers the way `response_type` dictates — the fragment for
 * `id_token`, the query for `code`. A relying party configured for form_post (mod_auth_openidc) then
 * gets no POST; the README's table says so. The behaviour is kept: it is what spec 2.1 describes.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningTestProvider, TestProvider } from '../../src/testing.js';
import { authUrl, REDIRECT_URI, resultOf, testClients } from './helpers.js';

let op: RunningTestProvider;
beforeAll(async () => {
  op = await TestProvider.start({ clients: testClients, signingAlg: 'ES256' });
});
afterAll(() => op.close());

describe('response_mode=form_post is ignored', () => {
  it('id_token: the answer is a redirect with the ID token in the fragment, not a form POST', async () => {
    const location = await op.authorize(
      `${authUrl(op, { response_type: 'id_token' })}&response_mode=form_post`,
    );
    const { where, params, base } = resultOf(location);
    expect(base).toBe(REDIRECT_URI);
    expect(where).toBe('fragment');
    expect(params.get('id_token')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(params.get('state')).toBe('state-1');
  });

  it('code: the code comes in the query, as without it', async () => {
    const location = await op.authorize(`${authUrl(op, { response_type: 'code' })}&response_mode=form_post`);
    const { where, params } = resultOf(location);
    expect(where).toBe('query');
    expect(params.get('code')).toBeTruthy();
  });

  it('discovery does not offer form_post', async () => {
    const discovery = (await (await fetch(op.endpoints.discovery)).json()) as Record<string, unknown>;
    expect(discovery.response_modes_supported).toEqual(['query', 'fragment']);
  });

  it("the README's table of what the provider does says so", async () => {
    const readme = await readFile(resolve(import.meta.dirname, '../../README.md'), 'utf8');
    const row = readme.split('\n').find((line) => line.startsWith('| `response_mode=form_post`'));
    expect(row).toMatch(/ignored \(spec 2\.1.*\).*`#id_token=…`.*fragment/);
  });
});
