/**
 * The Express example's telemetry switch (examples/express/telemetry.ts): AV_METRICS_PORT turns on a
 * Prometheus endpoint on 127.0.0.1 that shows the validations of the SDK.
 */
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTelemetry, telemetryFromEnv } from '../../examples/express/telemetry.js';
import { AffiliationClient, MemoryTransactionStore } from '../../src/index.js';
import { DEFAULT_TEST_CLIENT, type RunningTestProvider, TestProvider } from '../../src/testing.js';

describe('telemetryFromEnv', () => {
  it('is off without AV_METRICS_PORT, on with a port, and refuses anything else by name', () => {
    expect(telemetryFromEnv({})).toBeUndefined();
    expect(telemetryFromEnv({ AV_METRICS_PORT: '9464', AV_TRACE_CONSOLE: '1' })).toEqual({
      metricsPort: 9464,
      traceToConsole: true,
    });
    expect(() => telemetryFromEnv({ AV_METRICS_PORT: 'ninety' })).toThrow(
      /AV_METRICS_PORT must be a port number/,
    );
    expect(() => telemetryFromEnv({ AV_METRICS_PORT: '70000' })).toThrow(/AV_METRICS_PORT/);
  });
});

describe('the metrics endpoint', () => {
  let op: RunningTestProvider;
  beforeAll(async () => {
    op = await TestProvider.start();
  });
  afterAll(() => op.close());

  it('serves the validations counted by the SDK to a Prometheus scrape on 127.0.0.1', async () => {
    const port = await freePort();
    const stop = await startTelemetry({ metricsPort: port });
    try {
      const client = await AffiliationClient.discover({
        issuer: op.issuer,
        clientId: DEFAULT_TEST_CLIENT.clientId,
        clientSecret: DEFAULT_TEST_CLIENT.clientSecret as string,
        redirectUri: DEFAULT_TEST_CLIENT.redirectUris[0] as string,
        transactions: new MemoryTransactionStore({ bindToBrowser: false }),
      });
      const { url } = await client.createAuthorizationRequest({ affiliation: 'student' });
      await client.validateCallback(await op.authorize(url));
      const text = await scrape(`http://127.0.0.1:${port}/metrics`);
      expect(text).toMatch(
        /affiliation_validation_validations_total\{[^}]*affiliation_validation_outcome="success"[^}]*\} 1\b/,
      );
    } finally {
      await stop();
    }
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function scrape(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve(text));
    }).on('error', reject);
  });
}
