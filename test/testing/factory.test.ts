import { describe, expect, it } from 'vitest';
import { OptionsError, RunningTestProvider, TestProvider } from '../../src/testing.js';

describe('TestProvider.start: the one factory', () => {
  it('listens on 127.0.0.1 by default and answers real HTTP until close()', async () => {
    const op = await TestProvider.start();
    expect(op).toBeInstanceOf(RunningTestProvider);
    expect(op.host).toBe('127.0.0.1');
    expect(op.issuer).toBe(`http://127.0.0.1:${op.port}`);
    const discovery = await fetch(op.endpoints.discovery);
    expect((await discovery.json()).issuer).toBe(op.issuer);
    await op.close();
    await expect(fetch(op.endpoints.discovery)).rejects.toThrow();
  });

  it('opens no socket with listen: false and answers in-process under baseUrl', async () => {
    const op = await TestProvider.start({ listen: false, baseUrl: 'https://op.affiliation.test/' });
    expect(op).not.toBeInstanceOf(RunningTestProvider);
    expect(op.issuer).toBe('https://op.affiliation.test');
    const response = await op.handle(new Request(op.endpoints.discovery));
    expect((await response.json()).issuer).toBe(op.issuer);
    await op.close();
  });

  it('checks options the same way for both modes', async () => {
    await expect(TestProvider.start({ port: 70_000 })).rejects.toBeInstanceOf(OptionsError);
    await expect(TestProvider.start({ listen: false, baseUrl: 'ftp://x' })).rejects.toBeInstanceOf(
      OptionsError,
    );
  });
});
