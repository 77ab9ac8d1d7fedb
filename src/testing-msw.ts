// affiliation-validation/testing/msw: the msw handlers of the test provider, in their own entry point
// because their types name msw's, an optional peer dependency: affiliation-validation/testing then
// compiles for everyone, with or without msw installed.
export { createTestProviderHandlers } from './testing/msw.js';
