import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningTestProvider, TestProvider } from '../../src/testing.js';
import { authUrl, CLIENT_SECRET, exchange, pkce, resultOf, testClients } from './helpers.js';

let op: RunningTestProvider;

beforeAll(async () => {
  op = await TestProvider.start({ clients: testClients, signingAlg: 'ES256' });
});
afterAll(() => op.close());

describe('bad input never crashes the provider', () => {
  it('refuses a body over 1 MiB with 413 at the server', async () => {
    const response = await fetch(op.endpoints.token, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a'.repeat(1024 * 1024 + 1),
    });
    expect(response.status).toBe(413);
    // And keeps serving.
    expect((await fetch(op.endpoints.discovery)).status).toBe(200);
  });

  it('refuses a form over 64 KiB with 413 at the token endpoint', async () => {
    const response = await fetch(op.endpoints.token, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=authorization_code&code=${'x'.repeat(70_000)}`,
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('reads malformed percent-encoding leniently and still applies the rules', async () => {
    const response = await fetch(authUrl(op, { nonce: '%' }, '%E0%A4%A'), { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(resultOf(response.headers.get('location') as string).params.get('error')).toBe('invalid_scope');
  });

  it('ignores a garbage session cookie and issues a new one', async () => {
    const response = await fetch(authUrl(op), {
      redirect: 'manual',
      headers: { cookie: 'av_test_session=%%%; x' },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('set-cookie')).toMatch(/^av_test_session=[\w-]{43};/);
  });

  it('answers page requests without a transaction with a 400 page', async () => {
    for (const path of ['/Service/select', '/institution/login', '/institution/consent']) {
      const get = await fetch(`${op.baseUrl}${path}?tx=unknown`);
      expect(get.status).toBe(400);
      const post = await fetch(`${op.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'tx=unknown',
      });
      expect(post.status).toBe(400);
      const wrongType = await fetch(`${op.baseUrl}${path}`, { method: 'POST', body: 'tx' });
      expect(wrongType.status).toBe(400);
    }
  });

  it('answers a request with a raw, unusual path without failing', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: op.host, port: op.port, path: '//..%2f%00?%', method: 'GET' },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(404);
  });
});

describe('secrets never appear in error responses', () => {
  it('token endpoint errors do not echo the code, the verifier or the secret', async () => {
    const { verifier, challenge } = pkce();
    const location = await op.authorize(
      authUrl(op, { code_challenge: challenge, code_challenge_method: 'S256' }),
    );
    const code = resultOf(location).params.get('code') as string;
    const bodies = [
      await (await exchange(op, { code, verifier, clientSecret: `${CLIENT_SECRET}x` })).text(),
      await (await exchange(op, { code, verifier: `${verifier}x` })).text(),
      await (await exchange(op, { code, verifier })).text(),
      await (await exchange(op, { code, verifier, grantType: null })).text(),
    ];
    for (const body of bodies) {
      expect(body).toMatch(/"error":"invalid_(client|request|grant)"/);
      for (const secret of [code, verifier, CLIENT_SECRET]) expect(body).not.toContain(secret);
    }
  });
});
