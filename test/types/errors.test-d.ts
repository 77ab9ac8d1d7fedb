/**
 * Compile-only tests (vitest typecheck, and `tsc -p test/types` under a strict user's settings:
 * `strict`, `exactOptionalPropertyTypes`, `skipLibCheck: false`): the error union narrows on `code`.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  AnyAffiliationError,
  OptionsError,
  ProviderErrorCode,
  ScopeError,
  TransportError,
  TransportErrorCode,
  ValidationErrorCode,
} from '../../src/index.js';
import { type AffiliationClient, ProviderError, ValidationError } from '../../src/index.js';

declare const client: AffiliationClient;
declare const error: AnyAffiliationError;

describe('AnyAffiliationError', () => {
  it('is the union of the RP error classes', () => {
    expectTypeOf<AnyAffiliationError>().toEqualTypeOf<
      ValidationError | ProviderError | TransportError | OptionsError | ScopeError
    >();
    expectTypeOf(error.code).toEqualTypeOf<
      ValidationErrorCode | ProviderErrorCode | TransportErrorCode | 'invalid_options' | 'invalid_scope'
    >();
  });

  it('refuses a misspelled code', () => {
    // @ts-expect-error 'unknown_stat' is no code of any RP error
    if (error.code === 'unknown_stat') return;
    // @ts-expect-error ProviderErrorCode is closed: anything unnamed is 'unknown_error'
    const code: ProviderErrorCode = 'slow_down';
    void code;
  });

  it('narrows on code without instanceof', () => {
    switch (error.code) {
      case 'nonce_mismatch':
        expectTypeOf(error).toEqualTypeOf<ValidationError>();
        break;
      case 'access_denied':
        expectTypeOf(error).toEqualTypeOf<ProviderError>();
        expectTypeOf(error.source).toEqualTypeOf<'authorization' | 'token' | 'userinfo'>();
        expectTypeOf(error.error).toEqualTypeOf<string>();
        break;
      case 'timeout':
        expectTypeOf(error).toEqualTypeOf<TransportError>();
        expectTypeOf(error.status).toEqualTypeOf<number | undefined>();
        break;
      case 'invalid_scope':
        // The service's refusal and the SDK's own scope check share the code.
        expectTypeOf(error).toEqualTypeOf<ProviderError | ScopeError>();
        break;
    }
  });

  it('is what callbackHandler onError receives', () => {
    client.callbackHandler({
      onSuccess: () => new Response(null, { status: 204 }),
      onError: (err) => {
        expectTypeOf(err).toEqualTypeOf<AnyAffiliationError>();
        // @ts-expect-error a misspelled code does not compile
        if (err.code === 'unknown_stat') return new Response('never');
        if (err.code === 'unknown_state') expectTypeOf(err).toEqualTypeOf<ValidationError>();
        return new Response(err.userMessage, { status: 400 });
      },
    });
  });

  it('still accepts a handler written for the base class', () => {
    client.callbackHandler({
      onSuccess: () => new Response(null, { status: 204 }),
      onError: (err: Error) => new Response(err.message, { status: 400 }),
    });
  });

  it('instanceof still narrows', () => {
    const unknownError: unknown = undefined;
    if (unknownError instanceof ValidationError) {
      expectTypeOf(unknownError.code).toEqualTypeOf<ValidationErrorCode>();
    }
    if (unknownError instanceof ProviderError) {
      expectTypeOf(unknownError.code).toEqualTypeOf<ProviderErrorCode>();
    }
  });
});
