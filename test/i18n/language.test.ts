import { beforeAll, describe, expect, it } from 'vitest';
import { OptionsError } from '../../src/core/errors.js';
import { fromAcceptLanguage, LANGUAGES, matchLanguage } from '../../src/i18n/language.js';
import { ShopperTexts } from '../../src/i18n/texts.js';
import { ProviderError, ValidationError } from '../../src/rp/errors.js';

const SDK = new Set<string>(LANGUAGES);

describe('matchLanguage', () => {
  it.each([
    ['de', 'de'],
    ['de-AT', 'de'],
    ['DE-ch', 'de'],
    ['de_DE', 'de'],
    ['es', 'es'],
    ['es-ES', 'es'],
    ['es-419', 'es-419'],
    ['es-MX', 'es-419'],
    ['es-AR', 'es-419'],
    ['es-US', 'es-419'],
    ['nb', 'nb'],
    ['nb-NO', 'nb'],
    ['no', 'nb'],
    ['nn', 'nb'],
    ['pt-BR', 'pt'],
    ['el-GR', 'el'],
    ['zh-Hans-CN', undefined],
    ['pl', undefined],
    ['*', undefined],
    ['', undefined],
    ['de-', undefined],
    ['d e', undefined],
    [`de-${'x'.repeat(40)}`, undefined],
  ])('%j → %j', (tag, lang) => {
    expect(matchLanguage(tag, SDK)).toBe(lang);
  });
});

describe('fromAcceptLanguage', () => {
  it.each([
    ['de-AT,de;q=0.9,en;q=0.8', 'de'],
    ['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', 'fr'],
    ['en;q=0.5, nl;q=0.9', 'nl'],
    ['pl, cs;q=0.8', 'cs'],
    ['es-MX,es;q=0.9', 'es-419'],
    ['nb-NO,nb;q=0.9,no;q=0.8,nn;q=0.7,en-US;q=0.6', 'nb'],
    ['de;q=0, fr;q=0.1', 'fr'],
    ['de;q=1.5, it', 'it'],
    ['de;q=abc, sv;q=0.2', 'sv'],
    ['ru;q=0.3, lt;q=0.3', 'ru'],
    ['*', undefined],
    ['pl, zh', undefined],
    ['', undefined],
  ])('%j → %j', (header, lang) => {
    expect(fromAcceptLanguage(header, SDK)).toBe(lang);
  });

  it('costs nothing on a hostile header and falls back to English', () => {
    const texts = new ShopperTexts();
    // Thousands of tags, with a good one only far beyond what is read.
    expect(fromAcceptLanguage(`${'xx-YY;q=0.9,'.repeat(5000)}de`, SDK)).toBeUndefined();
    expect(fromAcceptLanguage(`${'x'.repeat(100_000)},de`, SDK)).toBeUndefined();
    expect(fromAcceptLanguage(',;;;==,q=1,\u0000\uFFFF,🙂;q=0.9,de\u0000', SDK)).toBeUndefined();
    expect(fromAcceptLanguage(`de;${';q=0.5'.repeat(10_000)}`, SDK)).toBeUndefined();
    expect(texts.speaker(`${'a'.repeat(1e6)}`).lang).toBe('en');
    expect(texts.speaker(undefined).lang).toBe('en');
    expect(texts.speaker(null).lang).toBe('en');
  });
});

describe('ShopperTexts: the merchant language and texts', () => {
  it("the merchant's language wins over Accept-Language; errors are translated by their English text", async () => {
    const texts = await ShopperTexts.load({ language: 'de-AT' });
    const speaker = texts.speaker('fr');
    expect(speaker.lang).toBe('de');
    expect(speaker.text('page.failed.title')).toBe('Überprüfung fehlgeschlagen');
    const error = new ValidationError('x', { code: 'expired_transaction' });
    expect(speaker.userMessage(error)).toBe(
      'Die Überprüfung hat zu lange gedauert. Bitte starten Sie sie erneut.',
    );
    expect(error.userMessage).toBe('The validation took too long. Please start it again.');
    expect(error.message).toBe('x');
    // A message of the shop's own making stays as it is.
    expect(speaker.userMessage({ userMessage: 'Custom' })).toBe('Custom');
    expect((await ShopperTexts.load()).speaker('fr-FR;q=0.8, de;q=0.2').lang).toBe('fr');
  });

  it('overrides a text per language, keeps placeholders, adds a language that falls back', async () => {
    const texts = await ShopperTexts.load({
      texts: {
        de: { 'page.failed.title': 'Nicht bestätigt' },
        no: { 'page.failed.back': 'Til butikken' },
        pl: { 'page.failed.title': 'Weryfikacja nie powiodła się', 'page.failed.code': 'Kod błędu: {code}' },
        'de-CH': { 'page.failed.back': 'Zurück zum Laden' },
      },
    });
    expect(texts.speaker('de').text('page.failed.title')).toBe('Nicht bestätigt');
    expect(texts.speaker('de').text('page.failed.back')).toBe('Zurück zum Shop');
    expect(texts.speaker('nb').text('page.failed.back')).toBe('Til butikken');
    const pl = texts.speaker('pl-PL, de;q=0.5');
    expect([pl.lang, pl.text('page.failed.title'), pl.text('page.failed.code', { code: 'x' })]).toEqual([
      'pl',
      'Weryfikacja nie powiodła się',
      'Kod błędu: x',
    ]);
    expect(pl.text('page.failed.back')).toBe('Back to the shop'); // not given: English
    const ch = texts.speaker('de-CH');
    expect([ch.lang, ch.text('page.failed.back'), ch.text('page.failed.title')]).toEqual([
      'de-ch',
      'Zurück zum Laden',
      'Nicht bestätigt', // from de (with the shop's German), the language de-CH falls back to
    ]);
    expect((await ShopperTexts.load({ language: 'pl', texts: { pl: {} } })).speaker('de').lang).toBe('pl');
  });

  it.each([
    [{ texts: { de: { 'page.title': 'x' } } }, /texts\.de: unknown key "page\.title"/],
    [
      { texts: { fr: { 'page.failed.code': 'Code' } } },
      /texts\.fr\["page\.failed\.code"\] lacks the placeholder \{code\}/,
    ],
    [
      { texts: { fr: { 'page.failed.title': '' } } },
      /texts\.fr\["page\.failed\.title"\] must be a non-empty string/,
    ],
    [{ texts: { 'not a tag': {} } }, /"not a tag" is not a language tag/],
    [{ texts: { de: 'Hallo' } }, /texts\.de must be an object/],
    [{ texts: [] }, /texts must be an object/],
    [{ language: 'pl' }, /language "pl" has no texts: use one of af, cs/],
    [{ language: 42 }, /language 42 has no texts/],
  ])('refuses %j with an OptionsError that names it', (options, message) => {
    expect(() => new ShopperTexts(options as never)).toThrow(OptionsError);
    expect(() => new ShopperTexts(options as never)).toThrow(message);
  });
});

describe('ProviderError reasons (the service descriptions)', () => {
  let texts: ShopperTexts;
  beforeAll(async () => {
    texts = await ShopperTexts.load();
  });
  it.each([
    [
      'entity_id error',
      'unknown_institution',
      /did not recognise the institution.*choose your institution again/,
    ],
    ['  Entity_ID Error ', 'unknown_institution', /did not recognise/],
    ['no affiliation available for this user', 'no_affiliation', /did not confirm any affiliation/],
    ['affiliation does not match requested validation', 'affiliation_mismatch', /staff instead of student/],
    ['User Consent Denied', 'consent_denied', /only with your consent/],
    ['user consent denied', 'consent_denied', /only with your consent/],
    ['authentication failed', 'authentication_failed', /Signing in at your institution did not succeed/],
    ['Requested validation not allowed.', 'validation_not_allowed', /may not check this kind of affiliation/],
    ['requested validation not allowed', 'validation_not_allowed', /may not check/],
    ['User denied consent', 'other', /could not be confirmed by your institution, or you declined/],
    [undefined, 'other', /could not be confirmed by your institution/],
  ])('%j → %s', (description, reason, message) => {
    const error = ProviderError.from({ error: 'access_denied', description, source: 'authorization' });
    expect(error.reason).toBe(reason);
    expect(error.userMessage).toMatch(message);
    // The shopper's next step in their language too; the log message stays English.
    expect(texts.speaker('de').userMessage(error)).not.toBe(error.userMessage);
    expect(error.message).toMatch(/^The provider returned "access_denied" from the authorization response/);
  });

  it('reads reasons only from the authorization response', () => {
    const error = ProviderError.from({
      error: 'invalid_grant',
      description: 'entity_id error',
      source: 'token',
    });
    expect(error.reason).toBe('other');
  });
});
