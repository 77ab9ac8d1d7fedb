/**
 * The scope rules of the service (spec section 2.2) and the scope-token grammar of RFC 6749 §3.3.
 *
 * A valid scope string is `openid`, exactly one affiliation, at most one identifier (`transient`
 * is implied when none is given) and any further scopes, separated by single spaces, each value at
 * most once. On the wire the space is `%20` and the `+` of `faculty+staff` is `%2B`.
 *
 * Why `faculty staff` is an error: a scope that went through form/query decoding once too often
 * (`faculty+staff` → `faculty staff`) would otherwise read as two unknown further scopes and no
 * affiliation, or worse be "repaired" into something the merchant did not ask for. The spec says
 * an ambiguous scope string is rejected (rule 4), so `faculty` and `staff` as separate values,
 * values that are still percent-encoded, and values that differ from a reserved value only in case
 * are all refused with a message that says what probably happened.
 */

import { AFFILIATIONS, IDENTIFIERS } from '../core/scope-values.js';
import { ScopeError } from './errors.js';
import type { Affiliation, Identifier } from './types.js';

/** The affiliation values of spec 2.2, in the spec's order. @group Scope */
/** The identifier values of spec 2.2. @group Scope */
export { AFFILIATIONS, IDENTIFIERS };

/** Parts of a scope, for {@link buildScope}. @group Scope */
export interface BuildScopeOptions {
  /** The one affiliation to validate (rule 1). */
  affiliation: Affiliation;
  /** The identifier kind; when absent none is sent and the service assumes `transient` (rule 2). */
  identifier?: Identifier | undefined;
  /**
   * Further scope values (rule 3), sent after the affiliation and identifier in this order.
   * `openid` may be listed and is ignored (it is always sent first). Default: none.
   */
  scopes?: readonly string[] | undefined;
}

/** A scope string taken apart by {@link parseScope}. @group Scope */
export interface ParsedScope {
  /** The one affiliation value. */
  affiliation: Affiliation;
  /** The identifier value, `transient` when none was given. */
  identifier: Identifier;
  /** Whether the identifier was present in the string (`false`: implied `transient`). */
  identifierExplicit: boolean;
  /** Further scope values in their order, without `openid`, the affiliation and the identifier. */
  scopes: string[];
  /** Every value in wire order, `openid` first when the input lacked it. */
  values: string[];
}

const RULE_1 = 'spec 2.2 rule 1: exactly one affiliation value';
const RULE_2 = 'spec 2.2 rule 2: at most one identifier value';
const RULE_3 = 'spec 2.2 rule 3: values are separated by single spaces';
const RULE_4 = 'spec 2.2 rule 4: no ambiguous or unsupported scope string';
const GRAMMAR = 'RFC 6749 §3.3 scope-token grammar: %x21 / %x23-5B / %x5D-7E';

// RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
const SCOPE_TOKEN_RE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const BAD_CHAR_RE = /[^\x21\x23-\x5B\x5D-\x7E]/u;
const ENCODED_RE = /%(?:20|2b)/i;

export const AFFILIATION_SET: ReadonlySet<string> = new Set(AFFILIATIONS);
export const IDENTIFIER_SET: ReadonlySet<string> = new Set(IDENTIFIERS);
/** Reserved values by their lower-case form, to catch case variants. */
const RESERVED_LOWER: ReadonlyMap<string, string> = new Map(
  ['openid', ...AFFILIATIONS, ...IDENTIFIERS].map((v) => [v.toLowerCase(), v]),
);

/**
 * Build the space-separated scope string: `openid`, the affiliation, the identifier when given,
 * then the further scopes.
 *
 * @example
 * ```ts
 * buildScope({ affiliation: 'faculty+staff', identifier: 'persistent' });
 * // 'openid faculty+staff persistent'
 * ```
 * @throws {ScopeError} when a part is not allowed by spec 2.2 (the message names the rule).
 * @group Scope
 */
export function buildScope(options: BuildScopeOptions): string {
  if (typeof options !== 'object' || options === null) {
    throw new ScopeError(`Invalid scope parts (${RULE_1}): expected an object with an affiliation`);
  }
  const { affiliation, identifier, scopes } = options;
  if (affiliation === undefined || affiliation === null) {
    throw new ScopeError(`Invalid scope (${RULE_1}): no affiliation given; use one of ${list(AFFILIATIONS)}`);
  }
  if (typeof affiliation !== 'string' || !AFFILIATION_SET.has(affiliation)) {
    throw new ScopeError(
      `Invalid scope (${RULE_1}): unknown affiliation ${show(affiliation)}; use one of ${list(AFFILIATIONS)}`,
    );
  }
  if (identifier !== undefined && (typeof identifier !== 'string' || !IDENTIFIER_SET.has(identifier))) {
    throw new ScopeError(
      `Invalid scope (${RULE_2}): unknown identifier ${show(identifier)}; use one of ${list(IDENTIFIERS)} or none`,
    );
  }
  const values: string[] = ['openid', affiliation];
  if (identifier !== undefined) values.push(identifier);
  if (scopes !== undefined) {
    if (!Array.isArray(scopes)) {
      throw new ScopeError(`Invalid scope (${RULE_3}): further scopes must be an array of strings`);
    }
    const seen = new Set<string>();
    scopes.forEach((value: unknown, index) => {
      const where = `further scope #${index + 1}`;
      if (typeof value !== 'string') {
        throw new ScopeError(`Invalid scope (${RULE_3}): ${where} is not a string`);
      }
      checkToken(value, where);
      if (AFFILIATION_SET.has(value)) {
        throw new ScopeError(
          `Invalid scope (${RULE_1}): ${where} is the affiliation ${show(value)}; pass it as \`affiliation\`, not in \`scopes\``,
        );
      }
      if (IDENTIFIER_SET.has(value)) {
        throw new ScopeError(
          `Invalid scope (${RULE_2}): ${where} is the identifier ${show(value)}; pass it as \`identifier\`, not in \`scopes\``,
        );
      }
      checkAmbiguous(value, where);
      if (value === 'openid') return;
      if (seen.has(value)) {
        throw new ScopeError(`Invalid scope (${RULE_4}): ${where} ${show(value)} is duplicated`);
      }
      seen.add(value);
      values.push(value);
    });
  }
  return values.join(' ');
}

/**
 * Take a decoded scope string apart and check it against spec 2.2. `openid` may be absent from the
 * input; it is always in `values`.
 *
 * Strict by design: values are separated by exactly one space (no leading, trailing or double
 * spaces, no tabs), each value matches the RFC 6749 scope-token grammar and appears once. A string
 * whose `+` was decoded to a space (`openid faculty staff`) is rejected as ambiguous (rule 4): on the
 * wire the `+` must be sent as `%2B`, see {@link encodeScopeForWire}.
 *
 * @example
 * ```ts
 * const { affiliation, identifier, identifierExplicit } = parseScope('openid student');
 * // 'student', 'transient', false
 * ```
 * @throws {ScopeError} when the string breaks a rule (the message names it).
 * @group Scope
 */
export function parseScope(scope: string): ParsedScope {
  if (typeof scope !== 'string') {
    throw new ScopeError(`Invalid scope (${RULE_4}): expected a string, got ${typeof scope}`);
  }
  if (scope.trim() === '') {
    throw new ScopeError(`Invalid scope (${RULE_1}): the scope string is empty; it needs an affiliation`);
  }
  const tokens = scope.split(' ');
  const seen = new Set<string>();
  tokens.forEach((token, index) => {
    const where = `value #${index + 1}`;
    if (token === '') {
      throw new ScopeError(
        `Invalid scope (${RULE_3}): ${where} is empty (a leading, trailing or double space) in ${show(scope)}`,
      );
    }
    checkToken(token, where);
    if (seen.has(token)) {
      throw new ScopeError(
        `Invalid scope (${RULE_4}): ${where} ${show(token)} is duplicated in ${show(scope)}`,
      );
    }
    seen.add(token);
    checkAmbiguous(token, where);
  });
  const affiliations = tokens.filter((t) => AFFILIATION_SET.has(t)) as Affiliation[];
  const identifiers = tokens.filter((t) => IDENTIFIER_SET.has(t)) as Identifier[];
  const [affiliation] = affiliations;
  if (affiliation === undefined) {
    throw new ScopeError(
      `Invalid scope (${RULE_1}): no affiliation in ${show(scope)}; add one of ${list(AFFILIATIONS)}`,
    );
  }
  if (affiliations.length > 1) {
    throw new ScopeError(
      `Invalid scope (${RULE_1}): more than one affiliation (${list(affiliations)}) in ${show(scope)}`,
    );
  }
  if (identifiers.length > 1) {
    throw new ScopeError(
      `Invalid scope (${RULE_2}): more than one identifier (${list(identifiers)}) in ${show(scope)}`,
    );
  }
  const [explicitIdentifier] = identifiers;
  const values = seen.has('openid') ? tokens : ['openid', ...tokens];
  return {
    affiliation,
    identifier: explicitIdentifier ?? 'transient',
    identifierExplicit: explicitIdentifier !== undefined,
    scopes: tokens.filter((t) => t !== 'openid' && !AFFILIATION_SET.has(t) && !IDENTIFIER_SET.has(t)),
    values,
  };
}

/**
 * Percent-encode a scope string for the authorization request's query: spaces become `%20` and the
 * `+` of `faculty+staff` becomes `%2B` (spec 2.2 rule 3). Do not use `URLSearchParams` for the scope:
 * it encodes a space as `+`, which the service may read back as a literal `+`.
 *
 * @example
 * ```ts
 * encodeScopeForWire('openid faculty+staff'); // 'openid%20faculty%2Bstaff'
 * ```
 * @group Scope
 */
export function encodeScopeForWire(scope: string): string {
  // encodeURIComponent leaves only A-Z a-z 0-9 - _ . ! ~ * ' ( ) unescaped, all safe in a query
  // value; it turns ' ' into %20 and '+' into %2B, which is what the service expects.
  return encodeURIComponent(scope);
}

function checkToken(value: string, where: string): void {
  if (value.trim() === '') {
    throw new ScopeError(`Invalid scope (${RULE_3}): ${where} is empty or whitespace only`);
  }
  if (!SCOPE_TOKEN_RE.test(value)) {
    const bad = BAD_CHAR_RE.exec(value)?.[0] ?? '';
    const code = bad.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0') ?? '????';
    throw new ScopeError(
      `Invalid scope (${RULE_4}): ${where} ${show(value)} contains U+${code}, outside the ${GRAMMAR}`,
    );
  }
}

function checkAmbiguous(value: string, where: string): void {
  if (value === 'faculty' || value === 'staff') {
    throw new ScopeError(
      `Invalid scope (${RULE_4}): ${where} is "${value}" on its own; the affiliation is the single value ` +
        `"faculty+staff" (its "+" was probably decoded to a space: on the wire send it as %2B)`,
    );
  }
  const reserved = RESERVED_LOWER.get(value.toLowerCase());
  if (reserved !== undefined && reserved !== value) {
    throw new ScopeError(
      `Invalid scope (${RULE_4}): ${where} ${show(value)} differs from ${show(reserved)} only in case; scope values are case-sensitive`,
    );
  }
  const decoded = safeDecode(value);
  if (ENCODED_RE.test(value) || (decoded !== value && RESERVED_LOWER.has(decoded.toLowerCase()))) {
    throw new ScopeError(
      `Invalid scope (${RULE_4}): ${where} ${show(value)} looks percent-encoded; pass the decoded scope (encoding happens on the wire)`,
    );
  }
}

function safeDecode(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Quote a value for a message, bounded so hostile input cannot blow up logs. */
function show(value: unknown): string {
  if (typeof value !== 'string') return `(a value of type ${value === null ? 'null' : typeof value})`;
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

function list(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(', ');
}
