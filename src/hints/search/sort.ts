/**
 * The order of an array of strings (by UTF-16 code units), fast: a numeric sort of a typed array of
 * keys "next characters × 2^bits + position" is native; the runs that share those characters are
 * sorted again the same way on the characters after them (most-significant-digit first), and only a
 * run whose shared characters reach beyond ASCII falls back to a string comparator. A character
 * outside ASCII packs as 127 and ends the key, which keeps key order consistent with string order.
 * Measured on the 92,000 distinct words of 65,000 institutions: 35–43 ms with the comparator on every
 * run of five shared characters (most words of a feed share them), 12–15 ms so (the index build is
 * on the refresh path).
 */
export function sortOrder(texts: readonly string[]): Uint32Array {
  const count = texts.length;
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  sortRun(texts, order, 0, count, 0, new Float64Array(count));
  return order;
}

function sortRun(
  texts: readonly string[],
  order: Uint32Array,
  from: number,
  to: number,
  offset: number,
  keys: Float64Array,
): void {
  const n = to - from;
  if (n <= SMALL) {
    insertionSort(texts, order, from, to, offset);
    return;
  }
  const bits = Math.max(1, Math.ceil(Math.log2(n + 1)));
  const scale = 2 ** bits;
  const chars = Math.floor((52 - bits) / 7);
  for (let x = 0; x < n; x++) {
    const t = texts[order[from + x]!]!;
    let key = 0;
    let k = offset;
    for (; k < offset + chars && k < t.length; k++) {
      const c = t.charCodeAt(k);
      if (c >= 127) {
        key = key * 128 + 127;
        k++;
        break;
      }
      key = key * 128 + c;
    }
    for (; k < offset + chars; k++) key *= 128;
    keys[from + x] = key * scale + x;
  }
  const run = keys.subarray(from, to);
  run.sort();
  const before = order.slice(from, to);
  for (let x = 0; x < n; x++) order[from + x] = before[run[x]! % scale]!;
  for (let i = 0; i < n; ) {
    const prefix = Math.floor(run[i]! / scale);
    let j = i + 1;
    while (j < n && Math.floor(run[j]! / scale) === prefix) j++;
    if (j - i > 1) {
      // Distinct strings that share these characters: the next ones decide, unless they left ASCII.
      if (wide(texts[order[from + i]!]!, offset, chars))
        insertionSort(texts, order, from + i, from + j, offset);
      else sortRun(texts, order, from + i, from + j, offset + chars, keys);
    }
    i = j;
  }
}

/** Whether `text` has a character outside ASCII in `[offset, offset + chars)`. */
function wide(text: string, offset: number, chars: number): boolean {
  for (let k = offset; k < offset + chars && k < text.length; k++) if (text.charCodeAt(k) >= 127) return true;
  return false;
}

/** Runs this short are sorted in place (most runs that share the first characters are). */
const SMALL = 24;

/** Sorts `order[from, to)` by text, all of whose texts are equal before `offset`. */
function insertionSort(
  texts: readonly string[],
  order: Uint32Array,
  from: number,
  to: number,
  offset: number,
): void {
  for (let i = from + 1; i < to; i++) {
    const item = order[i]!;
    const text = texts[item]!;
    let j = i - 1;
    while (j >= from && compareFrom(texts[order[j]!]!, text, offset) > 0) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = item;
  }
}

/** `a` against `b` by UTF-16 code units, from `offset` on. */
function compareFrom(a: string, b: string, offset: number): number {
  const end = Math.min(a.length, b.length);
  for (let k = offset; k < end; k++) {
    const d = a.charCodeAt(k) - b.charCodeAt(k);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}
