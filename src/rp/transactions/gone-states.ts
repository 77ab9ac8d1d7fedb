/** Why a state is no longer held. */
export type GoneKind = 'taken' | 'expired' | 'superseded' | 'evicted';

export interface GoneEntry {
  kind: GoneKind;
  /** When to forget the state, ms since the epoch. */
  until: number;
  /** The binding cookie's slot and value, for the memory store's `clearCookie`. */
  slot?: number;
  binding?: string;
}

/**
 * What happened to states that are no longer held, remembered for `ttlMs` and at most `max` of
 * them (the oldest is forgotten first), so that a second callback for a state gets a precise answer
 * (`replayed_transaction`, expired, superseded) instead of "unknown". A plain `Map`: its insertion
 * order is the order entries are forgotten in (each entry lives `ttlMs` from its insertion), so the
 * lazy sweep stops at the first entry still due.
 */
export class GoneStates {
  readonly #entries = new Map<string, GoneEntry>();
  readonly #max: number;
  readonly #ttlMs: number;

  constructor(max: number, ttlMs: number) {
    this.#max = max;
    this.#ttlMs = ttlMs;
  }

  note(state: string, kind: GoneKind, now: number, extra: Omit<GoneEntry, 'kind' | 'until'> = {}): void {
    this.#entries.delete(state);
    if (this.#entries.size >= this.#max) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(state, { kind, until: now + this.#ttlMs, ...extra });
  }

  get(state: string, now: number): GoneEntry | undefined {
    const entry = this.#entries.get(state);
    if (entry === undefined) return undefined;
    if (now >= entry.until) {
      this.#entries.delete(state);
      return undefined;
    }
    return entry;
  }

  /** Forget the entries whose time is up, oldest first. */
  sweep(now: number): void {
    for (const [state, entry] of this.#entries) {
      if (now < entry.until) break;
      this.#entries.delete(state);
    }
  }
}
