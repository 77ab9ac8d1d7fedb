import { describe, expect, it, vi } from 'vitest';
import { type Logger, noopLogger, redactingLogger } from '../../src/core/logger.js';

describe('redactingLogger', () => {
  it('redacts the message and the fields before they reach the logger', () => {
    const lines: Array<[string, Record<string, unknown> | undefined]> = [];
    const logger = redactingLogger({ info: (message, fields) => lines.push([message, fields]) }, [
      'my-client-secret',
    ]);
    logger.info?.('sent my-client-secret to https://a:b1234@x.example/?code=abc', {
      body: 'client_secret=my-client-secret&code=abc',
      authorization: 'Basic Zm9vOmJhcg==',
    });
    const text = JSON.stringify(lines);
    expect(lines).toHaveLength(1);
    for (const secret of ['my-client-secret', 'b1234', 'code=abc', 'Zm9vOmJhcg=='])
      expect(text).not.toContain(secret);
  });

  it('only offers the levels the wrapped logger has', () => {
    const logger = redactingLogger({ warn: () => {} });
    expect(logger.warn).toBeTypeOf('function');
    expect(logger.debug).toBeUndefined();
    expect(redactingLogger(noopLogger)).toEqual({});
  });

  it('swallows an exception thrown by the wrapped logger', () => {
    const broken: Logger = {
      error: vi.fn(() => {
        throw new Error('disk full');
      }),
    };
    expect(() => redactingLogger(broken).error?.('x')).not.toThrow();
    expect(broken.error).toHaveBeenCalledOnce();
  });

  it('keeps `this` of a class-based logger', () => {
    class Collector implements Logger {
      lines: string[] = [];
      debug(message: string) {
        this.lines.push(message);
      }
    }
    const collector = new Collector();
    redactingLogger(collector).debug?.('hello');
    expect(collector.lines).toEqual(['hello']);
  });
});
