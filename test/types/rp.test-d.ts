/** Compile-only tests of the public RP types (vitest typecheck). */
import type { IncomingMessage } from 'node:http';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  AffiliationResult,
  AuthorizationRequest,
  Language,
  ProviderErrorCode,
  ProviderErrorReason,
  ShopperMessage,
  ShopperTextKey,
  TransactionStore,
  ValidationErrorCode,
} from '../../src/index.js';
import {
  AffiliationClient,
  type AffiliationError,
  MemoryTransactionStore,
  ProviderError,
  ValidationError,
} from '../../src/index.js';

declare const client: AffiliationClient;
declare const req: IncomingMessage;

describe('AffiliationClient types', () => {
  it('discover takes the documented options', () => {
    expectTypeOf(AffiliationClient.discover).parameter(0).toHaveProperty('issuer').toEqualTypeOf<string>();
    void AffiliationClient.discover({
      issuer: 'https://op.example.org',
      clientId: 'id',
      clientSecret: 'secret',
      redirectUri: 'https://shop.example.com/callback',
      responseType: 'id_token',
      tokenEndpointAuthMethod: 'client_secret_post',
      transactions: new MemoryTransactionStore(),
      clockToleranceSeconds: 5,
      timeoutMs: 2000,
      hints: new Set<string>(),
      fetch: globalThis.fetch,
      logger: { warn() {} },
    });
    // @ts-expect-error clientSecret is required
    void AffiliationClient.discover({ issuer: 'x', clientId: 'id', redirectUri: 'x' });
    const base = { issuer: 'x', clientId: 'i', clientSecret: 's', redirectUri: 'x' };
    const badType = { ...base, responseType: 'token' as const };
    // @ts-expect-error only code and id_token
    void AffiliationClient.discover(badType);
    const badHints = { ...base, hints: ['a'] };
    // @ts-expect-error hints need has()
    void AffiliationClient.discover(badHints);
  });

  it('createAuthorizationRequest takes the spec affiliations and identifiers', async () => {
    expectTypeOf(
      await client.createAuthorizationRequest({ affiliation: 'faculty+staff' }),
    ).toEqualTypeOf<AuthorizationRequest>();
    void client.createAuthorizationRequest({
      affiliation: 'member',
      identifier: 'persistent',
      scopes: ['email'],
      claims: { id_token: { reuse_detection: null }, userinfo: { reuse_detection: null } },
      idpHint: 'https://idp.example.edu/idp',
    });
    // @ts-expect-error not an affiliation of the service
    void client.createAuthorizationRequest({ affiliation: 'teacher' });
    // @ts-expect-error not an identifier of the service
    void client.createAuthorizationRequest({ affiliation: 'student', identifier: 'pairwise' });
    const badClaims = { affiliation: 'student' as const, claims: { id_token: { reuse_detection: true } } };
    // @ts-expect-error reuse_detection is requested with null
    void client.createAuthorizationRequest(badClaims);
  });

  it('validateCallback accepts every input form and gives an AffiliationResult', async () => {
    expectTypeOf(
      await client.validateCallback('https://shop.example.com/callback?code=x'),
    ).toEqualTypeOf<AffiliationResult>();
    void client.validateCallback(new URL('https://shop.example.com/callback'));
    void client.validateCallback(new Request('https://shop.example.com/callback'));
    void client.validateCallback(req, { body: { code: 'x', state: 'y' } });
    // @ts-expect-error not a callback input
    void client.validateCallback(42);
    const result = await client.validateCallback('x');
    expectTypeOf(result.affiliation).toEqualTypeOf<'student' | 'faculty+staff' | 'employee' | 'member'>();
    expectTypeOf(result.authTime).toEqualTypeOf<Date>();
    expectTypeOf(result.institution).toEqualTypeOf<{ entityId: string } | undefined>();
  });

  it('callbackHandler is Request → Promise<Response>', () => {
    const handler = client.callbackHandler({ onSuccess: (r) => Response.json({ ok: r.affiliation }) });
    expectTypeOf(handler).toEqualTypeOf<(request: Request) => Promise<Response>>();
    // @ts-expect-error onSuccess is required
    client.callbackHandler({});
  });
});

describe('the shopper’s language', () => {
  it('texts are typed by key; the language list and the reasons are literal unions', () => {
    void AffiliationClient.discover({
      issuer: 'https://op.example.org',
      clientId: 'id',
      clientSecret: 'secret',
      redirectUri: 'https://shop.example.com/callback',
      language: 'de',
      texts: { de: { 'page.failed.title': 'Nicht bestätigt' }, pl: { 'page.failed.back': 'Wróć do sklepu' } },
    });
    void AffiliationClient.discover({
      issuer: 'https://op.example.org',
      clientId: 'id',
      clientSecret: 'secret',
      redirectUri: 'https://shop.example.com/callback',
      // @ts-expect-error: no such text
      texts: { de: { 'page.title': 'x' } },
    });
    expectTypeOf<'page.failed.title'>().toMatchTypeOf<ShopperTextKey>();
    expectTypeOf<'es-419' | 'nb'>().toMatchTypeOf<Language>();
    // @ts-expect-error: not a language of the catalogs
    const pl: Language = 'pl';
    void pl;
    expectTypeOf<ProviderError['reason']>().toEqualTypeOf<ProviderErrorReason>();
    const message = client.shopperMessage(
      new ProviderError('x', { error: 'access_denied', source: 'authorization' }),
      req,
    );
    expectTypeOf(message).toEqualTypeOf<ShopperMessage>();
    expectTypeOf(message.restart?.fields).toEqualTypeOf<Readonly<Record<string, string>> | undefined>();
  });
});

describe('errors', () => {
  it('narrow by code', () => {
    const error: unknown = undefined;
    if (error instanceof ValidationError) {
      expectTypeOf(error.code).toEqualTypeOf<ValidationErrorCode>();
      // @ts-expect-error not a validation code
      const never: typeof error.code = 'bogus';
      void never;
    }
    if (error instanceof ProviderError) {
      expectTypeOf(error.code).toEqualTypeOf<ProviderErrorCode>();
      expectTypeOf(error.source).toEqualTypeOf<'authorization' | 'token' | 'userinfo'>();
    }
    expectTypeOf<ValidationError>().toMatchTypeOf<AffiliationError>();
  });

  it('stores implement TransactionStore', () => {
    expectTypeOf(new MemoryTransactionStore()).toMatchTypeOf<TransactionStore>();
  });
});
