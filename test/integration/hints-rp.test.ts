import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HintFeed } from '../../src/hints.js';
import { AffiliationClient, MemoryTransactionStore, ValidationError } from '../../src/index.js';
import {
  DEFAULT_TEST_CLIENT,
  DEFAULT_TEST_INSTITUTIONS,
  type RunningTestProvider,
  startTestProvider,
} from '../../src/testing.js';
import { type FeedServer, startFeedServer } from '../hints/feed-server.js';

// The feed publishes the provider's institutions; one of them is then withdrawn from the feed.
const [UNIVERSITY, COLLEGE] = DEFAULT_TEST_INSTITUTIONS.map((i) => i.entityId);

let op: RunningTestProvider;
let feeds: FeedServer;
beforeAll(async () => {
  op = await startTestProvider();
  feeds = await startFeedServer();
});
afterAll(async () => {
  await op.close();
  await feeds.close();
});

describe('HintFeed as the hints of AffiliationClient', () => {
  it('refuses an idpHint the feed does not list before any redirect, and follows refreshes', async () => {
    feeds.route('/rp.json', {
      kind: 'json',
      body: Object.fromEntries(DEFAULT_TEST_INSTITUTIONS.map((i) => [i.entityId, { en: i.name }])),
      etag: '"1"',
    });
    const hints = await HintFeed.open({ sources: [feeds.url('/rp.json')] });
    expect((await hints.refresh()).status).toBe('updated');
    const client = await AffiliationClient.discover({
      issuer: op.issuer,
      clientId: DEFAULT_TEST_CLIENT.clientId,
      clientSecret: DEFAULT_TEST_CLIENT.clientSecret,
      redirectUri: DEFAULT_TEST_CLIENT.redirectUris[0]!,
      // A bare callback URL below: a store that binds to the browser would refuse it.
      transactions: new MemoryTransactionStore({ bindToBrowser: false }),
      hints,
    });

    const { url } = await client.createAuthorizationRequest({ affiliation: 'student', idpHint: COLLEGE! });
    expect(new URL(url).searchParams.get('aarc_idp_hint')).toBe(COLLEGE);
    const result = await client.validateCallback(await op.authorize(url));
    expect(result.institution?.entityId).toBe(COLLEGE);

    const forged = client.createAuthorizationRequest({
      affiliation: 'student',
      idpHint: 'https://evil.example/idp',
    });
    await expect(forged).rejects.toBeInstanceOf(ValidationError);
    await expect(forged).rejects.toMatchObject({ code: 'unknown_hint' });

    // The feed withdraws the college: the next refresh makes its entityID a refused hint.
    feeds.route('/rp.json', {
      kind: 'json',
      body: { [UNIVERSITY!]: { en: 'Example University' } },
      etag: '"2"',
    });
    const refreshed = await hints.refresh();
    expect(refreshed.removed).toContain(COLLEGE);
    await expect(
      client.createAuthorizationRequest({ affiliation: 'student', idpHint: COLLEGE! }),
    ).rejects.toMatchObject({
      code: 'unknown_hint',
    });
    await expect(
      client.createAuthorizationRequest({ affiliation: 'student', idpHint: UNIVERSITY! }),
    ).resolves.toBeDefined();
  });
});
