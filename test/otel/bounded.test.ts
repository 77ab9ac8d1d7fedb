/**
 * Every attribute of every instrument is bounded by construction, with the real OpenTelemetry SDK's
 * metric reader: what a visitor posts to the start route never becomes a series of its own, and
 * `affiliation_validation.keys.forced` says what the documentation says.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AffiliationClient, MemoryTransactionStore } from '../../src/index.js';
import { DEFAULT_TEST_CLIENT, type RunningTestProvider, TestProvider } from '../../src/testing.js';
import { startTelemetry, type Telemetry } from './harness.js';

const REDIRECT_URI = DEFAULT_TEST_CLIENT.redirectUris[0] as string;
const SHOP = new URL(REDIRECT_URI).origin;
const UNIVERSITY = 'https://idp.university.example/idp/shibboleth';

let telemetry: Telemetry;
let op: RunningTestProvider;
beforeAll(async () => {
  telemetry = startTelemetry();
  op = await TestProvider.start();
});
afterAll(async () => {
  await op.close();
  await telemetry.close();
});
afterEach(() => {
  vi.useRealTimers();
  telemetry.resetSpans();
});

function client(hints?: Set<string>, provider = op) {
  return AffiliationClient.discover({
    issuer: provider.issuer,
    clientId: DEFAULT_TEST_CLIENT.clientId,
    clientSecret: DEFAULT_TEST_CLIENT.clientSecret as string,
    redirectUri: REDIRECT_URI,
    transactions: new MemoryTransactionStore({ bindToBrowser: false }),
    ...(hints ? { hints } : {}),
  });
}

/** A form post to the start route, as a same-origin browser sends it. */
function post(fields: Record<string, string>): Request {
  return new Request(`${SHOP}/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Each data point of the metric as a sorted JSON text of its attributes: one per series. */
async function series(name: string): Promise<Set<string>> {
  const points = await telemetry.points(name);
  return new Set(
    points.map((p) => JSON.stringify(Object.entries(p.attributes).sort(([a], [b]) => a.localeCompare(b)))),
  );
}
const added = (before: Set<string>, after: Set<string>) =>
  [...after].filter((s) => !before.has(s)).map((s) => Object.fromEntries(JSON.parse(s)));

describe('what a visitor posts', () => {
  it('1,000 made-up institutions posted to the start route make one series, whatever the hints', async () => {
    const made = Array.from({ length: 1000 }, (_, i) => `https://idp.made-up-${i}.example/idp`);
    // Without hints every well-formed entityID is sent (the service judges it); with hints each is
    // refused as unknown_hint. Either way the visitor's values stay out of the metrics.
    for (const hints of [undefined, new Set([UNIVERSITY])]) {
      const start = (await client(hints)).startHandler();
      const before = await series('affiliation_validation.starts');
      for (const institution of made) {
        const response = await start(post({ affiliation: 'student', institution }));
        expect(response.status).toBe(hints ? 400 : 303);
      }
      const fresh = added(before, await series('affiliation_validation.starts'));
      expect(fresh).toEqual([
        {
          'affiliation_validation.outcome': hints ? 'error' : 'success',
          ...(hints ? { 'error.type': 'unknown_hint' } : {}),
          'affiliation_validation.flow': 'code',
          'affiliation_validation.affiliation': 'student',
          'affiliation_validation.identifier': 'transient',
          'affiliation_validation.institution': '_OTHER',
        },
      ]);
    }
    // An institution the hints know is a value of its own.
    const start = (await client(new Set([UNIVERSITY]))).startHandler();
    expect((await start(post({ affiliation: 'student', institution: UNIVERSITY }))).status).toBe(303);
    const institutions = (await telemetry.points('affiliation_validation.starts')).map(
      (p) => p.attributes['affiliation_validation.institution'],
    );
    expect(new Set(institutions)).toEqual(new Set(['_OTHER', UNIVERSITY]));
  });

  it('made-up values in every other form field add one series per kind of refusal, at most', async () => {
    const start = (await client()).startHandler({ formFields: ['affiliation', 'identifier', 'institution'] });
    const before = await series('affiliation_validation.starts');
    for (let i = 0; i < 200; i++) {
      await start(post({ affiliation: `made-up-${i}` }));
      await start(post({ affiliation: 'employee', identifier: `made-up-${i}` }));
      await start(post({ affiliation: `made-up-${i}`, identifier: `made-up-${i}`, institution: `x:${i}` }));
    }
    // The start route refuses most of these before a validation starts (nothing counted).
    const fresh = added(before, await series('affiliation_validation.starts'));
    expect(fresh.length).toBeLessThanOrEqual(3);
    expect(JSON.stringify(fresh)).not.toContain('made-up');
  });

  it('callbacks for made-up hints the service refused share one series; an asserted institution is its own', async () => {
    const rp = await client();
    const before = await series('affiliation_validation.validations');
    for (let i = 0; i < 20; i++) {
      const { url } = await rp.createAuthorizationRequest({
        affiliation: 'student',
        idpHint: `https://idp.made-up-${i}.example/idp`,
      });
      // The service cannot resolve the hint: access_denied, "entity_id error".
      await expect(rp.validateCallback(await op.authorize(url))).rejects.toMatchObject({
        code: 'access_denied',
      });
    }
    const { url } = await rp.createAuthorizationRequest({ affiliation: 'student', idpHint: UNIVERSITY });
    await rp.validateCallback(await op.authorize(url));
    const fresh = added(before, await series('affiliation_validation.validations'));
    expect(
      fresh.map((a) => [a['affiliation_validation.outcome'], a['affiliation_validation.institution']]),
    ).toEqual(
      expect.arrayContaining([
        ['error', '_OTHER'],
        ['success', UNIVERSITY],
      ]),
    );
    expect(fresh).toHaveLength(2);
  });
});

describe('affiliation_validation.keys.forced', () => {
  const forced = () =>
    telemetry
      .spans()
      .filter((s) => s.name === 'GET')
      .map((s) => s.attributes['affiliation_validation.keys.forced']);

  it('is false for the first fetch and the routine one after the keys expired, true for a new key', async () => {
    // Only Date is faked: the keys' age is what openid-client and the SDK read from it.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    // A service on the same clock (the shared one keeps the real Date.now).
    const service = await TestProvider.start({ now: () => Date.now() });
    try {
      const rp = await client(undefined, service);
      const validate = async () => {
        const { url } = await rp.createAuthorizationRequest({ affiliation: 'student' });
        await rp.validateCallback(await service.authorize(url));
      };
      await validate();
      expect(forced()).toEqual([false]);
      // Keys held past openid-client's five minutes are fetched again, as a matter of routine.
      vi.setSystemTime(Date.now() + 300_000);
      await validate();
      expect(forced()).toEqual([false, false]);
      // Within the five minutes, a token signed with a key the cache lacks forces a fetch (past the
      // SDK's 10 s between two fetches).
      vi.setSystemTime(Date.now() + 11_000);
      await service.rotateKeys({ keepPrevious: false });
      await validate();
      expect(forced()).toEqual([false, false, true]);
      // The new key is held now: the next validations fetch nothing.
      await validate();
      expect(forced()).toEqual([false, false, true]);
    } finally {
      await service.close();
    }
  });
});
