/**
 * The provider's own reading of the `scope` parameter (spec 2.2). Written independently of the
 * SDK's `parseScope` on purpose: the test provider stands for the service, so an SDK bug in scope
 * handling must show up as a disagreement, not be shared by both sides.
 *
 * The value arrives already percent-decoded by the query parser, where a literal `+` means a space
 * (form encoding). So `faculty%2Bstaff` reads as `faculty+staff`, while a literal `faculty+staff`
 * reads as the two values `faculty` and `staff`: those are refused as ambiguous (rule 4) instead of
 * being taken for the affiliation.
 */
import { AFFILIATIONS, type Affiliation, IDENTIFIERS, type Identifier } from '../core/scope-values.js';

// RFC 6749 §3.3 scope-token characters.
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

export interface RequestScope {
  affiliation: Affiliation;
  /** The identifier requested, if any. */
  identifier: Identifier | undefined;
  /** The values as requested, `openid` first (added when absent: spec 2.4 says it is included). */
  values: string[];
}

export type ScopeCheck = { ok: true; scope: RequestScope } | { ok: false; reason: string };

/**
 * Check a decoded scope string against spec 2.2 and the client's allowed scopes
 * (`undefined`: every value allowed).
 */
export function checkRequestScope(raw: string | null, allowed: readonly string[] | undefined): ScopeCheck {
  if (raw === null || raw.trim() === '') return { ok: false, reason: 'scope is missing' };
  const values = raw.split(' ').filter((v) => v !== '');
  const seen = new Set<string>();
  for (const value of values) {
    if (!SCOPE_TOKEN.test(value))
      return { ok: false, reason: `scope value ${JSON.stringify(value)} is malformed` };
    if (seen.has(value)) return { ok: false, reason: `scope value ${value} is repeated` };
    seen.add(value);
  }
  if (seen.has('faculty') || seen.has('staff')) {
    return { ok: false, reason: 'faculty and staff are not affiliations on their own (was %2B sent as +?)' };
  }
  const affiliations = values.filter((v) => AFFILIATIONS.includes(v as Affiliation));
  const identifiers = values.filter((v) => IDENTIFIERS.includes(v as Identifier));
  if (affiliations.length !== 1) {
    return { ok: false, reason: `exactly one affiliation is required, got ${affiliations.length}` };
  }
  if (identifiers.length > 1) return { ok: false, reason: 'at most one identifier is allowed' };
  if (allowed !== undefined) {
    const refused = values.find((v) => v !== 'openid' && !allowed.includes(v));
    if (refused !== undefined)
      return { ok: false, reason: `scope value ${refused} is not allowed for this client` };
  }
  return {
    ok: true,
    scope: {
      affiliation: affiliations[0] as Affiliation,
      identifier: identifiers[0] as Identifier | undefined,
      values: seen.has('openid') ? values : ['openid', ...values],
    },
  };
}
