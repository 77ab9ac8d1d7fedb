/**
 * Compile-only tests of the documented idioms under a strict user's settings (`tsc -p test/types`:
 * `strict`, `exactOptionalPropertyTypes: true`, `skipLibCheck: false`; issue 11 item 7).
 */
import type { IncomingMessage } from 'node:http';
import { describe, expectTypeOf, it } from 'vitest';
import { HintFeed } from '../../src/hints.js';
import type {
  AuthorizationRequest,
  HintLookup,
  Logger,
  Transaction,
  TransactionStore,
} from '../../src/index.js';
import { AffiliationClient, buildScope, CookieTransactionStore } from '../../src/index.js';

declare const client: AffiliationClient;
declare const req: IncomingMessage;
declare const maybe: <T>(value: T) => T | undefined;

describe('optional options accept undefined (exactOptionalPropertyTypes)', () => {
  it('validateCallback(url, { cookie: req.headers.cookie }) compiles', () => {
    expectTypeOf(req.headers.cookie).toEqualTypeOf<string | undefined>();
    void client.validateCallback(req.url ?? '/', { cookie: req.headers.cookie });
    void client.validateCallback('/callback?code=x', { cookie: null });
    void client.validateCallback('/callback?code=x', { cookie: undefined, body: undefined });
  });

  it('new CookieTransactionStore({ secret, secure: isProd ? true : undefined }) compiles (issue 22)', () => {
    const isProd = maybe(true) === true;
    void new CookieTransactionStore({ secret: 'x'.repeat(32), secure: isProd ? true : undefined });
  });

  it('a HintFeed source names its country or region from a variable that may be undefined', () => {
    void new HintFeed({
      sources: [{ url: 'https://feeds.example.org/nl.json', country: maybe('nl'), region: undefined }],
      cacheFile: maybe('/var/cache/hints.json'),
    });
  });

  it('AffiliationClient.discover options', () => {
    const secure = maybe(true);
    void secure;
    void AffiliationClient.discover({
      issuer: 'https://op.example.org',
      clientId: 'id',
      clientSecret: 'secret',
      redirectUri: 'https://shop.example.com/callback',
      responseType: maybe<'code' | 'id_token'>('code'),
      tokenEndpointAuthMethod: maybe<'client_secret_basic'>('client_secret_basic'),
      transactions: maybe<TransactionStore>({ put: async () => undefined, take: async () => undefined }),
      clockToleranceSeconds: maybe(5),
      timeoutMs: maybe(2000),
      hints: maybe<HintLookup>(new Set<string>()),
      fetch: maybe(globalThis.fetch),
      logger: maybe<Logger>({}),
    });
  });

  it('createAuthorizationRequest and buildScope options', () => {
    void client.createAuthorizationRequest({
      affiliation: 'student',
      identifier: maybe<'persistent'>('persistent'),
      scopes: maybe(['email']),
      claims: maybe({ id_token: maybe({ reuse_detection: null }) }),
      idpHint: maybe('https://idp.example.edu/idp'),
    });
    buildScope({ affiliation: 'member', identifier: undefined, scopes: undefined });
  });

  it('AuthorizationRequest.setCookie is an optional string to send whenever present', () => {
    expectTypeOf<AuthorizationRequest['setCookie']>().toEqualTypeOf<string | undefined>();
  });

  it('a store can copy the optional fields of a Transaction as they are', () => {
    const copy = (t: Transaction): Transaction => ({
      state: t.state,
      nonce: t.nonce,
      codeVerifier: t.codeVerifier,
      responseType: t.responseType,
      scopes: t.scopes,
      affiliation: t.affiliation,
      identifier: t.identifier,
      claims: t.claims,
      idpHint: t.idpHint,
      redirectUri: t.redirectUri,
      createdAt: t.createdAt,
      expiresAt: t.expiresAt,
    });
    void copy;
  });
});
