/**
 * Shared smoke test of the three example shops: each is started on 127.0.0.1 against the real
 * test provider and driven by the scripted browser (redirects, cookies, forms, the fragment relay).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkToOrigin } from '../../src/cli/demo-runner.js';
import { Browser, type BrowserPage, type BrowserStep } from '../../src/testing/browser.js';
import { type RunningTestProvider, TestProvider } from '../../src/testing.js';

type Provider = RunningTestProvider;

export interface ShopStartOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  institutions: { entityId: string; name: string }[];
  enableIdTokenFlow: boolean;
  log: (message: string) => void;
}

export type StartExample = (
  options: ShopStartOptions,
) => Promise<{ url: string; redirectUri: string; close(): Promise<void> }>;

const SECRET = 'example-client-secret-3c81f0d2a';
const UNIVERSITY = 'https://idp.university.example/idp/shibboleth';
const COLLEGE = 'https://login.college.example/saml2/idp';
/** In the shop's picker but unknown to the service: a stale entityID. */
const STALE = 'https://idp.renamed.example/old-entity';

function dd(page: BrowserPage, id: string): string | undefined {
  return new RegExp(`<dd id="${id}">([^<]*)</dd>`).exec(page.body)?.[1];
}

export function describeExampleShop(name: string, start: StartExample): void {
  describe(`${name} example`, () => {
    let op: Provider;
    let shop: Awaited<ReturnType<StartExample>>;
    const logs: string[] = [];
    const steps: BrowserStep[] = [];

    beforeAll(async () => {
      op = await TestProvider.start({ clients: [] });
      shop = await start({
        issuer: op.issuer,
        clientId: `${name}-shop`,
        clientSecret: SECRET,
        institutions: [
          { entityId: UNIVERSITY, name: 'Example University' },
          { entityId: COLLEGE, name: 'Example <College> & "Friends"' },
          { entityId: STALE, name: 'Renamed Institute' },
        ],
        enableIdTokenFlow: true,
        log: (m) => logs.push(m),
      });
      op.registerClient({
        clientId: `${name}-shop`,
        clientSecret: SECRET,
        redirectUris: [shop.redirectUri],
        allowedScopes: ['student', 'member'],
      });
      op.registerInstitution({ entityId: COLLEGE, name: 'Example College' });
    });
    afterAll(async () => {
      await shop?.close();
      await op?.close();
    });

    function browser(): Browser {
      return new Browser({ onStep: (s) => steps.push(s) });
    }

    async function validate(
      b: Browser,
      query: Record<string, string>,
      choose?: string,
    ): Promise<{ page: BrowserPage; relayed: boolean }> {
      const home = await b.open(`${shop.url}/`);
      expect(home.status).toBe(200);
      const form = home.forms[0];
      expect(form?.action).toBe(`${shop.url}/start`);
      let relayed = false;
      const first = await b.submit(form!, query);
      const page = await walkToOrigin(b, first, shop.url, {
        ...(choose ? { choose } : {}),
        onPage: (e) => {
          if (e.kind === 'relay') relayed = true;
        },
      });
      return { page, relayed };
    }

    it('completes the code flow: institution chosen at the service, result shown without tokens', async () => {
      const b = browser();
      const { page, relayed } = await validate(
        b,
        { affiliation: 'student', institution: '', flow: 'code' },
        UNIVERSITY,
      );
      expect(page.status, page.body).toBe(200);
      expect(relayed).toBe(false);
      // Post/Redirect/Get: the result is shown from the session, not on the callback URL.
      expect(page.url).toBe(`${shop.url}/discount`);
      expect(
        steps.some((s) => s.url.startsWith(shop.redirectUri) && s.location === `${shop.url}/discount`),
      ).toBe(true);
      expect(dd(page, 'affiliation')).toBe('student');
      expect(dd(page, 'transaction')).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
      expect(page.body).not.toMatch(/eyJ[A-Za-z0-9_-]+\./);
      expect(page.body).not.toContain(SECRET);
      // The single-use transaction cookie was set on /start and replaced by the callback with its
      // small "used" marker (a reload is then answered replayed_transaction); and the shop's session.
      expect(b.cookieNames(shop.url)).toEqual(['av_tx_0', 'shop_session']);
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    });

    it('completes the id_token flow through the fragment relay, with the institution hint asserted', async () => {
      const b = browser();
      const { page, relayed } = await validate(b, {
        affiliation: 'student',
        institution: COLLEGE,
        flow: 'id_token',
      });
      expect(relayed).toBe(true);
      expect(page.status, page.body).toBe(200);
      expect(dd(page, 'affiliation')).toBe('student');
      // The picker's name, HTML-escaped.
      expect(dd(page, 'institution')).toBe('Example &lt;College&gt; &amp; &quot;Friends&quot;');
      expect(page.body).not.toMatch(/eyJ[A-Za-z0-9_-]+\./);
      const relayPost = steps.filter((s) => s.reason === 'relay').at(-1);
      expect(relayPost).toMatchObject({
        method: 'POST',
        url: shop.redirectUri,
        status: 303,
        location: `${shop.url}/discount`,
      });
    });

    it('skips the selection page when the shop sends a hint (code flow)', async () => {
      const b = browser();
      const headings: string[] = [];
      const home = await b.open(`${shop.url}/`);
      const first = await b.submit(home.forms[0]!, { affiliation: 'member', institution: UNIVERSITY });
      const page = await walkToOrigin(b, first, shop.url, { onPage: (e) => headings.push(e.heading) });
      expect(dd(page, 'affiliation')).toBe('member');
      expect(dd(page, 'institution')).toBe('Example University');
      expect(headings.some((h) => /select/i.test(h))).toBe(false);
    });

    it('shows the access_denied message when the shopper refuses consent', async () => {
      op.scriptLogin({ consent: false });
      const b = browser();
      const { page } = await validate(b, { affiliation: 'student', institution: UNIVERSITY, flow: 'code' });
      expect(page.status).toBe(400);
      // The service's "User Consent Denied": the next step, not a guess between refusal and consent.
      expect(page.body).toContain(
        'The shop can check your affiliation only with your consent. To get the offer, start again and agree to share your affiliation.',
      );
      expect(page.body).toContain('Reference: access_denied');
      expect(page.headers.get('cache-control')).toBe('no-store');
      // Only the spent transaction's "used" marker.
      expect(b.cookieNames(shop.url)).toEqual(['av_tx_0']);
      expect(logs.some((l) => l.includes('access_denied'))).toBe(true);
    });

    it('shows the access_denied message when the institution does not hold the affiliation (id_token flow)', async () => {
      op.scriptLogin({ affiliations: ['employee'] });
      const b = browser();
      const { page } = await validate(b, {
        affiliation: 'student',
        institution: UNIVERSITY,
        flow: 'id_token',
      });
      expect(page.status).toBe(400);
      expect(page.body).toContain('Reference: access_denied');
    });

    it('a stale institution hint the service cannot resolve (entity_id error): one click starts again without it', async () => {
      const b = browser();
      const { page } = await validate(b, { affiliation: 'student', institution: STALE, flow: 'code' });
      expect(page.status).toBe(400);
      expect(page.body).toContain('Reference: access_denied');
      expect(page.body).toContain('did not recognise the institution that was chosen');
      const restart = page.forms.find((f) => f.action === `${shop.url}/start`);
      expect(restart?.fields.find((f) => f.name === 'institution')?.value).toBe('');
      const next = await walkToOrigin(b, await b.submit(restart!), shop.url, { choose: UNIVERSITY });
      expect(next.status, next.body).toBe(200);
      expect(dd(next, 'affiliation')).toBe('student');
    });

    it('shows the shop-side message for invalid_scope', async () => {
      const b = browser();
      // The client may ask for student and member only.
      const { page } = await validate(b, { affiliation: 'employee', institution: '', flow: 'code' });
      expect(page.status).toBe(400);
      // The service's "Requested validation not allowed." (spec 7.2): the shop's to fix, not the shopper's.
      expect(page.body).toContain('This shop may not check this kind of affiliation');
      expect(page.body).toContain('Please contact the shop');
      expect(page.body).toContain('Reference: invalid_scope');
    });

    it('refuses an institution that is not in the picker before any redirect', async () => {
      const b = browser();
      const home = await b.open(`${shop.url}/`);
      const page = await b.submit(home.forms[0]!, {
        affiliation: 'student',
        institution: 'https://evil.example/idp',
      });
      expect(page.status).toBe(400);
      expect(new URL(page.url).origin).toBe(shop.url);
      expect(page.body).toContain('The selected institution is not available');
    });

    /** Start a code-flow validation as the shop's own page would, without following redirects. */
    async function startByFetch(headers: Record<string, string> = { origin: shop.url }) {
      const res = await fetch(`${shop.url}/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({
          affiliation: 'student',
          institution: UNIVERSITY,
          flow: 'code',
        }).toString(),
        redirect: 'manual',
      });
      const txCookie = res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; ');
      return { res, location: res.headers.get('location') ?? '', txCookie };
    }

    function sessionCookieOf(res: Response): string | undefined {
      const line = res.headers.getSetCookie().find((c) => c.startsWith('shop_session='));
      return line?.split(';')[0];
    }

    it('refuses to replay a callback URL, in the same browser or another', async () => {
      const { location, txCookie } = await startByFetch();
      const callbackUrl = await op.authorize(location);
      const first = await fetch(callbackUrl, { headers: { cookie: txCookie }, redirect: 'manual' });
      expect(first.status).toBe(303);
      expect(first.headers.get('location')).toBe('/discount');
      for (const cookie of [txCookie, '']) {
        const again = await fetch(callbackUrl, { headers: { cookie }, redirect: 'manual' });
        expect(again.status).toBe(400);
        expect(sessionCookieOf(again)).toBeUndefined();
        expect(await again.text()).not.toContain('id="affiliation"');
      }
    });

    it('binds the result to the browser that started the validation (a callback URL carried elsewhere is refused)', async () => {
      const { location, txCookie } = await startByFetch();
      expect(txCookie).toMatch(/^av_tx_/);
      const callbackUrl = await op.authorize(location);
      // Another browser (no transaction cookie) opens the victim's / seller's callback URL.
      const elsewhere = await fetch(callbackUrl, { redirect: 'manual' });
      expect(elsewhere.status).toBe(400);
      expect(sessionCookieOf(elsewhere)).toBeUndefined();
      expect(await elsewhere.text()).toContain('Reference: unknown_state');
    });

    it('puts the result into a fresh session (no fixation) shown only to that browser, never cached', async () => {
      const { location, txCookie } = await startByFetch();
      const callbackUrl = await op.authorize(location);
      const fixed = 'shop_session=attacker-chosen-id';
      const back = await fetch(callbackUrl, {
        headers: { cookie: `${txCookie}; ${fixed}` },
        redirect: 'manual',
      });
      expect(back.status).toBe(303);
      expect(back.headers.get('cache-control')).toBe('no-store');
      const session = sessionCookieOf(back);
      expect(session).toMatch(/^shop_session=[A-Za-z0-9_-]{43}$/);
      expect(session).not.toBe(fixed);
      const attrs = back.headers.getSetCookie().find((c) => c.startsWith('shop_session=')) ?? '';
      expect(attrs).toMatch(/; HttpOnly/);
      expect(attrs).toMatch(/; SameSite=Lax/);
      expect(attrs).toMatch(/; Path=\//);

      const mine = await fetch(`${shop.url}/discount`, { headers: { cookie: session ?? '' } });
      expect(mine.status).toBe(200);
      expect(mine.headers.get('cache-control')).toBe('no-store');
      expect(await mine.text()).toContain('<dd id="affiliation">student</dd>');
      for (const cookie of [fixed, '', 'shop_session=']) {
        const other = await fetch(`${shop.url}/discount`, { headers: { cookie } });
        expect(other.status).toBe(403);
        expect(await other.text()).not.toContain('id="affiliation"');
      }
    });

    it('starts a validation only on a same-origin POST (CSRF on the start route)', async () => {
      for (const headers of <Record<string, string>[]>[
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { 'sec-fetch-site': 'cross-site' },
        {},
      ]) {
        const { res, location, txCookie } = await startByFetch(headers);
        expect(res.status, JSON.stringify(headers)).toBe(403);
        expect(location).toBe('');
        expect(txCookie).toBe('');
      }
      const viaFetchMetadata = await startByFetch({ 'sec-fetch-site': 'same-origin' });
      expect(viaFetchMetadata.res.status).toBe(303);
      // A link or image on another site cannot start one with GET either.
      const get = await fetch(`${shop.url}/start?affiliation=student&flow=code`, { redirect: 'manual' });
      expect(get.status).toBeGreaterThanOrEqual(400);
      expect(get.headers.get('location')).toBeNull();
      expect(get.headers.getSetCookie()).toEqual([]);
    });

    it('does not reflect a forged provider error code into the page or the log', async () => {
      const { location, txCookie } = await startByFetch();
      const state = new URL(location).searchParams.get('state') ?? '';
      const forged = `${shop.redirectUri}?error=${encodeURIComponent('Your_account_is_locked_call_0800')}&state=${state}`;
      const res = await fetch(forged, { headers: { cookie: txCookie } });
      expect(res.status).toBe(400);
      const body = await res.text();
      expect(body).not.toContain('locked');
      expect(body).toContain('Reference: provider_error');
      expect(logs.join('\n')).not.toContain('locked');
    });

    it('answers a callback POST that is not a small form with a 4xx page, without hanging', async () => {
      const json = await fetch(shop.redirectUri, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ state: 'x', code: 'y' }),
      });
      expect(json.status).toBeGreaterThanOrEqual(400);
      expect(json.status).toBeLessThan(500);
      const huge = await fetch(shop.redirectUri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `state=${'a'.repeat(100_000)}`,
      });
      expect(huge.status).toBeGreaterThanOrEqual(400);
      expect(huge.status).toBeLessThan(500);
      const forged = await fetch(shop.redirectUri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'id_token=eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.&state=forged',
      });
      expect(forged.status).toBe(400);
      expect(await forged.text()).toContain('no longer valid');
    });

    it('serves the relay page for a callback without parameters, and never logs secrets or tokens', async () => {
      const b = browser();
      const relay = await b.open(shop.redirectUri);
      expect(relay.status).toBe(200);
      expect(relay.headers.get('content-security-policy')).toMatch(/script-src 'nonce-/);
      for (const line of logs) {
        expect(line).not.toContain(SECRET);
        expect(line).not.toMatch(/eyJ[A-Za-z0-9_-]+\./);
      }
    });
  });
}
