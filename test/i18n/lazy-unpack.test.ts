import { describe, expect, it, vi } from 'vitest';

// fflate's gunzip, counted: the catalogs but English are unpacked at the first need, once.
const gunzip = vi.hoisted(() => ({ calls: 0 }));
vi.mock('fflate', async (importOriginal) => {
  const fflate = await importOriginal<typeof import('fflate')>();
  return {
    ...fflate,
    gunzipSync: (...args: Parameters<typeof fflate.gunzipSync>) => {
      gunzip.calls++;
      return fflate.gunzipSync(...args);
    },
  };
});

const { ShopperTexts } = await import('../../src/i18n/texts.js');

describe('the packed catalogs are unpacked at the first answer that needs them', () => {
  it('not for a client that answers in English, once for every client of the process after that', () => {
    const texts = ShopperTexts.load({ language: undefined });
    const english = texts.speaker('en-GB,en;q=0.8');
    expect(english.lang).toBe('en');
    expect(english.text('page.failed.title')).toBe('Validation failed');
    const german = ShopperTexts.load({ language: 'de' });
    expect(gunzip.calls).toBe(0);
    expect(german.speaker(null).lang).toBe('de');
    expect(gunzip.calls).toBe(1);

    expect(texts.speaker('de-AT').text('page.failed.title')).toBe(
      german.speaker(null).text('page.failed.title'),
    );
    expect(texts.speaker('de-AT').text('page.failed.title')).not.toBe('Validation failed');
    const other = ShopperTexts.load({ texts: { fr: { 'page.failed.title': 'Pas validé' } } });
    expect(other.speaker('fr').text('page.failed.title')).toBe('Pas validé');
    expect(other.speaker('fr').text('page.failed.back')).toBe(texts.speaker('fr').text('page.failed.back'));
    expect(other.speaker('fr').text('page.failed.back')).not.toBe(
      texts.speaker('en').text('page.failed.back'),
    );
    expect(gunzip.calls).toBe(1);
  });
});
