/**
 * The metrics as a Prometheus server scrapes them: @opentelemetry/exporter-prometheus serving
 * /metrics on 127.0.0.1, read over HTTP after a hint refresh and docs-site requests.
 */
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { HttpResponse, http } from 'msw';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HintFeed } from '../../src/hints.js';
import { type Instrumentation, instrument } from '../../src/otel.js';
import { client, ROOT, useServer } from '../docs-site/helpers.js';
import { type FeedServer, startFeedServer } from '../hints/feed-server.js';

const site = useServer();
let exporter: PrometheusExporter;
let meterProvider: MeterProvider;
let instrumentation: Instrumentation;
let scrapeServer: Server;
let feeds: FeedServer;

beforeAll(async () => {
  exporter = new PrometheusExporter({ preventServerStart: true });
  meterProvider = new MeterProvider({ readers: [exporter] });
  instrumentation = instrument({ meterProvider });
  scrapeServer = createServer((req, res) => exporter.getMetricsRequestHandler(req, res));
  await new Promise<void>((resolve) => scrapeServer.listen(0, '127.0.0.1', resolve));
  feeds = await startFeedServer();
});

afterAll(async () => {
  instrumentation.disable();
  await new Promise((resolve) => scrapeServer.close(resolve));
  await meterProvider.shutdown();
  await feeds.close();
});

it('serves the hint and docs-site metrics to a Prometheus scrape', async () => {
  feeds.route('/be.json', {
    kind: 'json',
    body: { 'https://idp.example.be/idp': { fr: 'Université Exemple' } },
  });
  const feed = new HintFeed({ sources: [feeds.url('/be.json')] });
  expect((await feed.refresh()).status).toBe('updated');
  site.use(http.get(`${ROOT}/cms/v2/posts`, () => HttpResponse.json([])));
  await client().request('GET', '/cms/v2/posts');

  const { port } = scrapeServer.address() as AddressInfo;
  // node:http, as a scraper would: msw intercepts the global fetch of this file.
  const { status, text } = await scrape(`http://127.0.0.1:${port}/metrics`);
  expect(status).toBe(200);
  const host = new URL(feeds.origin).host;
  expect(text).toMatch(
    new RegExp(
      `affiliation_validation_hints_size\\{affiliation_validation_hints_feed="${host}"[^}]*\\} 1\\b`,
    ),
  );
  expect(text).toMatch(/affiliation_validation_hints_age\{[^}]*\} \d/);
  expect(text).toMatch(
    /affiliation_validation_hints_refreshes_total\{[^}]*affiliation_validation_hints_refresh_status="updated"[^}]*\} 1\b/,
  );
  expect(text).toMatch(
    /http_client_request_duration_count\{[^}]*http_request_method="GET"[^}]*url_template="\/cms\/v2\/posts"[^}]*\} 1\b/,
  );
  await feed.close();
});

function scrape(url: string): Promise<{ status: number | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode, text }));
    }).on('error', reject);
  });
}
