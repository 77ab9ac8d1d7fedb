import { describe, expect, it } from 'vitest';
import { client, HttpResponse, http, ROOT, record, type Seen, useServer, wpError } from './helpers.js';

const server = useServer();

/** Records every request under the plugin namespaces and answers `{ ok: true, route }`. */
function pluginSite() {
  const seen: Seen[] = [];
  for (const ns of [
    'forms/v1',
    'kb-ai-search/v1',
    'kb-settings/v1',
    'kb-notifications/v1',
    'kb/v1',
    'kb-ai-article-writer/v1',
    'layoutblocks/v1',
    'oauth_idp_intiate',
  ]) {
    server.use(
      http.all(`${ROOT}/${ns}/*`, async ({ request }) => {
        await record(request, seen);
        return HttpResponse.json({ ok: true, route: new URL(request.url).pathname.replace('/wp-json', '') });
      }),
    );
  }
  return seen;
}

const calls = (seen: Seen[]) => seen.map((s) => `${s.method} ${s.url.pathname.replace('/wp-json', '')}`);

describe('forms/v1', () => {
  it('covers every contact-form route', async () => {
    const seen = pluginSite();
    const { forms } = client();
    await forms.list({ per_page: 5 });
    await forms.create({ title: 'Contact' });
    await forms.get(3);
    await forms.update(3, { title: 'Contact us' }, { method: 'PATCH' });
    await forms.delete(3, { force: true });
    const submitted = await forms.feedback(3, { name: 'Ann', message: 'Hi' });
    await forms.feedbackSchema(3);
    await forms.refill(3);
    expect(calls(seen)).toEqual([
      'GET /forms/v1/contact-forms',
      'POST /forms/v1/contact-forms',
      'GET /forms/v1/contact-forms/3',
      'PATCH /forms/v1/contact-forms/3',
      'DELETE /forms/v1/contact-forms/3',
      'POST /forms/v1/contact-forms/3/feedback',
      'GET /forms/v1/contact-forms/3/feedback/schema',
      'GET /forms/v1/contact-forms/3/refill',
    ]);
    expect(submitted).toEqual({ ok: true, route: '/forms/v1/contact-forms/3/feedback' });
    expect(seen[0]?.url.searchParams.get('per_page')).toBe('5');
    expect(seen[4]?.url.searchParams.get('force')).toBe('true');
    expect(seen[5]?.body).toEqual({ name: 'Ann', message: 'Hi' });
  });
});

describe('knowledge-base namespaces', () => {
  it('covers kb-ai-search/v1', async () => {
    const seen = pluginSite();
    const { kbAiSearch } = client();
    await kbAiSearch.startConversation({ question: 'How?' });
    await kbAiSearch.updateConversation({ id: 'c1', message: 'More' });
    await kbAiSearch.checkExistingConversation({ id: 'c1' });
    await kbAiSearch.updateSettings();
    await kbAiSearch.tools();
    await kbAiSearch.trainAi();
    await kbAiSearch.onlineStatus();
    await kbAiSearch.status();
    await kbAiSearch.askAi({ q: 'scope' });
    await kbAiSearch.rateLimitTest();
    await kbAiSearch.clearTrainingData({}, { method: 'PUT' });
    expect(calls(seen)).toEqual([
      'POST /kb-ai-search/v1/start-conversation',
      'POST /kb-ai-search/v1/update-conversation',
      'GET /kb-ai-search/v1/check-existing-conversation',
      'GET /kb-ai-search/v1/updatesettings',
      'GET /kb-ai-search/v1/tools',
      'GET /kb-ai-search/v1/trainai',
      'GET /kb-ai-search/v1/onlinestatus',
      'GET /kb-ai-search/v1/status',
      'GET /kb-ai-search/v1/askai',
      'GET /kb-ai-search/v1/ratelimittest',
      'PUT /kb-ai-search/v1/cleartrainingdata',
    ]);
    expect(seen[8]?.url.searchParams.get('q')).toBe('scope');
  });

  it('covers kb-settings/v1, kb-notifications/v1 (dismiss id), kb/v1, kb-ai-article-writer/v1 and the SSO callback', async () => {
    const seen = pluginSite();
    const docs = client();
    await docs.kbSettings.get();
    await docs.kbSettings.update({ color: 'blue' });
    await docs.kbSettings.tabGet({ tab: 'general' }, { method: 'PATCH' });
    await docs.kbSettings.tabSet({ tab: 'general', values: {} });
    await docs.kbNotifications.get();
    await docs.kbNotifications.dismiss('n-17');
    await docs.kbNotifications.dismiss('all', { method: 'PUT' });
    await docs.kb.serverStats();
    await docs.kbArticleWriter.status();
    await docs.kbArticleWriter.generateArticle({ topic: 'SSO' });
    await docs.oauthIdp.callback({ code: 'x' });
    expect(calls(seen)).toEqual([
      'GET /kb-settings/v1/get',
      'POST /kb-settings/v1/update',
      'PATCH /kb-settings/v1/tabget',
      'POST /kb-settings/v1/tabset',
      'GET /kb-notifications/v1/get',
      'POST /kb-notifications/v1/dismiss',
      'PUT /kb-notifications/v1/dismiss',
      'POST /kb/v1/server_stats',
      'GET /kb-ai-article-writer/v1/status',
      'POST /kb-ai-article-writer/v1/generate-article',
      'GET /oauth_idp_intiate/mooidccallback',
    ]);
    expect(seen[5]?.body).toEqual({ id: 'n-17' });
    expect(seen[6]?.body).toEqual({ id: 'all' });
  });

  it('reports a namespace a stock WordPress lacks as rest_no_route', async () => {
    server.use(
      http.get(`${ROOT}/kb-settings/v1/get`, () =>
        wpError('rest_no_route', 'No route was found matching the URL and request method.', 404),
      ),
    );
    await expect(client().kbSettings.get()).rejects.toMatchObject({ code: 'rest_no_route', status: 404 });
  });
});

describe('layoutblocks/v1', () => {
  it('covers favorites, all, layouts, sections and a layout by name', async () => {
    const seen = pluginSite();
    const { layouts } = client();
    await layouts.favorites();
    await layouts.updateFavorites({ favorites: ['hero'] });
    await layouts.deleteFavorites({ name: 'hero' });
    await layouts.all();
    await layouts.list();
    await layouts.sections();
    await layouts.get('Hero_2');
    expect(calls(seen)).toEqual([
      'GET /layoutblocks/v1/layouts/favorites',
      'PATCH /layoutblocks/v1/layouts/favorites',
      'DELETE /layoutblocks/v1/layouts/favorites',
      'GET /layoutblocks/v1/layouts/all',
      'GET /layoutblocks/v1/layouts',
      'GET /layoutblocks/v1/sections',
      'GET /layoutblocks/v1/layouts/Hero_2',
    ]);
  });
});

describe('oembed/1.0', () => {
  it('embeds and proxies with their parameters', async () => {
    const seen: Seen[] = [];
    server.use(
      http.get(`${ROOT}/oembed/1.0/:route`, async ({ request }) => {
        await record(request, seen);
        return HttpResponse.json({
          version: '1.0',
          type: 'rich',
          html: '<iframe></iframe>',
          width: 600,
          height: 338,
        });
      }),
    );
    const docs = client();
    const embed = await docs.oembed.embed({ url: 'https://docs.example.org/guide/', maxwidth: 400 });
    expect(embed.type).toBe('rich');
    await docs.oembed.proxy({
      url: 'https://video.example/v/1',
      maxwidth: 640,
      maxheight: 360,
      discover: false,
    });
    expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({
      url: 'https://docs.example.org/guide/',
      maxwidth: '400',
    });
    expect(Object.fromEntries(seen[1]!.url.searchParams)).toEqual({
      url: 'https://video.example/v/1',
      maxwidth: '640',
      maxheight: '360',
      discover: 'false',
    });
  });

  it('returns the XML format as text', async () => {
    server.use(
      http.get(
        `${ROOT}/oembed/1.0/embed`,
        () =>
          new HttpResponse('<?xml version="1.0"?><oembed><type>rich</type></oembed>', {
            headers: { 'content-type': 'text/xml' },
          }),
      ),
    );
    const xml = await client().oembed.embed({ url: 'https://docs.example.org/', format: 'xml' });
    expect(xml).toContain('<type>rich</type>');
  });
});
