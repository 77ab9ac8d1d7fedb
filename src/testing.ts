export { AffiliationError, OptionsError } from './core/errors.js';
export type { AuthorizeOptions, AuthorizeStep } from './testing/authorize-walk.js';
export { TestProviderWalkError } from './testing/authorize-walk.js';
export { TestCookieJar } from './testing/cookie-jar.js';
export type {
  ErrorLocation,
  ErrorLocations,
  HeldAffiliation,
  LoginOutcome,
  StartTestProviderOptions,
  TestAdditionalClaim,
  TestClient,
  TestInstitution,
  TestProviderOptions,
  TestSigningAlg,
} from './testing/options.js';
export { DEFAULT_LOGIN_OUTCOME, DEFAULT_TEST_CLIENT, DEFAULT_TEST_INSTITUTIONS } from './testing/options.js';
export type { CreateTestProviderOptions, TestProviderEndpoints } from './testing/provider.js';
export { RunningTestProvider, TestProvider } from './testing/provider.js';
