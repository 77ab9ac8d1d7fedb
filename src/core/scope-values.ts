const affiliations = ['student', 'faculty+staff', 'employee', 'member'] as const;
const identifiers = ['persistent', 'transient'] as const;

/** The four affiliation scopes of the service (spec 2.2). @group Types */
export type Affiliation = (typeof affiliations)[number];
/** The two identifier scopes of the service (spec 2.2); `transient` when none is requested. @group Types */
export type Identifier = (typeof identifiers)[number];

/**
 * The affiliation values of spec 2.2, in the spec's order: the one list the SDK, the test provider
 * and the demo use.
 */
export const AFFILIATIONS: readonly Affiliation[] = Object.freeze(affiliations);
/** The identifier values of spec 2.2. */
export const IDENTIFIERS: readonly Identifier[] = Object.freeze(identifiers);
