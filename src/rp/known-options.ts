/**
 * Refuse option names the SDK does not know, with the right name suggested: `redirect_uri` for
 * `redirectUri` would otherwise be silently ignored (and the required option reported missing, or
 * worse, an optional one silently left at its default).
 */
import { OptionsError } from '../core/errors.js';

/** Lower case without `_` and `-`: `redirect_uri`, `RedirectURI` and `redirect-uri` all meet. */
function fold(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** Edit distance, for short option names only. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** The known name closest to an unknown one, if any is close. */
export function suggestOption(name: string, known: readonly string[]): string | undefined {
  const folded = fold(name);
  const exact = known.find((k) => fold(k) === folded);
  if (exact) return exact;
  // The name without its unit: `timeout` for `timeoutMs`, `clockTolerance` for `clockToleranceSeconds`.
  const prefix = folded.length >= 4 ? known.find((k) => fold(k).startsWith(folded)) : undefined;
  if (prefix) return prefix;
  let best: string | undefined;
  let bestDistance = 3;
  for (const k of known) {
    const d = distance(folded, fold(k));
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

/**
 * Throw an `OptionsError` for the first own enumerable key of `options` that is not in `known`.
 *
 * @param where Names the call in the message, e.g. `AffiliationClient.discover`.
 */
export function checkKnownOptions(options: object, known: readonly string[], where: string): void {
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    const suggestion = suggestOption(name, known);
    const shown = JSON.stringify(name.slice(0, 40));
    throw new OptionsError(
      suggestion
        ? `${where}: unknown option ${shown}; did you mean "${suggestion}"?`
        : `${where}: unknown option ${shown}; known options: ${known.join(', ')}`,
    );
  }
}
