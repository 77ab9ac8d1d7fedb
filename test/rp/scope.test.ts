import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AffiliationError } from '../../src/core/errors.js';
import { ScopeError } from '../../src/rp/errors.js';
import {
  AFFILIATIONS,
  type BuildScopeOptions,
  buildScope,
  encodeScopeForWire,
  IDENTIFIERS,
  parseScope,
} from '../../src/rp/scope.js';
import type { Affiliation, Identifier } from '../../src/rp/types.js';

describe('parseScope: valid strings', () => {
  const valid: [string, Partial<ReturnType<typeof parseScope>>][] = [
    [
      'openid student',
      { affiliation: 'student', identifier: 'transient', identifierExplicit: false, scopes: [] },
    ],
    ['student', { affiliation: 'student', values: ['openid', 'student'] }],
    ['openid faculty+staff', { affiliation: 'faculty+staff' }],
    [
      'openid employee persistent',
      { affiliation: 'employee', identifier: 'persistent', identifierExplicit: true },
    ],
    ['openid member transient', { affiliation: 'member', identifier: 'transient', identifierExplicit: true }],
    ['member openid', { affiliation: 'member', values: ['member', 'openid'] }],
    [
      'openid student email profile',
      { scopes: ['email', 'profile'], values: ['openid', 'student', 'email', 'profile'] },
    ],
    ['persistent student openid x:y!#$~', { identifier: 'persistent', scopes: ['x:y!#$~'] }],
  ];
  it.each(valid)('%s', (input, expected) => {
    expect(parseScope(input)).toMatchObject(expected);
  });
});

describe('parseScope: invalid strings name the broken rule', () => {
  const invalid: [string, string, RegExp][] = [
    ['', 'empty string: no affiliation', /rule 1.*empty/],
    ['   ', 'whitespace only', /rule 1.*empty/],
    ['openid', 'no affiliation', /rule 1.*no affiliation/],
    ['openid email', 'no affiliation among further scopes', /rule 1.*no affiliation/],
    ['openid student member', 'two affiliations', /rule 1.*more than one affiliation/],
    ['openid faculty+staff employee', 'two affiliations', /rule 1.*more than one affiliation/],
    ['openid student persistent transient', 'two identifiers', /rule 2.*more than one identifier/],
    ['openid student student', 'duplicate affiliation', /rule 4.*duplicated/],
    ['openid openid student', 'duplicate openid', /rule 4.*duplicated/],
    ['openid student persistent persistent', 'duplicate identifier', /rule 4.*duplicated/],
    ['openid  student', 'double space', /rule 3.*empty/],
    [' openid student', 'leading space', /rule 3.*empty/],
    ['openid student ', 'trailing space', /rule 3.*empty/],
    ['openid\tstudent', 'tab is not a separator', /U\+0009.*RFC 6749/],
    ['openid student\n', 'newline', /U\+000A/],
    ['openid student "x"', 'double quote outside grammar', /U\+0022/],
    ['openid student a\\b', 'backslash outside grammar', /U\+005C/],
    ['openid student caf\u00e9', 'non-ASCII outside grammar', /U\+00E9/],
    ['openid faculty staff', "'+' decoded to a space", /rule 4.*faculty\+staff.*%2B/],
    ['openid faculty', 'half of faculty+staff', /rule 4.*faculty/],
    ['openid student staff', 'half of faculty+staff beside another affiliation', /rule 4.*faculty\+staff/],
    ['openid faculty%2Bstaff', 'still percent-encoded', /rule 4.*percent-encoded/],
    ['openid%20student', 'still percent-encoded space', /rule 4.*percent-encoded/],
    ['openid stud%65nt', 'percent-encoded reserved value', /rule 4.*percent-encoded/],
    ['openid Student', 'case variant of an affiliation', /rule 4.*only in case/],
    ['OpenID student', 'case variant of openid', /rule 4.*only in case/],
    ['openid student PERSISTENT', 'case variant of an identifier', /rule 4.*only in case/],
  ];
  it.each(invalid)('%j (%s)', (input, _why, message) => {
    const error = catchError(() => parseScope(input));
    expect(error).toBeInstanceOf(ScopeError);
    expect(error).toBeInstanceOf(AffiliationError);
    expect((error as ScopeError).code).toBe('invalid_scope');
    expect((error as ScopeError).message).toMatch(message);
    expect((error as ScopeError).message).toContain('spec 2.2');
  });

  it('refuses non-string input with a ScopeError', () => {
    expect(() => parseScope(undefined as unknown as string)).toThrow(ScopeError);
    expect(() => parseScope(42 as unknown as string)).toThrow(/expected a string/);
  });

  it('bounds the input echoed in messages', () => {
    const error = catchError(() => parseScope(`openid ${'x'.repeat(10_000)}`)) as ScopeError;
    expect(error.message.length).toBeLessThan(400);
  });
});

describe('buildScope', () => {
  it('puts openid first, then affiliation, identifier and further scopes', () => {
    expect(buildScope({ affiliation: 'student' })).toBe('openid student');
    expect(buildScope({ affiliation: 'faculty+staff', identifier: 'persistent' })).toBe(
      'openid faculty+staff persistent',
    );
    expect(buildScope({ affiliation: 'member', identifier: 'transient', scopes: ['email', 'profile'] })).toBe(
      'openid member transient email profile',
    );
  });

  it('ignores openid among the further scopes (it is always sent once, first)', () => {
    expect(buildScope({ affiliation: 'employee', scopes: ['openid', 'email'] })).toBe(
      'openid employee email',
    );
  });

  const invalid: [string, unknown, RegExp][] = [
    ['no affiliation', {}, /rule 1.*no affiliation/],
    ['unknown affiliation', { affiliation: 'alum' }, /rule 1.*unknown affiliation "alum"/],
    ['affiliation as faculty staff', { affiliation: 'faculty staff' }, /rule 1.*unknown affiliation/],
    ['non-string affiliation', { affiliation: 7 }, /rule 1.*type number/],
    ['unknown identifier', { affiliation: 'student', identifier: 'pairwise' }, /rule 2.*unknown identifier/],
    [
      'a second affiliation in scopes',
      { affiliation: 'student', scopes: ['member'] },
      /rule 1.*`affiliation`/,
    ],
    ['an identifier in scopes', { affiliation: 'student', scopes: ['persistent'] }, /rule 2.*`identifier`/],
    [
      'duplicated further scope',
      { affiliation: 'student', scopes: ['email', 'email'] },
      /rule 4.*duplicated/,
    ],
    ['empty further scope', { affiliation: 'student', scopes: [''] }, /empty or whitespace/],
    ['whitespace further scope', { affiliation: 'student', scopes: ['  '] }, /empty or whitespace/],
    ['further scope with a space', { affiliation: 'student', scopes: ['a b'] }, /U\+0020.*RFC 6749/],
    ['further scope "faculty"', { affiliation: 'student', scopes: ['faculty'] }, /rule 4/],
    ['further scope case variant', { affiliation: 'student', scopes: ['Member'] }, /only in case/],
    ['scopes not an array', { affiliation: 'student', scopes: 'email' }, /array of strings/],
    ['non-string further scope', { affiliation: 'student', scopes: [1] }, /not a string/],
    ['not an object', null, /expected an object/],
  ];
  it.each(invalid)('refuses %s', (_name, options, message) => {
    const error = catchError(() => buildScope(options as BuildScopeOptions));
    expect(error).toBeInstanceOf(ScopeError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('encodeScopeForWire', () => {
  it('encodes spaces as %20 and + as %2B', () => {
    expect(encodeScopeForWire('openid faculty+staff persistent')).toBe(
      'openid%20faculty%2Bstaff%20persistent',
    );
    expect(encodeScopeForWire('openid student')).toBe('openid%20student');
  });

  it('differs from URLSearchParams, which would send a space as "+" (regression guard)', () => {
    const viaSearchParams = new URLSearchParams({ scope: 'openid faculty+staff' }).toString();
    expect(viaSearchParams).toBe('scope=openid+faculty%2Bstaff');
    expect(encodeScopeForWire('openid faculty+staff')).not.toContain('+');
  });

  it('decodes back to the same scope on the server side', () => {
    for (const affiliation of AFFILIATIONS) {
      const scope = buildScope({ affiliation, identifier: 'persistent', scopes: ["a!b*c'(d)~"] });
      const query = `scope=${encodeScopeForWire(scope)}`;
      expect(new URLSearchParams(query).get('scope')).toBe(scope);
      expect(decodeURIComponent(encodeScopeForWire(scope))).toBe(scope);
      expect(parseScope(new URLSearchParams(query).get('scope') ?? '')).toMatchObject({ affiliation });
    }
  });
});

describe('properties', () => {
  const printable = fc.string({ unit: 'grapheme-ascii', maxLength: 60 });
  const reservedish = fc.constantFrom(
    'openid',
    'student',
    'faculty+staff',
    'faculty',
    'staff',
    'employee',
    'member',
    'persistent',
    'transient',
    'email',
    'Student',
    '%2B',
    '',
  );
  const scopeLike = fc
    .array(fc.oneof(reservedish, printable), { maxLength: 8 })
    .map((parts) => parts.join(' '));

  it('parseScope returns a result or throws ScopeError, never anything else', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), scopeLike), (input) => {
        try {
          const parsed = parseScope(input);
          expect(AFFILIATIONS).toContain(parsed.affiliation);
          expect(parsed.values[0] === 'openid' || parsed.values.includes('openid')).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(ScopeError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('parseScope throws ScopeError for any non-string', () => {
    fc.assert(
      fc.property(
        fc.anything().filter((v) => typeof v !== 'string'),
        (input) => {
          expect(() => parseScope(input as string)).toThrow(ScopeError);
        },
      ),
    );
  });

  const token = fc
    .string({
      unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789:/._-!#$&()*,;<=>?@[]^`{|}~'),
      minLength: 1,
      maxLength: 12,
    })
    .filter((t) => !['openid', 'faculty', 'staff', ...AFFILIATIONS, ...IDENTIFIERS].includes(t));

  it('parseScope(buildScope(parts)) gives the parts back, and buildScope(parseScope(s)) gives s back', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Affiliation>(...AFFILIATIONS),
        fc.option(fc.constantFrom<Identifier>(...IDENTIFIERS), { nil: undefined }),
        fc.uniqueArray(token, { maxLength: 5 }),
        (affiliation, identifier, scopes) => {
          const built = buildScope({ affiliation, identifier, scopes });
          const parsed = parseScope(built);
          expect(parsed.affiliation).toBe(affiliation);
          expect(parsed.identifier).toBe(identifier ?? 'transient');
          expect(parsed.identifierExplicit).toBe(identifier !== undefined);
          expect(parsed.scopes).toEqual(scopes);
          expect(parsed.values.join(' ')).toBe(built);
          const rebuilt = buildScope({
            affiliation: parsed.affiliation,
            identifier: parsed.identifierExplicit ? parsed.identifier : undefined,
            scopes: parsed.scopes,
          });
          expect(rebuilt).toBe(built);
          const wire = encodeScopeForWire(built);
          expect(wire).not.toMatch(/[ +]/);
          expect(new URLSearchParams(`scope=${wire}`).get('scope')).toBe(built);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
