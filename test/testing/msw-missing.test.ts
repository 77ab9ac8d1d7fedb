import { describe, expect, it, vi } from 'vitest';

vi.mock('msw', () => {
  throw new Error("Cannot find package 'msw'");
});

describe('createTestProviderHandlers without msw installed', () => {
  it('throws an OptionsError that says to install the optional peer dependency', async () => {
    const { TestProvider, OptionsError } = await import('../../src/testing.js');
    const { createTestProviderHandlers } = await import('../../src/testing-msw.js');
    const op = await TestProvider.start({ listen: false, signingAlg: 'ES256' });
    const error = await createTestProviderHandlers(op).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OptionsError);
    expect((error as Error).message).toMatch(/optional peer dependency "msw"/);
    // The entry point itself imported fine: msw is never loaded at top level.
    expect((await op.handle(new Request(op.endpoints.discovery))).status).toBe(200);
  });
});
