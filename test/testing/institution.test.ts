import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OptionsError,
  type RunningTestProvider,
  TestCookieJar,
  TestProvider,
  TestProviderWalkError,
} from '../../src/testing.js';
import {
  authUrl,
  codeFlow,
  NON_EDUGAIN,
  POLYTECHNIC,
  REDIRECT_URI,
  resultOf,
  testClients,
  UNIVERSITY,
} from './helpers.js';

let op: RunningTestProvider;

beforeAll(async () => {
  op = await TestProvider.start({ clients: testClients, signingAlg: 'ES256' });
});
afterAll(() => op.close());

function expectDenied(location: string, description?: string): void {
  const { where, params, base } = resultOf(location);
  expect(base).toBe(REDIRECT_URI);
  expect(where).toBe('fragment');
  expect(params.get('error')).toBe('access_denied');
  if (description !== undefined) expect(params.get('error_description')).toBe(description);
  expect(params.get('state')).toBe('state-1');
}

function expectCode(location: string): void {
  const { where, params, base } = resultOf(location);
  expect(base).toBe(REDIRECT_URI);
  expect(where).toBe('query');
  expect(params.get('code')).toMatch(/^[\w-]{40,}$/);
  expect(params.get('state')).toBe('state-1');
}

describe('institution step (spec 3, 5.7)', () => {
  it('walks selection → login → consent with plain GET and POST, and redirects with a code (spec 4.2)', async () => {
    const steps: string[] = [];
    const location = await op.authorize(authUrl(op), {
      onStep: (s) => steps.push(`${s.method} ${new URL(s.url).pathname} ${s.status}`),
    });
    expectCode(location);
    expect(steps).toEqual([
      'GET /Service/authorization 302',
      'GET /Service/select 200',
      'POST /Service/select 303',
      'GET /institution/login 200',
      'POST /institution/login 303',
      'GET /institution/consent 200',
      'POST /institution/consent 303',
    ]);
  });

  it('skips the selection page with a valid aarc_idp_hint', async () => {
    const paths: string[] = [];
    const location = await op.authorize(authUrl(op, { aarc_idp_hint: UNIVERSITY }), {
      onStep: (s) => paths.push(new URL(s.url).pathname),
    });
    expectCode(location);
    expect(paths).not.toContain('/Service/select');
  });

  it('serves HTML pages that list the institutions and name the one logging in', async () => {
    const jar = new TestCookieJar();
    const first = await fetch(authUrl(op), { redirect: 'manual' });
    jar.store(first);
    expect(jar.get('av_test_session')).toBeDefined();
    const page = await fetch(first.headers.get('location') as string, {
      headers: { cookie: jar.header() ?? '' },
    });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('Example University');
    expect(html).toContain(`value="${UNIVERSITY}"`);
  });

  it('picks the institution given to authorize()', async () => {
    op.scriptLogin({ userId: 'pick' });
    const location = await op.authorize(authUrl(op, { scope: 'openid student persistent' }), {
      institution: POLYTECHNIC,
    });
    expectCode(location);
  });

  it('ends at the error-site page for an invalid client_id, as a browser would', async () => {
    expect(await op.authorize(authUrl(op, { client_id: 'nobody' }))).toBe(op.endpoints.errorClientId);
    expect(await op.authorize(authUrl(op, { redirect_uri: 'https://x.example/' }))).toBe(
      op.endpoints.errorRedirectUri,
    );
  });

  it('gives up after maxSteps requests, and reaches the redirect URI when it is the last one', async () => {
    const steps: number[] = [];
    const location = await op.authorize(authUrl(op), { onStep: (s) => steps.push(s.status) });
    expectCode(location);
    await expect(op.authorize(authUrl(op), { maxSteps: steps.length })).resolves.toMatch(/[?&]code=/);
    const error = await op.authorize(authUrl(op), { maxSteps: steps.length - 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TestProviderWalkError);
    expect((error as Error).message).toMatch(/^Gave up after/);
  });

  it('refuses to start from a URL that is not the authorization endpoint', async () => {
    await expect(op.authorize('https://elsewhere.example/authorize')).rejects.toBeInstanceOf(
      TestProviderWalkError,
    );
  });

  it('refuses pages of a transaction that has ended', async () => {
    const jar = new TestCookieJar();
    let loginUrl = '';
    await op.authorize(authUrl(op, { aarc_idp_hint: UNIVERSITY }), {
      cookieJar: jar,
      onStep: (s) => {
        if (s.url.includes('/institution/login') && s.method === 'GET') loginUrl = s.url;
      },
    });
    const again = await fetch(loginUrl, { headers: { cookie: jar.header() ?? '' } });
    expect(again.status).toBe(400);
  });
});

describe('typing into the forms (AuthorizeOptions.fields)', () => {
  it('the username typed on the login page is the user when nothing is scripted', async () => {
    op.clearScriptedLogins();
    const subjectOf = async (username: string) => {
      const { claims } = await codeFlow(op, { scope: 'openid student persistent' }, { fields: { username } });
      return claims.sub;
    };
    const ann = await subjectOf('ann');
    expect(await subjectOf('ann')).toBe(ann);
    expect(await subjectOf('ben')).not.toBe(ann);
  });

  it('a scripted outcome wins over the typed username', async () => {
    op.scriptLogin({ userId: 'scripted' }, { userId: 'scripted' });
    const a = await codeFlow(op, { scope: 'openid student persistent' }, { fields: { username: 'typed-1' } });
    const b = await codeFlow(op, { scope: 'openid student persistent' }, { fields: { username: 'typed-2' } });
    expect(a.claims.sub).toBe(b.claims.sub);
  });

  it('answering no on the consent page refuses consent', async () => {
    expectDenied(await op.authorize(authUrl(op), { fields: { consent: 'no' } }), 'User Consent Denied');
    op.scriptLogin({ consent: false });
    expectCode(await op.authorize(authUrl(op), { fields: { consent: 'yes' } }));
  });
});

describe('failures end in access_denied to redirect_uri with the state (spec 3, 7.1)', () => {
  it('unknown institution chosen on the selection page', async () => {
    expectDenied(
      await op.authorize(authUrl(op), { institution: 'https://idp.unknown.example/' }),
      'entity_id error',
    );
  });

  it('non-eduGAIN institution, chosen or hinted', async () => {
    expectDenied(await op.authorize(authUrl(op), { institution: NON_EDUGAIN }), 'entity_id error');
    expectDenied(await op.authorize(authUrl(op, { aarc_idp_hint: NON_EDUGAIN })), 'entity_id error');
  });

  it('user not authenticated at the institution', async () => {
    op.scriptLogin({ authenticated: false });
    expectDenied(await op.authorize(authUrl(op)), 'authentication failed');
  });

  it('the institution confirms no affiliation at all', async () => {
    op.scriptLogin({ affiliations: [] });
    expectDenied(await op.authorize(authUrl(op)), 'no affiliation available for this user');
  });

  it('institution releases insufficient information', async () => {
    op.scriptLogin({ releasesInformation: false });
    expectDenied(await op.authorize(authUrl(op)), 'no affiliation available for this user');
  });

  it('consent refused (the consent page preselects the scripted answer)', async () => {
    op.scriptLogin({ consent: false });
    expectDenied(await op.authorize(authUrl(op)), 'User Consent Denied');
  });

  it('user does not hold the requested affiliation', async () => {
    op.scriptLogin({ affiliations: ['student'] });
    expectDenied(
      await op.authorize(authUrl(op, { scope: 'openid employee' })),
      'affiliation does not match requested validation',
    );
  });

  it('omits state when none was sent', async () => {
    op.scriptLogin({ consent: false });
    const { params } = resultOf(await op.authorize(authUrl(op, { state: undefined })));
    expect(params.get('error')).toBe('access_denied');
    expect(params.has('state')).toBe(false);
  });

  it('can put access_denied in the query (errorLocations.accessDenied)', async () => {
    const other = await TestProvider.start({
      signingAlg: 'ES256',
      clients: testClients,
      errorLocations: { accessDenied: 'query' },
    });
    try {
      other.scriptLogin({ consent: false });
      expect(resultOf(await other.authorize(authUrl(other))).where).toBe('query');
    } finally {
      await other.close();
    }
  });
});

describe('affiliation matching (spec 2.2)', () => {
  it.each([
    ['student', ['student'], true],
    ['student', ['member'], false],
    ['faculty+staff', ['faculty'], true],
    ['faculty+staff', ['staff'], true],
    ['faculty+staff', ['student', 'employee'], false],
    ['employee', ['employee'], true],
    ['employee', ['staff'], false],
    ['member', ['student'], true],
    ['member', ['faculty'], true],
    ['member', ['staff'], true],
    ['member', ['employee'], true],
    ['member', ['member'], true],
    ['member', ['affiliate', 'alum'], false],
  ] as const)('%s is %s confirmed for a user holding %j', async (affiliation, held, confirmed) => {
    op.scriptLogin({ affiliations: [...held] });
    const location = await op.authorize(authUrl(op, { scope: `openid ${affiliation}` }));
    if (confirmed) expectCode(location);
    else expectDenied(location, 'affiliation does not match requested validation');
  });

  it('uses the default outcome (student, member) when nothing is scripted', async () => {
    op.clearScriptedLogins();
    expectCode(await op.authorize(authUrl(op, { scope: 'openid member' })));
    expectDenied(await op.authorize(authUrl(op, { scope: 'openid faculty+staff' })));
  });

  it('consumes scripted outcomes one login at a time, in order', async () => {
    op.scriptLogin({ consent: false }, { affiliations: ['employee'] });
    expectDenied(await op.authorize(authUrl(op, { scope: 'openid employee' })));
    expectCode(await op.authorize(authUrl(op, { scope: 'openid employee' })));
    expectDenied(await op.authorize(authUrl(op, { scope: 'openid employee' })));
  });

  it('validates scripted outcomes up front', () => {
    expect(() => op.scriptLogin({ affiliations: ['professor' as 'student'] })).toThrow(OptionsError);
    expect(() => op.scriptLogin({ consent: 'no' as unknown as boolean })).toThrow(/consent/);
  });

  it('runs a full code flow for a user holding faculty only', async () => {
    op.scriptLogin({ affiliations: ['faculty'] });
    const { claims } = await codeFlow(op, { scope: 'openid faculty+staff' });
    expect((claims.returned_scopes as { values: string[] }).values).toContain('faculty+staff');
  });
});

describe('pages never reflect markup', () => {
  it('escapes institution names and client ids in the HTML', async () => {
    const evil = '<script>alert(1)</script>';
    op.registerInstitution({ entityId: 'https://evil.example/"><img src=x>', name: evil });
    op.registerClient({ clientId: '<b>shop</b>', clientSecret: 'x-secret', redirectUris: [REDIRECT_URI] });
    const pages: string[] = [];
    const location = await op.authorize(authUrl(op, { client_id: '<b>shop</b>' }), {
      institution: 'https://evil.example/"><img src=x>',
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (response.status === 200) pages.push(await response.clone().text());
        return response;
      },
    });
    expect(resultOf(location).params.get('code')).toBeTruthy();
    expect(pages).toHaveLength(3);
    for (const html of pages) {
      expect(html).not.toContain('<script>');
      expect(html).not.toContain('<img');
      expect(html).not.toContain('<b>shop');
    }
    expect(pages[0]).toContain('&lt;script&gt;');
  });
});
