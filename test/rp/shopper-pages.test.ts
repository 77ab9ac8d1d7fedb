/**
 * The pages the SDK shows a shopper, in the shopper's language, and the stale hint's one-step
 * recovery: the error page's form posts to the start route, which starts again without the hint.
 */
import { describe, expect, it, vi } from 'vitest';
import { OptionsError } from '../../src/core/errors.js';
import { ProviderError, ValidationError } from '../../src/rp/errors.js';
import { fragmentRelayHtml } from '../../src/rp/relay.js';
import { ISSUER, REDIRECT_URI } from '../helpers/op-mock.js';
import { newClient, useOp } from '../helpers/setup.js';

useOp();
const SHOP = new URL(REDIRECT_URI).origin;
const STALE = 'https://idp.renamed.example/idp';
const ok = () => new Response('validated');

function startPost(body: Record<string, string>, headers: Record<string, string> = {}): Request {
  return new Request(`${SHOP}/validate`, {
    method: 'POST',
    headers: {
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    body: new URLSearchParams(body),
  });
}

/** The hidden fields and action of the page's restart form. */
function restartForm(html: string): { action: string; fields: Record<string, string>; button: string } {
  const form =
    /<form method="post" action="([^"]*)">(.*?)<button type="submit">([^<]*)<\/button><\/form>/.exec(html);
  if (form === null) throw new Error(`no restart form in ${html}`);
  const fields = Object.fromEntries(
    [...form[2]!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
  );
  return { action: form[1]!, fields, button: form[3]! };
}

describe('the pages speak the shopper’s language', () => {
  it('callback error page: Accept-Language, <html lang>, the error code; the client’s language wins', async () => {
    const client = await newClient();
    const callback = client.callbackHandler({ onSuccess: ok });
    const request = (lang: string) =>
      new Request(`${REDIRECT_URI}?error=access_denied&error_description=User%20Consent%20Denied`, {
        headers: { 'accept-language': lang },
      });
    const de = await (await callback(request('de-AT,de;q=0.9,en;q=0.5'))).text();
    expect(de).toContain('<html lang="de">');
    expect(de).toContain('<title>Überprüfung fehlgeschlagen</title>');
    expect(de).toContain('Der Shop kann Ihre Zugehörigkeit nur mit Ihrer Einwilligung prüfen.');
    expect(de).toContain('<a href="/">Zurück zum Shop</a>');
    expect(de).toContain('Fehlercode: access_denied');
    const fr = await (await callback(request('fr-CH, fr;q=0.9'))).text();
    expect(fr).toContain('<html lang="fr">');
    expect(fr).toContain('Échec de la vérification');
    const unknown = await (await callback(request('pl, zh;q=0.5'))).text();
    expect(unknown).toContain('<html lang="en">');
    expect(unknown).toContain('The shop can check your affiliation only with your consent.');

    const swedish = await newClient({ language: 'sv' });
    const sv = await (await swedish.callbackHandler({ onSuccess: ok })(request('de'))).text();
    expect(sv).toContain('<html lang="sv">');
    expect(sv).toContain('Verifieringen misslyckades');
    const es = await (
      await swedish.callbackHandler({ onSuccess: ok, language: 'es-MX' })(request('de'))
    ).text();
    expect(es).toContain('<html lang="es-419">');
    expect(es).toContain('La verificación falló');
  });

  it('the start refusal page and the relay page', async () => {
    const client = await newClient();
    const start = client.startHandler();
    const cross = await start(
      startPost({ affiliation: 'student' }, { 'sec-fetch-site': 'cross-site', 'accept-language': 'fr' }),
    );
    expect(cross.status).toBe(403);
    const html = await cross.text();
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('<title>Vérification non démarrée</title>');
    expect(html).toContain('Veuillez recommencer la vérification depuis la page de la boutique.');
    const get = await start(new Request(`${SHOP}/validate`, { headers: { 'accept-language': 'it' } }));
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    expect(await get.text()).toContain('Verifica non avviata');

    const relay = await client.callbackHandler({ onSuccess: ok })(
      new Request(REDIRECT_URI, { headers: { 'accept-language': 'ru' } }),
    );
    const page = await relay.text();
    expect(page).toContain('<html lang="ru">');
    expect(page).toContain('<title>Завершение проверки</title>');
    // Made without a client, the page is English.
    expect(fragmentRelayHtml().html).toContain('<html lang="en">');
  });

  it('refuses a language option without texts, naming the option', async () => {
    const client = await newClient();
    expect(() => client.callbackHandler({ onSuccess: ok, language: 'pl' })).toThrow(
      /callbackHandler language "pl"/,
    );
    expect(() => client.startHandler({ language: 'pl' })).toThrow(/startHandler language "pl"/);
    await expect(newClient({ language: 'pl' })).rejects.toThrow(OptionsError);
    await expect(newClient({ texts: { de: { nope: 'x' } as never } })).rejects.toThrow(
      /texts\.de: unknown key "nope"/,
    );
    const polish = await newClient({
      language: 'pl',
      texts: { pl: { 'page.failed.title': 'Nie potwierdzono' } },
    });
    const page = await polish.callbackHandler({ onSuccess: ok })(
      new Request(`${REDIRECT_URI}?error=access_denied`),
    );
    expect(await page.text()).toContain('<title>Nie potwierdzono</title>');
  });
});

describe('a stale hint recovers in one step', () => {
  it('the error page offers to start again without the hint; the hint feed is told', async () => {
    const hints = { has: () => true, reportStale: vi.fn() };
    const client = await newClient({ hints });
    const start = client.startHandler({ formFields: ['affiliation', 'institution'] });
    const callback = client.callbackHandler({ onSuccess: ok });

    const first = await start(startPost({ affiliation: 'faculty+staff', institution: STALE }));
    expect(first.status).toBe(303);
    const sent = new URL(first.headers.get('location')!);
    expect(sent.searchParams.get('aarc_idp_hint')).toBe(STALE);
    // Spec 7.2: the service answers an unresolvable hint with access_denied / entity_id error.
    const back = `${REDIRECT_URI}?error=access_denied&error_description=entity_id%20error&state=${sent.searchParams.get('state')}`;
    const page = await callback(new Request(back, { headers: { 'accept-language': 'de' } }));
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain(
      'Der Überprüfungsdienst hat die gewählte Einrichtung nicht erkannt. Das lag nicht an Ihnen',
    );
    const form = restartForm(html);
    expect(form).toEqual({
      action: '/validate', // where the start handler answered
      fields: { affiliation: 'faculty+staff', flow: 'code', institution: '' },
      button: 'Einrichtung erneut wählen',
    });
    // Chromium applies form-action to the start route's redirect too: the service's origin is allowed.
    expect(page.headers.get('content-security-policy')).toContain(
      `form-action 'self' ${new URL(ISSUER).origin};`,
    );
    expect(hints.reportStale).toHaveBeenCalledExactlyOnceWith(STALE);

    // The button: the same validation again, without the hint.
    const again = await start(startPost(form.fields));
    expect(again.status).toBe(303);
    const resent = new URL(again.headers.get('location')!);
    expect(resent.searchParams.has('aarc_idp_hint')).toBe(false);
    expect(resent.searchParams.get('scope')).toContain('faculty+staff');
  });

  it('one call gives a shop’s own page the same; no form where one click would not help', async () => {
    const client = await newClient();
    const stale = ProviderError.from({
      error: 'access_denied',
      description: 'entity_id error',
      source: 'authorization',
      started: { affiliation: 'student', identifier: 'persistent', flow: 'code', institution: STALE },
    });
    // Node's request headers work as well as a Web Request.
    const message = client.shopperMessage(
      stale,
      { headers: { 'accept-language': 'nl' } },
      { startUrl: '/start' },
    );
    expect(message.lang).toBe('nl');
    expect(message.text).toBe(
      'De verificatiedienst herkende de gekozen instelling niet. Dat ligt niet aan jou: kies je instelling opnieuw.',
    );
    expect(message.restart).toMatchObject({
      action: '/start',
      fields: { affiliation: 'student', identifier: 'persistent', flow: 'code', institution: '' },
      label: 'Kies je instelling opnieuw',
    });
    expect(restartForm(message.restart!.html).fields).toEqual(message.restart!.fields);
    // Without a known start route, and for other errors: the message alone.
    expect(client.shopperMessage(stale).restart).toBeUndefined();
    const expired = new ValidationError('x', { code: 'expired_transaction' });
    expect(
      client.shopperMessage(expired, new Request(SHOP, { headers: { 'accept-language': 'da' } })),
    ).toEqual({
      lang: 'da',
      text: 'Verificeringen tog for lang tid. Start den igen.',
    });
    const plain = await client.callbackHandler({ onSuccess: ok })(
      new Request(`${REDIRECT_URI}?error=access_denied&error_description=authentication%20failed`),
    );
    expect(await plain.text()).not.toContain('<form');
    expect(plain.headers.get('content-security-policy')).toContain("form-action 'none'");
    expect(() => client.callbackHandler({ onSuccess: ok, startUrl: '//evil.example/x' })).toThrow(/startUrl/);
  });
});
