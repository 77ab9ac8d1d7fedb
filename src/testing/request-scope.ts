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

/**
 * Check a decoded scope string against spec 2.2 and the client's allowed scopes (`undefined`: every
 * value allowed). `undefined` when it fails: the service answers every failure the same way.
 */
export function checkRequestScope(
  raw: string | null,
  allowed: readonly string[] | undefined,
): RequestScope | undefined {
  const values = (raw ?? '').split(' ').filter((v) => v !== '');
  // Malformed or repeated values; `faculty` or `staff` alone (a `+` not sent as %2B).
  if (values.some((v, i) => !SCOPE_TOKEN.test(v) || values.indexOf(v) !== i)) return undefined;
  if (values.includes('faculty') || values.includes('staff')) return undefined;
  const affiliations = values.filter((v) => AFFILIATIONS.includes(v as Affiliation));
  const identifiers = values.filter((v) => IDENTIFIERS.includes(v as Identifier));
  // Exactly one affiliation, at most one identifier, nothing the client may not ask for.
  if (affiliations.length !== 1 || identifiers.length > 1) return undefined;
  if (allowed !== undefined && values.some((v) => v !== 'openid' && !allowed.includes(v))) return undefined;
  return {
    affiliation: affiliations[0] as Affiliation,
    identifier: identifiers[0] as Identifier | undefined,
    values: values.includes('openid') ? values : ['openid', ...values],
  };
}
