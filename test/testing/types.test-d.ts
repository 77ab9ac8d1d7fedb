import { expectTypeOf, test } from 'vitest';
import {
  type LoginOutcome,
  type RunningTestProvider,
  startTestProvider,
  type TestClient,
  type TestProvider,
} from '../../src/testing.js';
import { createTestProviderHandlers } from '../../src/testing-msw.js';

test('public types of affiliation-validation/testing', () => {
  expectTypeOf(startTestProvider).returns.resolves.toEqualTypeOf<RunningTestProvider>();
  expectTypeOf<RunningTestProvider>().toMatchTypeOf<TestProvider>();
  expectTypeOf<TestProvider['authorize']>().returns.resolves.toBeString();
  expectTypeOf<TestProvider['handle']>().parameters.toEqualTypeOf<[Request]>();
  expectTypeOf(createTestProviderHandlers).parameter(0).toEqualTypeOf<TestProvider>();

  // @ts-expect-error: 'none' is not a signing algorithm
  void startTestProvider({ signingAlg: 'none' });
  // @ts-expect-error: only reuse_detection is an additional claim
  const client: TestClient = { clientId: 'a', clientSecret: 'b', redirectUris: [], allowedClaims: ['email'] };
  // @ts-expect-error: 'professor' is not an affiliation
  const outcome: LoginOutcome = { affiliations: ['professor'] };
  // @ts-expect-error: response types are code and id_token
  const other: TestClient = { clientId: 'a', clientSecret: 'b', redirectUris: [], responseTypes: ['token'] };
  void [client, outcome, other];
});
