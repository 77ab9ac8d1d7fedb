import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { type RunningTestProvider, TestProvider } from '../../src/testing.js';

type Provider = RunningTestProvider;

const SECRET = 'doctor-test-secret-5f2c9a';
const REDIRECT = 'http://127.0.0.1:4999/callback';

function capture(env: Record<string, string | undefined> = {}, fetchImpl?: typeof fetch) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: {
      stdout: { write: (s: string) => out.push(s) },
      stderr: { write: (s: string) => err.push(s) },
      env,
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
    },
    stdout: () => out.join(''),
    stderr: () => err.join(''),
  };
}

/** The checklist line of one check, e.g. `line(out, 'Issuer consistent')`. */
function line(output: string, title: string): string {
  const found = output.split('\n').find((l) => l.slice(2).startsWith(title));
  if (!found) throw new Error(`no line "${title}" in:\n${output}`);
  return found;
}

/** A fetch that sends requests for `from` to `to` (a DNS alias for the provider) and passes the rest. */
function aliasFetch(from: string, to: string): typeof fetch {
  return (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    return fetch(url.startsWith(from) ? to + url.slice(from.length) : url, init);
  };
}

let op: Provider;

beforeAll(async () => {
  op = await TestProvider.start({
    clients: [
      { clientId: 'shop', clientSecret: SECRET, redirectUris: [REDIRECT, 'http://shop.example/callback'] },
    ],
  });
});
afterAll(async () => {
  await op?.close();
});

function args(
  overrides: { issuer?: string; clientId?: string; redirectUri?: string } = {},
  ...rest: string[]
) {
  return [
    'doctor',
    '--issuer',
    overrides.issuer ?? op.issuer,
    '--client-id',
    overrides.clientId ?? 'shop',
    '--redirect-uri',
    overrides.redirectUri ?? REDIRECT,
    ...rest,
  ];
}

describe('affiliation-validation doctor', () => {
  it('passes every check for a good configuration, secret included, and never prints the secret', async () => {
    const c = capture({ AV_CLIENT_SECRET: SECRET });
    const code = await runCli(args(), c.io);
    const out = c.stdout();
    expect(code, out).toBe(0);
    for (const title of [
      'Issuer URL',
      'Redirect URI',
      'Discovery document reachable',
      'Discovery document valid',
      'Issuer consistent',
      'Authorization endpoint',
      'Signing keys fetchable',
      'Signing keys usable',
      'client_id registered',
      'redirect_uri registered',
      'Client credentials',
    ]) {
      expect(line(out, title)).toMatch(/^✓ /);
    }
    expect(out).toContain('No problems found.');
    expect(out + c.stderr()).not.toContain(SECRET);
  });

  it('tolerates a single trailing-slash difference in the issuer and says which form tokens carry', async () => {
    const c = capture();
    const code = await runCli(args({ issuer: `${op.issuer}/` }), c.io);
    expect(code, c.stdout()).toBe(0);
    expect(line(c.stdout(), 'Issuer consistent')).toMatch(/^✓ .*trailing slash/);
    // Without a secret the credential check is skipped, which is not a problem.
    expect(line(c.stdout(), 'Client credentials')).toMatch(/^– .*AV_CLIENT_SECRET/);
  });

  it('accepts a provider that publishes its issuer with the trailing slash', async () => {
    const slashed = await TestProvider.start({
      issuerTrailingSlash: true,
      clients: [{ clientId: 'shop', clientSecret: SECRET, redirectUris: [REDIRECT] }],
    });
    try {
      expect(slashed.issuer.endsWith('/')).toBe(true);
      const c = capture({ AV_CLIENT_SECRET: SECRET });
      const code = await runCli(args({ issuer: slashed.issuer.replace(/\/$/, '') }), c.io);
      expect(code, c.stdout()).toBe(0);
      expect(line(c.stdout(), 'Issuer consistent')).toContain(`must carry "${slashed.issuer}" exactly`);
    } finally {
      await slashed.close();
    }
  });

  it('reports an unknown client_id (the provider sends the user to error-client-id)', async () => {
    const c = capture();
    const code = await runCli(args({ clientId: 'not-registered' }), c.io);
    expect(code).toBe(1);
    expect(line(c.stdout(), 'client_id registered')).toMatch(/^✗ .*error-client-id.*not registered/);
    expect(line(c.stdout(), 'redirect_uri registered')).toMatch(/^– /);
    expect(c.stdout()).toContain('1 problem found.');
  });

  it('reports an unregistered redirect URI (the provider sends the user to error-redirect-uri)', async () => {
    const c = capture();
    const code = await runCli(args({ redirectUri: 'http://127.0.0.1:4999/other' }), c.io);
    expect(code).toBe(1);
    expect(line(c.stdout(), 'client_id registered')).toMatch(/^✓ /);
    expect(line(c.stdout(), 'redirect_uri registered')).toMatch(/^✗ .*error-redirect-uri.*not registered/);
  });

  it('reports a wrong issuer: a host that serves the provider under another name', async () => {
    const alias = 'https://op.wrong.example';
    const c = capture({}, aliasFetch(alias, op.issuer.replace(/\/$/, '')));
    const code = await runCli(args({ issuer: alias }), c.io);
    expect(code).toBe(1);
    expect(line(c.stdout(), 'Discovery document reachable')).toMatch(/^✓ /);
    expect(line(c.stdout(), 'Issuer consistent')).toMatch(
      new RegExp(`^✗ .*issuer "${op.issuer}" does not match the configured issuer "${alias}"`),
    );
  });

  it('reports an issuer with a wrong path (no discovery document there)', async () => {
    const c = capture();
    const code = await runCli(args({ issuer: `${op.issuer.replace(/\/$/, '')}/wrong` }), c.io);
    expect(code).toBe(1);
    expect(line(c.stdout(), 'Discovery document reachable')).toMatch(/^✗ .*HTTP 404/);
    expect(line(c.stdout(), 'Signing keys fetchable')).toMatch(/^– .*needs/);
  });

  it('reports an unreachable issuer without hanging', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    await new Promise((r) => server.close(r));
    const c = capture();
    const code = await runCli(args({ issuer: `http://127.0.0.1:${port}` }), c.io);
    expect(code).toBe(1);
    expect(line(c.stdout(), 'Discovery document reachable')).toMatch(/^✗ .*failed/);
    for (const title of ['Issuer consistent', 'Signing keys usable', 'client_id registered']) {
      expect(line(c.stdout(), title)).toMatch(/^– /);
    }
  });

  it('reports a JWKS that cannot be fetched', async () => {
    const broken: typeof fetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      return url.includes('jwks')
        ? Promise.resolve(new Response('oops', { status: 500 }))
        : fetch(input, init);
    };
    const c = capture({}, broken);
    const code = await runCli(args(), c.io);
    expect(code).toBe(1);
    expect(line(c.stdout(), 'Signing keys fetchable')).toMatch(/^✗ .*HTTP 500/);
  });

  it('reports keys that are unusable: no kid, alg none, broken key material', async () => {
    const jwksUri = JSON.parse(
      await (await fetch(`${op.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`)).text(),
    ).jwks_uri as string;
    const real = (await (await fetch(jwksUri)).json()) as { keys: Record<string, unknown>[] };
    const [first] = real.keys;
    const keys = [
      { ...first, kid: undefined },
      { ...first, kid: 'none-key', alg: 'none' },
      { kty: 'EC', crv: 'P-256', kid: 'broken', alg: 'ES256', x: 'AAAA', y: 'AAAA' },
      { kty: 'RSA', kid: 'short', alg: 'RS256', n: 'AQAB', e: 'AQAB' },
    ];
    const broken: typeof fetch = (input, init) =>
      String(input instanceof Request ? input.url : input) === jwksUri
        ? Promise.resolve(Response.json({ keys }))
        : fetch(input, init);
    const c = capture({}, broken);
    const code = await runCli(args(), c.io);
    expect(code).toBe(1);
    const usable = line(c.stdout(), 'Signing keys usable');
    expect(usable).toMatch(/^✗ /);
    expect(usable).toContain('has no "kid"');
    expect(usable).toContain('declares alg "none"');
    expect(usable).toContain('key "broken" cannot be used');
    expect(usable).toContain('key "short" has a 24-bit RSA modulus');
  });

  it('reports a discovery document without an authorization endpoint, as discover() refuses it', async () => {
    const broken: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      const res = await fetch(input, init);
      if (!url.endsWith('/.well-known/openid-configuration')) return res;
      const doc = (await res.json()) as Record<string, unknown>;
      delete doc.authorization_endpoint;
      doc.id_token_signing_alg_values_supported = ['none'];
      return Response.json(doc);
    };
    const c = capture({}, broken);
    const code = await runCli(args(), c.io);
    expect(code).toBe(1);
    expect(line(c.stdout(), 'Discovery document valid')).toMatch(
      /^✗ .*invalid provider configuration: authorization_endpoint/,
    );
    expect(line(c.stdout(), 'Authorization endpoint')).toMatch(/^– /);
    expect(line(c.stdout(), 'client_id registered')).toMatch(/^– /);
  });

  it('reports a discovery answer that is not JSON', async () => {
    const broken: typeof fetch = async (input, init) =>
      String(input instanceof Request ? input.url : input).endsWith('/openid-configuration')
        ? new Response('<html>maintenance</html>', { status: 200, headers: { 'content-type': 'text/html' } })
        : fetch(input, init);
    const c = capture({}, broken);
    expect(await runCli(args(), c.io)).toBe(1);
    expect(line(c.stdout(), 'Discovery document reachable')).toMatch(/^✗ .*did not answer with JSON/);
  });

  it('reports a client the provider refuses on the redirect (unauthorised_client)', async () => {
    const refusing: typeof fetch = async (input, init) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      if (!url.pathname.endsWith('/authorization')) return fetch(input, init);
      const back = `${url.searchParams.get('redirect_uri')}#error=unauthorised_client&state=${url.searchParams.get('state')}`;
      return new Response(null, { status: 302, headers: { location: back } });
    };
    const c = capture({}, refusing);
    expect(await runCli(args(), c.io)).toBe(1);
    expect(line(c.stdout(), 'client_id registered')).toMatch(/^✗ .*unauthorised_client/);
    expect(line(c.stdout(), 'redirect_uri registered')).toMatch(/^✓ /);
  });

  it('reports a wrong client secret without printing either secret', async () => {
    const wrong = 'wrong-secret-value-123';
    const c = capture({ AV_CLIENT_SECRET: wrong });
    const code = await runCli(args(), c.io);
    expect(code).toBe(1);
    expect(line(c.stdout(), 'Client credentials')).toMatch(/^✗ .*invalid_client/);
    expect(c.stdout() + c.stderr()).not.toContain(wrong);
    expect(c.stdout() + c.stderr()).not.toContain(SECRET);
  });

  it('accepts the secret with client_secret_post too', async () => {
    const c = capture({ AV_CLIENT_SECRET: SECRET });
    const code = await runCli(args({}, '--token-auth-method', 'client_secret_post'), c.io);
    expect(code, c.stdout()).toBe(0);
    expect(line(c.stdout(), 'Client credentials')).toMatch(/^✓ /);
  });

  it('refuses http: on a non-loopback redirect URI as the SDK does, even when it is registered', async () => {
    const c = capture();
    const code = await runCli(args({ redirectUri: 'http://shop.example/callback' }), c.io);
    expect(code).toBe(1);
    expect(line(c.stdout(), 'Redirect URI')).toMatch(/^✗ .*http: on a non-loopback host/);
    // The SDK would refuse to start with it, so no authorization request is built from it.
    expect(line(c.stdout(), 'redirect_uri registered')).toMatch(/^– .*SDK accepts/);
    // The provider itself is still checked.
    expect(line(c.stdout(), 'Signing keys usable')).toMatch(/^✓ /);
  });

  // Regression: the doctor had its own issuer check, which passed issuers that discover() refuses.
  it.each([
    [
      'credentials in the URL',
      (issuer: string) => issuer.replace('http://', 'http://user:pw@'),
      /credentials/,
    ],
    ['a fragment', (issuer: string) => `${issuer}#x`, /fragment/],
  ])(
    'fails an issuer with %s, as AffiliationClient.discover() does, before any request',
    async (_what, make, why) => {
      let requests = 0;
      const counting: typeof fetch = (input, init) => {
        requests++;
        return fetch(input, init);
      };
      const issuer = make(op.issuer.replace(/\/$/, ''));
      await expect(
        (await import('../../src/rp/client.js')).AffiliationClient.discover({
          issuer,
          clientId: 'shop',
          clientSecret: SECRET,
          redirectUri: REDIRECT,
          fetch: counting,
        }),
      ).rejects.toThrow(why);
      const c = capture({}, counting);
      expect(await runCli(args({ issuer }), c.io)).toBe(1);
      expect(line(c.stdout(), 'Issuer URL')).toMatch(new RegExp(`^✗ .*${why.source}`));
      expect(requests).toBe(0);
    },
  );

  it('refuses http: on a non-loopback issuer before any request', async () => {
    let requests = 0;
    const counting: typeof fetch = (input, init) => {
      requests++;
      return fetch(input, init);
    };
    const c = capture({}, counting);
    const code = await runCli(args({ issuer: 'http://op.example.org' }), c.io);
    expect(code).toBe(1);
    expect(line(c.stdout(), 'Issuer URL')).toMatch(/^✗ .*non-loopback/);
    expect(requests).toBe(0);
  });

  it('prints the checklist as JSON with --json', async () => {
    const c = capture();
    const code = await runCli(args({ clientId: 'not-registered' }, '--json'), c.io);
    expect(code).toBe(1);
    const report = JSON.parse(c.stdout()) as { ok: boolean; checks: { id: string; status: string }[] };
    expect(report.ok).toBe(false);
    expect(report.checks.find((x) => x.id === 'client_id_registered')?.status).toBe('fail');
    expect(report.checks.find((x) => x.id === 'discovery_reachable')?.status).toBe('pass');
  });

  it('never takes the secret as an argument, and does not echo it', async () => {
    const c = capture();
    const code = await runCli([...args(), '--client-secret', 'argv-secret-999'], c.io);
    expect(code).toBe(2);
    expect(c.stderr()).toContain('AV_CLIENT_SECRET');
    expect(c.stderr()).not.toContain('argv-secret-999');
    const d = capture();
    expect(await runCli([...args(), '--client-secret=argv-secret-999'], d.io)).toBe(2);
    expect(d.stderr()).not.toContain('argv-secret-999');
  });

  it('rejects missing and bad arguments with exit code 2', async () => {
    const c = capture();
    expect(await runCli(['doctor', '--issuer', op.issuer], c.io)).toBe(2);
    expect(c.stderr()).toContain('missing --client-id, --redirect-uri');
    const d = capture();
    expect(await runCli([...args(), '--timeout-ms', 'soon'], d.io)).toBe(2);
    const e = capture();
    expect(await runCli([...args(), '--bogus'], e.io)).toBe(2);
    const h = capture();
    expect(await runCli(['doctor', '--help'], h.io)).toBe(0);
    expect(h.stdout()).toContain('AV_CLIENT_SECRET');
  });
});
