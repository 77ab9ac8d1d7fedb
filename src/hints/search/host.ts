/**
 * What an entityID says about its institution: the host of a URL entityID
 * (`https://signon.rug.nl/nidp/saml2/metadata` → `signon.rug.nl`), or the last dotted part of a URN
 * (`urn:mace:incommon:uiuc.edu` → `uiuc.edu`). Upper-case hosts are lower-cased.
 *
 * The index keeps host labels and domains as 31-bit hashes packed with the institution number in a
 * sorted Float64Array, not as a Map of arrays: on 65,000 institutions that is one native sort instead
 * of half a million small allocations (measured: the Map version tripled the index build).
 */
import { FNV_BASIS, fnvStep } from './words.js';

/** Labels that name a service, not an institution: "sso" or "login" finds nobody in particular. */
const GENERIC = new Set(
  'idp idp1 idp2 idp3 login sso signon shibboleth shib www auth aai saml saml2 adfs sts fs wayf ds id accounts account secure portal cas simplesaml simplesamlphp federation fed openid oidc weblogin websso iam identity'.split(
    ' ',
  ),
);

/**
 * Second-level labels under which many institutions register (`ac.uk`, `edu.au`, `co.za`): a domain
 * made of one of these and a top-level domain identifies no institution, so it is never a key.
 */
const SHARED_SLD = new Set('ac edu co com org net gov gob gv or ne go sch govt mil nic uni res'.split(' '));

function hostChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 46 || (c >= 65 && c <= 90);
}

/** Whether `s` is a dotted host name (`a.b`, letters, digits, hyphens). */
function dotted(s: string, from: number, to: number): boolean {
  let dot = false;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (!hostChar(c)) return false;
    if (c === 46) {
      if (i === from || i === to - 1 || s.charCodeAt(i - 1) === 46) return false;
      dot = true;
    }
  }
  return dot;
}

/** Where the entityID's host name is: `[start, end)`, or undefined when it has none. */
export function hostRange(entityId: string): [number, number] | undefined {
  const scheme = entityId.indexOf('://');
  if (scheme > 0 && scheme < 12) {
    let start = scheme + 3;
    let end = start;
    while (end < entityId.length) {
      const c = entityId.charCodeAt(end);
      if (c === 47 || c === 63 || c === 35) break; // / ? #
      if (c === 64) start = end + 1; // userinfo@
      end++;
    }
    const colon = entityId.indexOf(':', start);
    if (colon !== -1 && colon < end) end = colon;
    if (end > start && entityId.charCodeAt(end - 1) === 46) end--;
    return dotted(entityId, start, end) ? [start, end] : undefined;
  }
  // A URN: the last dotted part.
  let end = entityId.length;
  for (let i = entityId.length - 1; i >= -1; i--) {
    if (i === -1 || entityId.charCodeAt(i) === 58) {
      if (dotted(entityId, i + 1, end)) return [i + 1, end];
      end = i;
    }
  }
  return undefined;
}

/** The entityID's host name, lower case, or undefined when it has none. */
export function entityHost(entityId: string): string | undefined {
  const range = hostRange(entityId);
  return range === undefined ? undefined : entityId.slice(range[0], range[1]).toLowerCase();
}

/** Labels of `host` worth a search: not the top-level domain, not a service label, two characters or more. */
export function hostLabels(host: string): string[] {
  const labels = host.split('.');
  labels.pop();
  return labels.filter((l) => l.length >= 2 && !GENERIC.has(l) && !SHARED_SLD.has(l) && !/^\d+$/.test(l));
}

/** `signon.rug.nl` → `['signon.rug.nl', 'rug.nl']`: the domains an e-mail address of the institution may use. */
export function domainKeys(host: string): string[] {
  const labels = host.split('.');
  const out: string[] = [];
  for (let i = 0; i + 2 <= labels.length; i++) {
    if (labels.length - i === 2 && SHARED_SLD.has(labels[i]!)) break;
    out.push(labels.slice(i).join('.'));
  }
  return out;
}

/**
 * The domain a query names: the part after `@` of an e-mail address (`jan@student.rug.nl`), or a
 * bare domain (`rug.nl`), lower case; undefined for anything else.
 */
export function queryDomain(query: string): string | undefined {
  const q = query.trim().toLowerCase();
  const at = q.lastIndexOf('@');
  if (/\s/.test(q)) return undefined;
  const domain = at >= 0 ? q.slice(at + 1) : q;
  return dotted(domain, 0, domain.length) ? domain : undefined;
}

/** A 30-bit FNV-1a hash of `s`, seeded by the kind of key (30 bits: a small integer, never a boxed number). */
export function hash31(seed: number, s: string): number {
  let h = (FNV_BASIS ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) h = fnvStep(h, s.charCodeAt(i));
  return h >>> 2;
}

/** Keys being collected for a {@link KeyTable}: (hash, institution) pairs in growing typed arrays. */
export class KeyCollector {
  hashes = new Uint32Array(1024);
  entities = new Uint32Array(1024);
  size = 0;

  push(hash: number, entity: number): void {
    if (this.size === this.hashes.length) {
      const hashes = new Uint32Array(this.size * 2);
      hashes.set(this.hashes);
      this.hashes = hashes;
      const entities = new Uint32Array(this.size * 2);
      entities.set(this.entities);
      this.entities = entities;
    }
    this.hashes[this.size] = hash;
    this.entities[this.size++] = entity;
  }
}

/**
 * A chained hash table: the institutions filed under a key hash. Built in one linear pass over typed
 * arrays (no sort, no per-key allocation: a Map of arrays tripled the index build on 65,000 institutions).
 */
export class KeyTable {
  readonly #heads: Int32Array;
  readonly #next: Int32Array;
  readonly #hashes: Uint32Array;
  readonly #entities: Uint32Array;
  readonly #mask: number;

  constructor(keys: KeyCollector) {
    const n = keys.size;
    let size = 16;
    while (size < n * 2) size *= 2;
    this.#mask = size - 1;
    this.#heads = new Int32Array(size).fill(-1);
    this.#next = new Int32Array(n);
    this.#hashes = keys.hashes.slice(0, n);
    this.#entities = keys.entities.slice(0, n);
    // Backwards, so that each chain lists institutions in the order they were filed (static rank).
    for (let i = n - 1; i >= 0; i--) {
      const b = this.#hashes[i]! & this.#mask;
      this.#next[i] = this.#heads[b]!;
      this.#heads[b] = i;
    }
  }

  /** Institutions filed under hash `h` (may include collisions: verify), in static-rank order, once each. */
  get(h: number): number[] {
    const out: number[] = [];
    for (let i = this.#heads[h & this.#mask]!; i !== -1; i = this.#next[i]!) {
      if (this.#hashes[i] !== h) continue;
      const e = this.#entities[i]!;
      if (out[out.length - 1] !== e) out.push(e);
    }
    return out;
  }
}

export const HASH_LABEL = 1;
export const HASH_DOMAIN = 2;
export const HASH_ACRONYM = 3;

/** {@link hash31} of `s.slice(from, to).toLowerCase()` for a host name, without making either string. */
function hashRange(seed: number, s: string, from: number, to: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    h = Math.imul(h ^ (c >= 65 && c <= 90 ? c + 32 : c), 0x01000193);
  }
  return h >>> 2;
}

const GENERIC_HASHES = new Set([...GENERIC].map((l) => hash31(HASH_LABEL, l)));
const SHARED_HASHES = new Set([...SHARED_SLD].map((l) => hash31(HASH_LABEL, l)));

/**
 * The keys under which an institution is filed, from the host at `[from, to)` of its entityID: its
 * labels ({@link hostLabels}) and its domains ({@link domainKeys}; a domain that starts with a service
 * label such as `login.` is left out, its parent is enough), hashed in place.
 */
export function hostKeys(s: string, from: number, to: number, entity: number, out: KeyCollector): void {
  const lastDot = s.lastIndexOf('.', to - 1);
  if (lastDot < from) return;
  const secondLast = s.lastIndexOf('.', lastDot - 1);
  for (let a = from; a < lastDot; ) {
    let b = s.indexOf('.', a);
    if (b === -1 || b > to) b = to;
    const label = hashRange(HASH_LABEL, s, a, b);
    const shared = SHARED_HASHES.has(label);
    const generic = GENERIC_HASHES.has(label);
    let digits = true;
    for (let i = a; i < b && digits; i++) digits = s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;
    if (b - a >= 2 && !digits && !shared && !generic) out.push(label, entity);
    // The domain from this label on: at least two labels, and not a bare shared one such as ac.uk.
    if (!generic && !(a === secondLast + 1 && shared) && !(secondLast < from && a === from && shared)) {
      out.push(hashRange(HASH_DOMAIN, s, a, to), entity);
    }
    a = b + 1;
  }
}
