export { AffiliationError, OptionsError } from './core/errors.js';
export type { AuthorizeOptions, AuthorizeStep } from './testing/browser.js';
export { TestCookieJar, TestProviderWalkError } from './testing/browser.js';
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
export { createTestProvider, TestProvider } from './testing/provider.js';
export { RunningTestProvider, startTestProvider } from './testing/server.js';
