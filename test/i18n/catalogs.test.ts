/// <reference types="vite/client" />
/**
 * The catalogs as a reader meets them: every language has every text, none is English left over, the
 * placeholders are the same, and the picker's counts take each language's plural forms.
 */

import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PICKER_TEXTS } from '../../src/i18n/catalogs/picker.js';
import { LANGUAGES } from '../../src/i18n/language.js';
import { ENGLISH, type ShopperTextKey, ShopperTexts } from '../../src/i18n/texts.js';

const english = ENGLISH;
const files = import.meta.glob<{ texts: Record<string, string> }>('../../src/i18n/catalogs/*.ts', {
  eager: true,
});
const catalogOf = (lang: string) => files[`../../src/i18n/catalogs/${lang}.ts`]?.texts;
const keys = Object.keys(catalogOf('en')!) as ShopperTextKey[];
const others = LANGUAGES.filter((l) => l !== 'en');
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
/** Words that give away an English sentence left in another catalog. */
const ENGLISH_WORDS = /\b(the|please|your|could|again|found|choose|institution found)\b/i;

describe.each(others)('the %s catalog', (lang) => {
  it('has exactly the English keys, none of them English, with the same placeholders', () => {
    const texts = catalogOf(lang)!;
    expect(Object.keys(texts)).toEqual(keys);
    for (const key of keys) {
      const text = texts[key]!;
      expect(text.trim(), `${lang} ${key}`).not.toBe('');
      expect(text, `${lang} ${key} is the English text`).not.toBe(english.text(key));
      // Proper names (JavaScript) stay; English sentences do not.
      expect(text, `${lang} ${key}`).not.toMatch(ENGLISH_WORDS);
      expect(placeholders(text), `${lang} ${key}`).toEqual(placeholders(english.text(key)));
    }
  });

  it("has the picker's texts, none of them English, and a count text for each plural form", () => {
    const picker = PICKER_TEXTS[lang];
    const en = PICKER_TEXTS.en;
    for (const key of ['label', 'placeholder', 'none', 'recent', 'required'] as const) {
      expect(picker[key], `${lang} ${key}`).not.toBe(en[key]);
      expect(picker[key], `${lang} ${key}`).not.toMatch(ENGLISH_WORDS);
    }
    const rules = new Intl.PluralRules(lang);
    const categories = rules.resolvedOptions().pluralCategories;
    // Every form given is one of the language's; every form a count of results takes is given.
    for (const form of Object.keys(picker.found)) expect(categories, `${lang} ${form}`).toContain(form);
    for (let n = 1; n <= 1000; n++) {
      const text = picker.found[rules.select(n)];
      expect(text, `${lang}: ${n} (${rules.select(n)})`).toBeDefined();
      expect(text).toContain('{count}');
      expect(text).not.toMatch(ENGLISH_WORDS);
    }
  });
});

it('every English text is unique (an error is translated by its English userMessage)', () => {
  const texts = keys.map((k) => english.text(k));
  expect(new Set(texts).size).toBe(texts.length);
});

it('the languages with more than two forms for counts get them right', () => {
  const found = (lang: 'ru' | 'cs' | 'lt', n: number) =>
    PICKER_TEXTS[lang].found[new Intl.PluralRules(lang).select(n)]?.replace('{count}', String(n));
  expect([1, 3, 5, 21, 22, 25].map((n) => found('ru', n))).toEqual([
    'Найдена 1 организация',
    'Найдено 3 организации',
    'Найдено 5 организаций',
    'Найдена 21 организация',
    'Найдено 22 организации',
    'Найдено 25 организаций',
  ]);
  expect([1, 3, 5].map((n) => found('cs', n))).toEqual([
    'Nalezena 1 instituce',
    'Nalezeny 3 instituce',
    'Nalezeno 5 institucí',
  ]);
  expect([1, 3, 10, 21].map((n) => found('lt', n))).toEqual([
    'Rasta 1 institucija',
    'Rastos 3 institucijos',
    'Rasta 10 institucijų',
    'Rasta 21 institucija',
  ]);
});

it('the packed catalogs the core unpacks are the catalogs as written (npm run pack-catalogs)', async () => {
  const check = await new Promise<{ code: number | null; stderr: string }>((done) => {
    execFile(process.execPath, ['scripts/pack-catalogs.mjs', '--check'], (error, _out, stderr) =>
      done({ code: error ? (error.code as number) : 0, stderr }),
    );
  });
  expect(check).toEqual({ code: 0, stderr: '' });
  const texts = await ShopperTexts.load();
  for (const lang of others) {
    const speaker = texts.speaker(undefined, lang);
    expect(Object.fromEntries(keys.map((k) => [k, speaker.text(k)])), lang).toEqual(catalogOf(lang));
  }
  // Before they are unpacked (the options checked up front), every language answers in English.
  expect(new ShopperTexts().speaker(undefined, 'de').text('page.failed.title')).toBe('Validation failed');
});
