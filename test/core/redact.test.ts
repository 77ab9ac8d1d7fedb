import { describe, expect, it } from 'vitest';
import { REDACTED, redact, redactUrl, redactValue } from '../../src/core/redact.js';

const JWT =
  'eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJzdWIiOiIxMjM0NTY3ODkwIiwibm9uY2UiOiJuLTBTNl9XekEyTWoifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
const JWE =
  'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..aXYtaXYtaXYtaXY.Y2lwaGVydGV4dC1zZWFsZWQtdHJhbnNhY3Rpb24.dGFnLXRhZy10YWc';
const APP_PASSWORD = 'abcd EFGH ijkl MNOP qrst UVWX';
const CLIENT_SECRET = 'shh-client-secret-42';

/** [what, text, secrets that must not survive, configured secrets] */
const CASES: Array<[string, string, string[], string[]]> = [
  [
    'client_secret in a form body',
    'client_id=app&client_secret=s3cr3tValue&grant_type=x',
    ['s3cr3tValue'],
    [],
  ],
  [
    'authorization code in a query',
    'https://shop.example/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=af0ifjsldkj',
    ['SplxlOBeZQQYbYS6WxSbIA', 'af0ifjsldkj'],
    [],
  ],
  [
    'code in a fragment',
    'https://shop.example/cb#state=st4te0000&code=c0de0000value',
    ['c0de0000value', 'st4te0000'],
    [],
  ],
  [
    'code_verifier in a form body',
    'grant_type=authorization_code&code_verifier=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    ['dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'],
    [],
  ],
  [
    'tokens as JSON',
    '{"access_token":"SlAV32hkKG","refresh_token": "8xLOxBtZp8","token_type":"Bearer"}',
    ['SlAV32hkKG', '8xLOxBtZp8'],
    [],
  ],
  ['id_token as JSON', `{"id_token":"${JWT}"}`, [JWT, 'c2lnbmF0dXJlLXNpZ25hdHVyZQ'], []],
  [
    'client_secret as util.inspect shows it',
    "{ client_id: 'app', client_secret: 'inspectSecret1' }",
    ['inspectSecret1'],
    [],
  ],
  ['Authorization header, Basic', 'authorization: Basic dXNlcjpwYXNzd29yZA==', ['dXNlcjpwYXNzd29yZA=='], []],
  [
    'Authorization header, Bearer, JSON',
    '{"Authorization":"Bearer opaque-token-1234567"}',
    ['opaque-token-1234567'],
    [],
  ],
  ['Authorization header without a scheme', 'authorization=rawtokenvalue123', ['rawtokenvalue123'], []],
  ['a bare Basic credential', 'sent Basic YWRtaW46YWJjZCBlZmdo to the server', ['YWRtaW46YWJjZCBlZmdo'], []],
  [
    'a bare DPoP credential',
    'DPoP Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU',
    ['Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU'],
    [],
  ],
  ['URL userinfo', 'GET https://admin:hunter2pass@docs.example.org/wp-json/', ['hunter2pass', 'admin:'], []],
  [
    'a JWT in free text',
    `token was ${JWT} and then`,
    [JWT, 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibm9uY2UiOiJuLTBTNl9XekEyTWoifQ'],
    [],
  ],
  [
    'a JWE (sealed cookie) in free text',
    `cookie tx=${JWE}; Path=/`,
    ['Y2lwaGVydGV4dC1zZWFsZWQtdHJhbnNhY3Rpb24', 'dGFnLXRhZy10YWc'],
    [],
  ],
  ['nonce and state', 'nonce=n-0S6_WzA2Mj&state=xyzABC123', ['n-0S6_WzA2Mj', 'xyzABC123'], []],
  ['an exact client secret', `invalid_client for ${CLIENT_SECRET}`, [CLIENT_SECRET], [CLIENT_SECRET]],
  [
    'an application password with spaces',
    `login with ${APP_PASSWORD} failed`,
    [APP_PASSWORD],
    [APP_PASSWORD],
  ],
  [
    'an application password without spaces',
    'password abcdEFGHijklMNOPqrstUVWX was refused',
    ['abcdEFGHijklMNOPqrstUVWX'],
    [APP_PASSWORD],
  ],
  ['an application password form-encoded', 'pw=abcd+EFGH+ijkl+MNOP+qrst+UVWX', ['abcd+EFGH'], [APP_PASSWORD]],
  ['a secret URL-encoded', 'x=a%2Fb%3Dc%26secret', ['a%2Fb%3Dc%26secret'], ['a/b=c&secret']],
  [
    'a secret that contains another',
    'value: longsecretvalue',
    ['longsecretvalue', 'secretvalue'],
    ['secretvalue', 'longsecretvalue'],
  ],
];

describe('redact', () => {
  it.each(CASES)('removes %s', (_what, text, mustGo, secrets) => {
    const out = redact(text, secrets);
    for (const secret of mustGo) expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
  });

  it.each([
    ['an OAuth error code in JSON', '{"error":"invalid_grant","code":"invalid_grant"}'],
    ['a Node error code', "Error: connect ECONNREFUSED { code: 'ECONNREFUSED' }"],
    ['a plain URL', 'https://op.example.org/.well-known/openid-configuration'],
    ['prose mentioning authorization', 'authorization failed for this shop'],
  ])('leaves %s alone', (_what, text) => {
    expect(redact(text)).toBe(text);
  });

  it('ignores configured secrets shorter than 4 characters instead of blanking ordinary text', () => {
    expect(redact('a plain message', ['a', ''])).toBe('a plain message');
  });

  it('keeps the parameter names so a log reader sees what was there', () => {
    expect(redact('https://x.example/cb?code=abc123&state=def456&x=1')).toBe(
      `https://x.example/cb?code=${REDACTED}&state=${REDACTED}&x=1`,
    );
  });
});

describe('redactUrl', () => {
  it('takes URL objects and configured secrets', () => {
    const url = new URL('https://user:pw12345@op.example.org/token?client_secret=abc&q=mysecretq');
    const out = redactUrl(url, ['mysecretq']);
    expect(out).not.toContain('pw12345');
    expect(out).not.toContain('client_secret=abc');
    expect(out).not.toContain('mysecretq');
    expect(out).toContain('op.example.org/token');
  });
});

describe('redactValue', () => {
  it('redacts nested fields, secret-named fields, errors, URLs and Headers', () => {
    const value = {
      url: new URL('https://u:pw0000@a.example/?code=zzz111'),
      headers: new Headers({ authorization: 'Basic Zm9vOmJhcg==', 'x-ok': 'fine' }),
      nested: { deeper: { list: [`Bearer ${JWT}`, CLIENT_SECRET] } },
      password: 'anything-at-all',
      client_secret: 12345678,
      error: Object.assign(new Error(`boom ${CLIENT_SECRET}`), { code: 'E_BOOM', headers: { cookie: 'x' } }),
      count: 3,
    };
    const out = redactValue(value, [CLIENT_SECRET]);
    const text = JSON.stringify(out);
    for (const secret of [
      'pw0000',
      'zzz111',
      'Zm9vOmJhcg==',
      JWT,
      CLIENT_SECRET,
      'anything-at-all',
      '12345678',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(out).toMatchObject({
      count: 3,
      headers: { 'x-ok': 'fine' },
      error: { code: 'E_BOOM', name: 'Error' },
    });
    expect(text).not.toContain('cookie');
  });

  it('cuts deep nesting instead of recursing without end', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(() => JSON.stringify(redactValue(cyclic))).not.toThrow();
  });
});
