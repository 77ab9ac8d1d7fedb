/**
 * Validations as OpenTelemetry sees them, against the SDK's test provider over real HTTP: spans with
 * their parent/child links, and metric values, for a success and each kind of failure.
 */
import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AffiliationClient,
  MemoryTransactionStore,
  ProviderError,
  ScopeError,
  TransportError,
  ValidationError,
} from '../../src/index.js';
import { DEFAULT_TEST_CLIENT, type RunningTestProvider, TestProvider } from '../../src/testing.js';
import { startTelemetry, type Telemetry } from './harness.js';

const REDIRECT_URI = DEFAULT_TEST_CLIENT.redirectUris[0] as string;
const UNIVERSITY = 'https://idp.university.example/idp/shibboleth';

let telemetry: Telemetry;
let op: RunningTestProvider;
/** Set by a test to make the token endpoint answer with this status. */
let tokenStatus: number | undefined;
/** The active span's id when the SDK fetched each URL: what another instrumentation (undici's) sees. */
const activeAtFetch = new Map<string, string | undefined>();

beforeAll(async () => {
  telemetry = startTelemetry();
  op = await TestProvider.start();
});
afterAll(async () => {
  await op.close();
  await telemetry.close();
});
beforeEach(() => {
  telemetry.resetSpans();
  tokenStatus = undefined;
});

async function client(responseType: 'code' | 'id_token' = 'code', provider = op, hints?: Set<string>) {
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    activeAtFetch.set(url, trace.getActiveSpan()?.spanContext().spanId);
    if (tokenStatus !== undefined && url === provider.endpoints.token) {
      return new Response('<h1>Service Unavailable</h1>', { status: tokenStatus });
    }
    return globalThis.fetch(input, init);
  };
  return AffiliationClient.discover({
    issuer: provider.issuer,
    clientId: DEFAULT_TEST_CLIENT.clientId,
    clientSecret: DEFAULT_TEST_CLIENT.clientSecret as string,
    redirectUri: REDIRECT_URI,
    responseType,
    transactions: new MemoryTransactionStore({ bindToBrowser: false }),
    fetch,
    ...(hints ? { hints } : {}),
  });
}

const byName = (name: string) => telemetry.spans().filter((s) => s.name === name);

/** The value of `affiliation_validation.validations` for exactly these attributes. */
async function validations(attributes: Record<string, unknown>): Promise<unknown> {
  const points = await telemetry.points('affiliation_validation.validations');
  const wanted = JSON.stringify(sorted(attributes));
  return points.find((p) => JSON.stringify(sorted(p.attributes)) === wanted)?.value;
}
function sorted(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}
async function validationPoints() {
  return (await telemetry.points('affiliation_validation.validations')).map((p) => ({
    ...p,
    attributes: sorted(p.attributes),
  }));
}

describe('a successful code-flow validation', () => {
  it('is a callback span under the shop request, with the token request and key fetch as children; the start is counted, with no span', async () => {
    const rp = await client('code', op, new Set([UNIVERSITY]));
    const shop = trace.getTracer('shop');
    const before = (await validationPoints()).length;

    const result = await shop.startActiveSpan('GET /shop', async (request) => {
      const { url } = await rp.createAuthorizationRequest({ affiliation: 'student', idpHint: UNIVERSITY });
      const callback = await op.authorize(url);
      const validated = await rp.validateCallback(callback);
      request.end();
      return validated;
    });
    expect(result.institution?.entityId).toBe(UNIVERSITY);

    const [request] = byName('GET /shop');
    const [callback] = byName('affiliation-validation callback');
    const [token] = byName('POST');
    const [keys] = byName('GET');
    expect(callback?.parentSpanContext?.spanId).toBe(request?.spanContext().spanId);
    expect(token?.parentSpanContext?.spanId).toBe(callback?.spanContext().spanId);
    expect(keys?.parentSpanContext?.spanId).toBe(callback?.spanContext().spanId);
    expect(callback?.spanContext().traceId).toBe(request?.spanContext().traceId);
    // Each request runs with its own span active, so an HTTP instrumentation nests under it.
    expect(activeAtFetch.get(op.endpoints.token)).toBe(token?.spanContext().spanId);
    expect(activeAtFetch.get(op.endpoints.jwks)).toBe(keys?.spanContext().spanId);

    const expected = {
      'affiliation_validation.outcome': 'success',
      'affiliation_validation.flow': 'code',
      'affiliation_validation.affiliation': 'student',
      'affiliation_validation.identifier': 'transient',
      'affiliation_validation.institution': UNIVERSITY,
    };
    // The start has no span of its own, and a successful start adds nothing to the shop's.
    expect(byName('affiliation-validation start')).toEqual([]);
    expect(
      telemetry
        .spans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['GET', 'GET /shop', 'POST', 'affiliation-validation callback']);
    expect(request?.events).toEqual([]);
    expect(callback?.attributes).toEqual(expected);
    expect(callback?.status.code).toBe(0);
    expect(token?.kind).toBe(2); // CLIENT
    const tokenUrl = new URL(op.endpoints.token);
    expect(token?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'server.address': tokenUrl.hostname,
      'server.port': Number(tokenUrl.port),
      'url.full': op.endpoints.token,
      'http.response.status_code': 200,
    });
    expect(keys?.attributes).toMatchObject({
      'url.full': op.endpoints.jwks,
      'http.response.status_code': 200,
      'affiliation_validation.keys.forced': false,
    });

    expect(await validations(expected)).toBe(1);
    expect((await validationPoints()).length).toBe(before + 1);
    const starts = await telemetry.points('affiliation_validation.starts');
    expect(starts.map((p) => ({ ...p, attributes: sorted(p.attributes) }))).toContainEqual({
      attributes: sorted(expected),
      value: 1,
    });
    const durations = await telemetry.points('affiliation_validation.validation.duration');
    const mine = durations.find((p) => p.attributes['affiliation_validation.institution'] === UNIVERSITY);
    const histogram = mine?.value as { count: number; sum: number } | undefined;
    expect(histogram?.count).toBe(1);
    // The shopper's time at the (scripted) service: more than nothing, less than the test.
    expect(histogram?.sum).toBeGreaterThan(0);
    expect(histogram?.sum).toBeLessThan(20);
    // The token request and the key fetch are spans only: their duration as a metric is the HTTP
    // client instrumentation's, which would count them twice under the same name.
    expect(await telemetry.points('http.client.request.duration')).toEqual([]);
  });

  it('the id_token flow: a callback span with flow id_token and no token request', async () => {
    const rp = await client('id_token');
    const { url } = await rp.createAuthorizationRequest({ affiliation: 'member', identifier: 'persistent' });
    await rp.validateCallback(await op.authorize(url));
    const [callback] = byName('affiliation-validation callback');
    expect(callback?.attributes).toMatchObject({
      'affiliation_validation.flow': 'id_token',
      'affiliation_validation.affiliation': 'member',
      'affiliation_validation.identifier': 'persistent',
      'affiliation_validation.outcome': 'success',
    });
    expect(byName('POST')).toHaveLength(0);
  });
});

describe('failures, one of each kind', () => {
  it('the service refused (ProviderError): error span and counter with the error code, the hinted institution', async () => {
    const rp = await client('code', op, new Set([UNIVERSITY]));
    op.scriptLogin({ consent: false });
    const { url } = await rp.createAuthorizationRequest({ affiliation: 'student', idpHint: UNIVERSITY });
    const error = await rp.validateCallback(await op.authorize(url)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    const code = (error as ProviderError).code;
    const [callback] = byName('affiliation-validation callback');
    expect(callback?.status.code).toBe(2);
    expect(callback?.attributes).toMatchObject({
      'affiliation_validation.outcome': 'error',
      'error.type': code,
      'affiliation_validation.affiliation': 'student',
      'affiliation_validation.institution': UNIVERSITY,
    });
    expect(
      await validations({
        'affiliation_validation.outcome': 'error',
        'error.type': code,
        'affiliation_validation.flow': 'code',
        'affiliation_validation.affiliation': 'student',
        'affiliation_validation.identifier': 'transient',
        'affiliation_validation.institution': UNIVERSITY,
      }),
    ).toBe(1);
  });

  it('a stale hint (the service answers entity_id error): counted in affiliation_validation.stale_hints by institution', async () => {
    const GONE = 'https://idp.gone.example/idp';
    const rp = await client('code', op, new Set([GONE, UNIVERSITY]));
    const stale = async () => {
      const points = await telemetry.points('affiliation_validation.stale_hints');
      return Number(
        points.find((p) => p.attributes['affiliation_validation.institution'] === GONE)?.value ?? 0,
      );
    };
    const before = await stale();
    const { url } = await rp.createAuthorizationRequest({ affiliation: 'student', idpHint: GONE });
    const error = await rp.validateCallback(await op.authorize(url)).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'unknown_institution' });
    expect(await stale()).toBe(before + 1);
    // Another refusal of a hinted validation is no stale hint.
    op.scriptLogin({ consent: false });
    const again = await rp.createAuthorizationRequest({ affiliation: 'student', idpHint: UNIVERSITY });
    expect(await rp.validateCallback(await op.authorize(again.url)).catch((e: unknown) => e)).toMatchObject({
      reason: 'consent_denied',
    });
    const points = await telemetry.points('affiliation_validation.stale_hints');
    expect(points.map((p) => p.attributes)).toEqual([{ 'affiliation_validation.institution': GONE }]);
  });

  it('an RP-side rejection before any transaction (ValidationError unknown_state): no affiliation attributes', async () => {
    const rp = await client();
    const error = await rp
      .validateCallback(`${REDIRECT_URI}?code=abc&state=never-started`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const [callback] = byName('affiliation-validation callback');
    const expected = {
      'affiliation_validation.outcome': 'error',
      'error.type': 'unknown_state',
      'affiliation_validation.institution': '_OTHER',
    };
    expect(callback?.attributes).toEqual(expected);
    expect(await validations(expected)).toBe(1);
  });

  it("an RP-side rejection of the service's claims (ValidationError transaction_id_invalid)", async () => {
    const bad = await TestProvider.start({
      idTokenClaims: (claims) => ({ ...claims, transaction_id: 'not-a-uuid' }),
    });
    try {
      const rp = await client('code', bad);
      const { url } = await rp.createAuthorizationRequest({ affiliation: 'member' });
      const error = await rp.validateCallback(await bad.authorize(url)).catch((e: unknown) => e);
      expect((error as ValidationError).code).toBe('transaction_id_invalid');
      const [callback] = byName('affiliation-validation callback');
      expect(callback?.attributes).toMatchObject({
        'affiliation_validation.outcome': 'error',
        'error.type': 'transaction_id_invalid',
        'affiliation_validation.affiliation': 'member',
      });
      // The token request itself went fine, to this provider's endpoint (not the one of the tests before).
      expect(byName('POST')[0]?.attributes).toMatchObject({
        'http.response.status_code': 200,
        'url.full': bad.endpoints.token,
        'server.port': Number(new URL(bad.endpoints.token).port),
      });
    } finally {
      await bad.close();
    }
  });

  it('the service unreachable at the token endpoint (TransportError): the token span carries the status', async () => {
    const rp = await client();
    const { url } = await rp.createAuthorizationRequest({ affiliation: 'student' });
    const callback = await op.authorize(url);
    tokenStatus = 503;
    const error = await rp.validateCallback(callback).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    const [token] = byName('POST');
    // The code the callback reports for it (docs/errors.md), not the bare status.
    expect(token?.attributes).toMatchObject({
      'http.response.status_code': 503,
      'error.type': 'http_status',
      'url.full': op.endpoints.token,
    });
    expect(token?.status.code).toBe(2);
    const [span] = byName('affiliation-validation callback');
    expect(span?.attributes['error.type']).toBe((error as { code: string }).code);
  });

  it('a start refused up front (ScopeError): no span, an event on the shop request span, counted as a failed start', async () => {
    const rp = await client('code', op, new Set([UNIVERSITY]));
    const shop = trace.getTracer('shop');
    const error = await shop.startActiveSpan('POST /shop/validate', async (request) => {
      try {
        return await rp
          .createAuthorizationRequest({ affiliation: 'student', scopes: ['employee'], idpHint: UNIVERSITY })
          .catch((e: unknown) => e);
      } finally {
        request.end();
      }
    });
    expect(error).toBeInstanceOf(ScopeError);
    const code = (error as ScopeError).code;
    const expected = {
      'affiliation_validation.outcome': 'error',
      'error.type': code,
      'affiliation_validation.flow': 'code',
      'affiliation_validation.affiliation': 'student',
      'affiliation_validation.identifier': 'transient',
      'affiliation_validation.institution': UNIVERSITY,
    };
    expect(telemetry.spans().map((s) => s.name)).toEqual(['POST /shop/validate']);
    const [request] = byName('POST /shop/validate');
    expect(request?.events.map((e) => ({ name: e.name, attributes: e.attributes }))).toEqual([
      { name: 'affiliation_validation.start', attributes: expected },
    ]);
    // The shop's span is the shop's: its status is its own to set.
    expect(request?.status.code).toBe(0);
    const starts = await telemetry.points('affiliation_validation.starts');
    expect(starts.map((p) => ({ ...p, attributes: sorted(p.attributes) }))).toContainEqual({
      attributes: sorted(expected),
      value: 1,
    });
  });

  it('a start refused for what a form post put in: no affiliation or institution the SDK did not check', async () => {
    const rp = await client('code', op, new Set([UNIVERSITY]));
    const posted = 'https://attacker.example/<script>';
    const shop = trace.getTracer('shop');
    const attempts = await shop.startActiveSpan('POST /shop/validate', async (request) => {
      try {
        return [
          // An entityID the hint feed does not know, then a value that is no affiliation.
          await rp
            .createAuthorizationRequest({ affiliation: 'student', idpHint: posted })
            .catch((e: unknown) => e),
          await rp
            .createAuthorizationRequest({
              affiliation: posted as 'student',
              identifier: posted as 'transient',
              idpHint: UNIVERSITY,
            })
            .catch((e: unknown) => e),
        ];
      } finally {
        request.end();
      }
    });
    expect((attempts[0] as ValidationError).code).toBe('unknown_hint');
    expect(attempts[1]).toBeInstanceOf(ScopeError);
    const [request] = byName('POST /shop/validate');
    expect(request?.events.map((e) => e.attributes)).toEqual([
      {
        'affiliation_validation.outcome': 'error',
        'error.type': 'unknown_hint',
        'affiliation_validation.flow': 'code',
        'affiliation_validation.affiliation': 'student',
        'affiliation_validation.identifier': 'transient',
        'affiliation_validation.institution': '_OTHER',
      },
      {
        'affiliation_validation.outcome': 'error',
        'error.type': (attempts[1] as ScopeError).code,
        'affiliation_validation.flow': 'code',
        'affiliation_validation.institution': UNIVERSITY,
      },
    ]);
    const starts = JSON.stringify(await telemetry.points('affiliation_validation.starts'));
    expect(starts).not.toContain('attacker.example');
  });

  it("a shop's hint lookup that throws: the start rejects (it does not throw), with no institution traced", async () => {
    const broken = {
      has: (): boolean => {
        throw new Error('lookup down');
      },
    };
    const rp = await client('code', op, broken as unknown as Set<string>);
    let returned: Promise<unknown> | undefined;
    expect(() => {
      returned = rp.createAuthorizationRequest({ affiliation: 'faculty+staff', idpHint: UNIVERSITY });
    }).not.toThrow();
    await expect(returned).rejects.toThrow('lookup down');
    const starts = await telemetry.points('affiliation_validation.starts');
    const staff = starts.filter(
      (p) => p.attributes['affiliation_validation.affiliation'] === 'faculty+staff',
    );
    expect(staff.map((p) => p.attributes['affiliation_validation.institution'])).toEqual(['_OTHER']);
  });

  it('a start refused outside any span: counted, nothing else recorded', async () => {
    const rp = await client();
    const before = await telemetry.points('affiliation_validation.starts');
    const count = (points: typeof before) =>
      points.find((p) => p.attributes['affiliation_validation.affiliation'] === 'employee')?.value ?? 0;
    const error = await rp
      .createAuthorizationRequest({ affiliation: 'employee', identifier: 'persistent', scopes: ['student'] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScopeError);
    expect(telemetry.spans()).toEqual([]);
    expect(count(await telemetry.points('affiliation_validation.starts'))).toBe(
      (count(before) as number) + 1,
    );
  });
});
