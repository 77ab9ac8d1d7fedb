import { expectTypeOf, test } from 'vitest';
import {
  type LoginOutcome,
  type RunningTestProvider,
  type TestClient,
  TestProvider,
} from '../../src/testing.js';
import { createTestProviderHandlers } from '../../src/testing-msw.js';

test('public types of affiliation-validation/testing', () => {
  // The one factory: listening by default, in-process with listen: false.
  expectTypeOf(TestProvider.start()).resolves.toEqualTypeOf<RunningTestProvider>();
  expectTypeOf(TestProvider.start({ port: 0 })).resolves.toEqualTypeOf<RunningTestProvider>();
  expectTypeOf(
    TestProvider.start({ listen: false, baseUrl: 'https://op.test' }),
  ).resolves.toEqualTypeOf<TestProvider>();
  // @ts-expect-error: an in-process provider has no port
  void TestProvider.start({ listen: false, port: 3000 });
  expectTypeOf<RunningTestProvider>().toMatchTypeOf<TestProvider>();
  expectTypeOf<TestProvider['authorize']>().returns.resolves.toBeString();
  expectTypeOf<TestProvider['handle']>().parameters.toEqualTypeOf<[Request]>();
  expectTypeOf(createTestProviderHandlers).parameter(0).toEqualTypeOf<TestProvider>();

  // @ts-expect-error: 'none' is not a signing algorithm
  void TestProvider.start({ signingAlg: 'none' });
  // @ts-expect-error: only reuse_detection is an additional claim
  const client: TestClient = { clientId: 'a', clientSecret: 'b', redirectUris: [], allowedClaims: ['email'] };
  // @ts-expect-error: 'professor' is not an affiliation
  const outcome: LoginOutcome = { affiliations: ['professor'] };
  // @ts-expect-error: response types are code and id_token
  const other: TestClient = { clientId: 'a', clientSecret: 'b', redirectUris: [], responseTypes: ['token'] };
  void [client, outcome, other];
});
