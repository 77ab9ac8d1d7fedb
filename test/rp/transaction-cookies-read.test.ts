/**
 * `TransactionCookies.read` finds this store's cookie names in a Cookie header by searching for
 * them (instead of splitting every pair): it must read exactly what the plain definition reads —
 * split on ";", cut each pair at its first "=", trim name and value, unquote — on any header.
 */
import { describe, expect, it } from 'vitest';
import { MAX_TRANSACTION_COOKIES, TransactionCookies } from '../../src/rp/transactions/cookies.js';

/** The plain definition, as the store read cookies before the search. */
function reference(prefix: string, header: string): string[][] {
  const slots: string[][] = Array.from({ length: MAX_TRANSACTION_COOKIES }, () => []);
  const lead = `${prefix}_`;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq === -1) continue;
    const name = pair.slice(0, eq).trim();
    if (name.length !== lead.length + 1 || !name.startsWith(lead)) continue;
    const slot = name.charCodeAt(lead.length) - 48;
    if (slot < 0 || slot >= MAX_TRANSACTION_COOKIES) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (value !== '') slots[slot]?.push(value);
  }
  return slots;
}

/** A small deterministic PRNG, so a failure names a reproducible case. */
function prng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

describe('TransactionCookies.read', () => {
  const cookies = new TransactionCookies({}, 'av_bind');

  it('reads the values of each slot from a realistic header', () => {
    const header =
      '_ga=GA1.2.3.4; __Host-av_bind_1=b; cart=x=y; __Host-av_bind_0="a"; __Host-av_bind_3=no; ' +
      'x__Host-av_bind_2=no; __Host-av_bind_2 = c ;__Host-av_bind_22=no; __Host-av_bind_1=b2';
    expect(cookies.read(header)).toEqual([['a'], ['b', 'b2'], ['c']]);
    expect(cookies.read('')).toEqual([[], [], []]);
    expect(cookies.read('__Host-av_bind_0')).toEqual([[], [], []]);
    expect(cookies.read('v=__Host-av_bind_0=x')).toEqual([[], [], []]);
    expect(cookies.read('\u00a0__Host-av_bind_0=\tz\u00a0;\n__Host-av_bind_1==q')).toEqual([
      ['z'],
      ['=q'],
      [],
    ]);
  });

  it('reads exactly what splitting every pair reads, on 20,000 generated headers', () => {
    const random = prng(20260712);
    const pieces = [
      '__Host-av_bind_0',
      '__Host-av_bind_1',
      '__Host-av_bind_2',
      '__Host-av_bind_3',
      '__Host-av_bind_',
      '__Host-av_bind',
      'x',
      'value',
      '=',
      ';',
      '; ',
      ' ',
      '\t',
      '\u00a0',
      '\n',
      '"',
      '_',
      '0',
      '9',
    ];
    for (let n = 0; n < 20_000; n++) {
      let header = '';
      const length = Math.floor(random() * 12);
      for (let i = 0; i < length; i++) header += pieces[Math.floor(random() * pieces.length)];
      expect(cookies.read(header), JSON.stringify(header)).toEqual(reference(cookies.prefix, header));
    }
  });
});
