/**
 * The shopper's texts: the SDK's catalogs (`./catalogs/`, one per language of the service), the
 * merchant's texts over them, and the language each answer speaks. Logs and `error.message` stay
 * English; a shopper's text is looked up by its key, and an error's by its English `userMessage`.
 */
import { gunzipSync, strFromU8 } from 'fflate';
import { OptionsError } from '../core/errors.js';
import { texts as en } from './catalogs/en.js';
import { PACKED } from './catalogs/packed.js';
import { fromAcceptLanguage, LANGUAGES, matchLanguage } from './language.js';

/** The key of a shopper text: `'page.failed.title'`, `'provider.consent_denied'`, … (docs/languages.md). @group Languages */
export type ShopperTextKey = keyof typeof en;
/** One language's texts, every key. @group Languages */
export type ShopperTextCatalog = Readonly<Record<ShopperTextKey, string>>;
/**
 * The merchant's texts by language tag (`{ de: { 'page.failed.title': 'Nicht bestätigt' } }`): any
 * text of a language the SDK speaks, or a language of your own (`pl`; a text it lacks is English).
 * Each text keeps the English text's `{placeholders}`.
 *
 * @group Languages
 */
export type ShopperTextOverrides = Readonly<Record<string, Partial<Record<ShopperTextKey, string>>>>;
type Catalogs = Readonly<Record<string, ShopperTextCatalog>>;

/**
 * The catalogs but English, unpacked (scripts/pack-catalogs.mjs says why they are packed) with
 * fflate: Next.js's edge runtime refuses the Web's `DecompressionStream`.
 */
function unpack(): Catalogs {
  return JSON.parse(strFromU8(gunzipSync(Uint8Array.from(atob(PACKED), (c) => c.charCodeAt(0)))));
}

/**
 * Every catalog of the SDK, unpacked at the first need (an answer in another language than English,
 * or the merchant's texts over one) and kept for the process: a fresh Worker's first shopper does not
 * wait for it (the cold start of `npm run bench runtime`).
 */
let unpacked: Catalogs | undefined;
const allCatalogs = (): Catalogs => (unpacked ??= { en, ...unpack() });

/** The key of each English text: an error carries its `userMessage` in English. */
const KEY_OF = new Map(Object.entries(en).map(([key, text]) => [text, key as ShopperTextKey]));

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

/** One answer's language. */
export interface Speaker {
  /** The language's tag, for `<html lang>`. */
  readonly lang: string;
  /** A text, its `{placeholders}` filled from `values`. */
  text(key: ShopperTextKey, values?: Readonly<Record<string, string>>): string;
  /** An error's `userMessage` in this language (a message the catalogs do not hold stays as it is). */
  userMessage(error: { readonly userMessage: string }): string;
}

/** The texts of one client: the catalogs with the merchant's texts over them, and its `language`. */
export class ShopperTexts {
  readonly #catalogs = new Map<string, ShopperTextCatalog>();
  readonly #builtIn: () => Catalogs;
  readonly #available: ReadonlySet<string>;
  readonly #language: string | undefined;

  /**
   * The merchant's texts over `builtIn` (English only unless made by {@link ShopperTexts.load}).
   * @throws {OptionsError} naming the language, the key or the placeholder that is wrong.
   */
  constructor(
    options: { language?: unknown; texts?: unknown } = {},
    builtIn: () => Catalogs = () => ({ en }),
  ) {
    const { texts } = options;
    if (texts !== undefined && (typeof texts !== 'object' || texts === null || Array.isArray(texts))) {
      throw new OptionsError('texts must be an object of texts by language: { de: { … } }');
    }
    const available = new Set<string>(LANGUAGES);
    for (const [tag, given] of Object.entries(texts ?? {})) {
      const lang = tag.toLowerCase() === 'no' ? 'nb' : tag.toLowerCase();
      if (!/^[a-z]{2,3}(?:-[a-z0-9]{1,8}){0,4}$/.test(lang)) {
        throw new OptionsError(
          `texts: ${JSON.stringify(tag)} is not a language tag such as de, pt-BR or es-419`,
        );
      }
      if (typeof given !== 'object' || given === null)
        throw new OptionsError(`texts.${tag} must be an object`);
      for (const [key, text] of Object.entries(given)) {
        const english = (en as Record<string, string>)[key];
        if (english === undefined) throw new OptionsError(`texts.${tag}: unknown key ${JSON.stringify(key)}`);
        if (typeof text !== 'string' || text.trim() === '') {
          throw new OptionsError(`texts.${tag}[${JSON.stringify(key)}] must be a non-empty string`);
        }
        const missing = placeholders(english).find((p) => !text.includes(`{${p}}`));
        if (missing !== undefined) {
          throw new OptionsError(`texts.${tag}[${JSON.stringify(key)}] lacks the placeholder {${missing}}`);
        }
      }
      // A language of the merchant's own (de-CH) starts from the one it falls back to (de), else English.
      const base = matchLanguage(lang, available);
      this.#catalogs.set(lang, {
        ...en,
        ...(base === undefined || base === 'en' ? undefined : builtIn()[base]),
        ...this.#catalogs.get(base ?? ''),
        ...given,
      });
      available.add(lang);
    }
    this.#builtIn = builtIn;
    this.#available = available;
    this.#language = this.language(options.language, 'language');
  }

  /** The same options over every catalog of the SDK. */
  static load(options: { language?: unknown; texts?: unknown } = {}): ShopperTexts {
    return new ShopperTexts(options, allCatalogs);
  }

  /**
   * Check a `language` option: `undefined`, or a tag one of the catalogs serves (`de-AT` → `de`).
   * @throws {OptionsError} naming the option.
   */
  language(tag: unknown, option: string): string | undefined {
    if (tag === undefined) return undefined;
    const match = typeof tag === 'string' ? matchLanguage(tag, this.#available) : undefined;
    if (match === undefined) {
      throw new OptionsError(
        `${option} ${JSON.stringify(tag)} has no texts: use one of ${[...this.#available].join(', ')}, or add it with texts`,
      );
    }
    return match;
  }

  /** The texts of an answer: `language` (the merchant's), else the request's `Accept-Language`, else English. */
  speaker(acceptLanguage: string | null | undefined, language = this.#language): Speaker {
    const lang = language ?? fromAcceptLanguage(acceptLanguage, this.#available) ?? 'en';
    const catalog = this.#catalogs.get(lang) ?? (lang === 'en' ? en : this.#builtIn()[lang]) ?? en;
    const text = (key: ShopperTextKey, values: Readonly<Record<string, string>> = {}) =>
      catalog[key].replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all);
    return {
      lang,
      text,
      userMessage: (error) => {
        const key = KEY_OF.get(error.userMessage);
        return key === undefined ? error.userMessage : text(key);
      },
    };
  }
}

/** English, with the SDK's texts: what a page made without a client speaks. */
export const ENGLISH: Speaker = new ShopperTexts().speaker(undefined, 'en');
