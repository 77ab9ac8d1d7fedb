import { mergeNames, sameNames } from './parse.js';
import type { HintEntry } from './types.js';

export const EMPTY: ReadonlyMap<string, HintEntry> = new Map();

/**
 * Merge the sources' lists in source order: the first source listing an entityID wins per language,
 * later ones only add languages it lacks; the country is the first one any source gives (so a
 * country file fills in the country of an opt-in or region file listed before it).
 */
export function mergeEntries(
  lists: readonly (ReadonlyMap<string, HintEntry> | undefined)[],
): ReadonlyMap<string, HintEntry> {
  const [head, ...rest] = lists.filter((l): l is ReadonlyMap<string, HintEntry> => l !== undefined);
  if (head === undefined || rest.length === 0) return head ?? EMPTY;
  const out = new Map<string, HintEntry>(head);
  for (const list of rest) {
    for (const [id, entry] of list) {
      const first = out.get(id);
      if (!first) {
        out.set(id, entry);
        continue;
      }
      const names = mergeNames(first.names, entry.names);
      const country = first.country ?? entry.country;
      if (names !== first.names || country !== first.country) {
        out.set(id, Object.freeze({ entityId: id, names, country }));
      }
    }
  }
  return out;
}

/** What changed from `before` to `after`; `changed` also counts an institution that only moved country. */
export function diffEntries(before: ReadonlyMap<string, HintEntry>, after: ReadonlyMap<string, HintEntry>) {
  const added: string[] = [];
  const removed: string[] = [];
  const renamed: string[] = [];
  let moved = false;
  for (const [id, entry] of after) {
    const old = before.get(id);
    if (!old) added.push(id);
    else if (old !== entry) {
      if (!sameNames(old.names, entry.names)) renamed.push(id);
      else if (old.country !== entry.country) moved = true;
    }
  }
  for (const id of before.keys()) {
    if (!after.has(id)) removed.push(id);
  }
  return { added, removed, renamed, changed: moved || added.length + removed.length + renamed.length > 0 };
}
