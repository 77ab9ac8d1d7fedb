import { base64 } from '../core/crypto.js';
import { OptionsError } from '../core/errors.js';
import { redactUrl } from '../core/redact.js';
import { isSecureUrl } from '../core/url-policy.js';
import { COUNTRY_RE, REGION_RE } from './parse.js';
import type { HintSource } from './types.js';

/** A configured source, checked: what is fetched, how it is named, and the secrets to keep out of logs. */
export interface Source {
  /** The URL fetched: credentials moved out of it into `authorization`. */
  readonly url: string;
  /** The URL as configured, redacted: used in messages, logs and as the cache file key. */
  readonly safeUrl: string;
  /** ISO alpha-2, upper-case: given, or inferred from a URL ending in `/<cc>.json`. */
  readonly country: string | undefined;
  /** A region name (`africa`, `net`, `org`): the source's records have no country. */
  readonly region: string | undefined;
  /** `Basic …` from the URL's userinfo (fetch refuses URLs with credentials). */
  readonly authorization: string | undefined;
  readonly secrets: readonly string[];
}

/** The service names its per-country files `<cc>.json` with a lower-case ISO 3166 code. */
const COUNTRY_FILE_RE = /\/([a-z]{2})\.json$/;

let regionNames: Intl.DisplayNames | undefined;
/**
 * The country a per-country feed URL names: `…/nl.json` → `NL`. Only a lower-case code that ICU
 * knows as a region counts, as the service publishes them (so `en.json` or `xx.json` is never taken
 * for a country); anything else names no country.
 */
function countryOfFeedUrl(url: URL): string | undefined {
  const cc = COUNTRY_FILE_RE.exec(url.pathname)?.[1]?.toUpperCase();
  if (cc === undefined || cc === 'ZZ') return undefined;
  try {
    regionNames ??= new Intl.DisplayNames('en', { type: 'region', fallback: 'none' });
    return regionNames.of(cc) === undefined ? undefined : cc;
  } catch {
    return undefined; // a runtime without region names, or not a region code
  }
}

/**
 * Check the `sources` option: URLs (https, or http on loopback), no duplicate, a valid `country` or
 * `region`; move userinfo credentials into a Basic authorization header and collect the secrets that
 * must never be logged (passwords, long query values such as tokens).
 */
export function checkSources(sources: unknown): Source[] {
  if (!Array.isArray(sources) || sources.length === 0) {
    throw new OptionsError('sources must be a non-empty array of feed URLs');
  }
  const seen = new Set<string>();
  return sources.map((s: unknown, i) => {
    const object = typeof s === 'object' && s !== null && !(s instanceof URL);
    const { url: raw, country, region } = (object ? s : { url: s }) as Record<string, unknown>;
    if (raw === undefined || raw === null) throw new OptionsError(`sources[${i}] has no url`);
    let url: URL;
    try {
      url = new URL(String(raw));
    } catch {
      throw new OptionsError(
        `sources[${i}] is not a valid URL (${JSON.stringify(String(raw).slice(0, 80))}); give a feed URL such as https://…/nl.json`,
      );
    }
    if (!isSecureUrl(url)) {
      throw new OptionsError(`sources[${i}] must be an https: URL (http: only on loopback hosts)`);
    }
    if (country !== undefined && (typeof country !== 'string' || !COUNTRY_RE.test(country))) {
      throw new OptionsError(`sources[${i}].country must be a two-letter country code`);
    }
    if (region !== undefined && (typeof region !== 'string' || !REGION_RE.test(region))) {
      throw new OptionsError(
        `sources[${i}].region must be a lower-case region name of 3 to 32 letters, digits or "-" (such as africa, net, org)`,
      );
    }
    if (country !== undefined && region !== undefined) {
      throw new OptionsError(`sources[${i}] names a country and a region: give one`);
    }
    const href = url.href;
    if (seen.has(href)) throw new OptionsError(`sources[${i}] is listed twice`);
    seen.add(href);
    let authorization: string | undefined;
    const secrets: string[] = [];
    if (url.username || url.password) {
      const user = decodeURIComponent(url.username);
      const password = decodeURIComponent(url.password);
      authorization = `Basic ${base64(`${user}:${password}`)}`;
      secrets.push(password, url.password);
      url.username = '';
      url.password = '';
    }
    for (const [, value] of url.searchParams) if (value.length >= 8) secrets.push(value);
    return {
      url: url.href,
      safeUrl: redactUrl(href),
      country:
        (country as string | undefined)?.toUpperCase() ??
        (region === undefined ? countryOfFeedUrl(url) : undefined),
      region: region as string | undefined,
      authorization,
      secrets,
    };
  });
}

/** A source as the cache file and the CLI remember it (the inferred country is not stored: it is inferred again). */
export function sourceOption(source: {
  url: string;
  country?: string | undefined;
  region?: string | undefined;
}): HintSource {
  if (source.region) return { url: source.url, region: source.region };
  if (source.country) return { url: source.url, country: source.country };
  return source.url;
}
