/**
 * `affiliation-validation/otel` with the real OpenTelemetry SDK: hint refreshes and docs-site
 * requests become spans and metrics with the documented names and attributes.
 */
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { routeTemplate } from '../../src/docs-site/transport.js';
import { DocsSiteError } from '../../src/docs-site.js';
import { HintFeed } from '../../src/hints.js';
import { client, ROOT, useServer } from '../docs-site/helpers.js';
import { type FeedServer, startFeedServer } from '../hints/feed-server.js';
import { startTelemetry, type Telemetry } from './harness.js';

let telemetry: Telemetry;
beforeAll(() => {
  telemetry = startTelemetry();
});
afterAll(() => telemetry.close());
afterEach(() => telemetry.resetSpans());

describe('hint refreshes', () => {
  let feeds: FeedServer;
  beforeAll(async () => {
    feeds = await startFeedServer();
  });
  afterAll(() => feeds.close());

  it('a refresh is a span, counted by status, and the list age and size are gauges', async () => {
    feeds.route('/nl.json', {
      kind: 'json',
      body: {
        'https://idp.uni.example/idp': { en: 'Example University' },
        'urn:x:y': { en: 'Other College' },
      },
      lastModified: new Date(Date.now() - 3_600_000).toUTCString(),
    });
    const feed = new HintFeed({ sources: [feeds.url('/nl.json')] });
    const result = await feed.refresh();
    expect(result.status).toBe('updated');

    const [span] = telemetry.spans().filter((s) => s.name === 'affiliation-validation hints refresh');
    expect(span?.attributes).toMatchObject({
      'affiliation_validation.hints.feed': new URL(feeds.origin).host,
      'affiliation_validation.hints.refresh.status': 'updated',
      'affiliation_validation.hints.sources': 1,
      'affiliation_validation.hints.added': 2,
      'affiliation_validation.hints.total': 2,
    });
    expect(span?.status.code).toBe(0); // UNSET: no error

    const refreshes = await telemetry.points('affiliation_validation.hints.refreshes');
    expect(refreshes).toContainEqual({
      attributes: {
        'affiliation_validation.hints.feed': new URL(feeds.origin).host,
        'affiliation_validation.hints.refresh.status': 'updated',
      },
      value: 1,
    });
    const [size] = await telemetry.points('affiliation_validation.hints.size');
    expect(size?.value).toBe(2);
    // The age is measured when metrics are collected, from when the list was last fetched.
    const updatedAt = feed.updatedAt?.getTime();
    expect(updatedAt).toBeTypeOf('number');
    const [age] = await telemetry.points('affiliation_validation.hints.age');
    const expected = (Date.now() - (updatedAt ?? 0)) / 1000;
    expect(age?.value as number).toBeGreaterThan(expected - 5);
    expect(age?.value as number).toBeLessThanOrEqual(expected);
    await feed.close();
  });

  it('a failed refresh is an error span with its error code, counted as failed', async () => {
    feeds.route('/down.json', { kind: 'status', status: 503 });
    const feed = new HintFeed({ sources: [feeds.url('/down.json')], retries: 0 });
    const result = await feed.refresh();
    expect(result.status).toBe('failed');
    const span = telemetry.spans().find((s) => s.name === 'affiliation-validation hints refresh');
    expect(span?.status.code).toBe(2); // ERROR
    expect(span?.attributes['error.type']).toBe(result.error?.code);
    expect(span?.attributes['affiliation_validation.hints.failed_sources']).toBe(1);
    const refreshes = await telemetry.points('affiliation_validation.hints.refreshes');
    expect(
      refreshes.find((p) => p.attributes['affiliation_validation.hints.refresh.status'] === 'failed'),
    ).toMatchObject({ attributes: { 'error.type': result.error?.code }, value: 1 });
    await feed.close();
  });
});

describe('docs-site requests', () => {
  const server = useServer();

  it('a request is a CLIENT span named by method and route template, with its status', async () => {
    server.use(
      http.get(`${ROOT}/cms/v2/pages/42`, () => HttpResponse.json({ id: 42 })),
      http.get(`${ROOT}/cms/v2/pages/43`, () =>
        HttpResponse.json(
          { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } },
          { status: 404 },
        ),
      ),
    );
    const docs = client();
    await docs.request('GET', '/cms/v2/pages/42');
    const error = await docs.request('GET', '/cms/v2/pages/43').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocsSiteError);

    const spans = telemetry.spans().filter((s) => s.name === 'GET /cms/v2/pages/{id}');
    expect(spans).toHaveLength(2);
    expect(spans[0]?.kind).toBe(2); // CLIENT
    expect(spans[0]?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.template': '/cms/v2/pages/{id}',
      'server.address': 'docs.example.org',
      'http.response.status_code': 200,
    });
    expect(spans[1]?.attributes).toMatchObject({
      'http.response.status_code': 404,
      'error.type': 'rest_post_invalid_id',
    });
    expect(spans[1]?.status.code).toBe(2);

    const durations = await telemetry.points('http.client.request.duration');
    const forRoute = durations.filter((p) => p.attributes['url.template'] === '/cms/v2/pages/{id}');
    expect(
      forRoute.map((p) => [p.attributes['http.response.status_code'], (p.value as { count: number }).count]),
    ).toEqual(
      expect.arrayContaining([
        [200, 1],
        [404, 1],
      ]),
    );
  });

  it('route templates keep ids out of the attributes', () => {
    expect(routeTemplate('/wp/v2/pages/12/revisions/3?context=edit')).toBe(
      '/wp/v2/pages/{id}/revisions/{id}',
    );
    expect(routeTemplate('/wp/v2/templates/twentytwentythree//home')).toBe('/wp/v2/templates/{id}');
    expect(routeTemplate('/wp/v2/template-parts/t//header/autosaves')).toBe(
      '/wp/v2/template-parts/{id}/autosaves',
    );
    expect(routeTemplate('/wp/v2/templates/lookup')).toBe('/wp/v2/templates/lookup');
    expect(routeTemplate('/wp/v2/posts')).toBe('/wp/v2/posts');
  });
});
