import * as fc from 'fast-check';
import type { InputForm, NationalNumber, NumberFormatName } from './expected-number.ts';

/** A country code as E.164 has them: 1 to 3 digits, no leading zero. */
export const countryCode = (): fc.Arbitrary<string> => fc.stringMatching(/^[1-9][0-9]{0,2}$/);

/** A national number of the PBX's country: national significant number of 4 to 11 digits, no leading zero. */
export const nationalNumber = (): fc.Arbitrary<NationalNumber> =>
  fc.record({ countryCode: countryCode(), significant: fc.stringMatching(/^[1-9][0-9]{3,10}$/) });

export const numberFormat = (): fc.Arbitrary<NumberFormatName> => fc.constantFrom('+xx', '00xx', '0');

export const inputForm = (): fc.Arbitrary<InputForm> => fc.constantFrom('national', 'plus', 'double-zero');

/** A capitalised word of ASCII letters. */
export const word = (): fc.Arbitrary<string> =>
  fc
    .tuple(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'), fc.stringMatching(/^[a-z]{1,8}$/))
    .map(([a, b]) => a + b);

/** One to three words with single spaces: a name no trimming or white-space folding changes. */
export const personName = (): fc.Arbitrary<string> =>
  fc.array(word(), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));

/** RFC 3986 unreserved characters. */
const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';

export const unreservedText = (minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...UNRESERVED), minLength, maxLength });

/**
 * Text made of pieces that would change if the replacement were a regex replacement or were
 * scanned again for placeholders (`$&`, `$1`, `{tel}`, `\1`), reserved characters whose encoding
 * is open, and unreserved ones. No space (see `urlHostileText`), `%` (already-encoded input is
 * open), `#` or `+`.
 */
export const literalFieldText = (): fc.Arbitrary<string> =>
  fc
    .array(
      fc.constantFrom(
        '$&',
        '$1',
        '$$',
        "$'",
        '{tel}',
        '{0}',
        '\\1',
        '.*',
        '(a|b)',
        '!',
        '*',
        "'",
        ',',
        ';',
        ':',
        '@',
        '=',
        '&',
        'x',
        'Z',
        '7',
        '-',
        '_',
        '~',
      ),
      { minLength: 1, maxLength: 8 },
    )
    .map((pieces) => pieces.join(''));

/** Characters a URL may not carry as they are, mixed with unreserved ones; no `+`, `%` or `#`. */
export const urlHostileText = (): fc.Arbitrary<string> =>
  fc
    .array(
      fc.constantFrom(
        ' ',
        '"',
        '<',
        '>',
        '\\',
        '^',
        '`',
        '{',
        '}',
        '|',
        '\t',
        'ä',
        'é',
        'ß',
        '€',
        '中',
        '😀',
        'a',
        'B',
        '3',
        '-',
        '.',
        '_',
        '~',
      ),
      { minLength: 1, maxLength: 12 },
    )
    .map((chars) => chars.join(''));

/** A configuration-field id that is not `tel`. */
export const fieldId = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom('username', 'password', 'securityToken', 'tenant'),
    fc.stringMatching(/^[a-z][A-Za-z0-9_]{0,7}$/).filter((id) => id !== 'tel'),
  );

/**
 * A 3xx status to send with a `Location` (RESOLVER-REDIRECTS: "A 3xx response is followed"): any of
 * 300 to 399, the usual redirect statuses as often as all the others.
 */
export const redirectStatus = (): fc.Arbitrary<number> =>
  fc.oneof(fc.constantFrom(301, 302, 303, 307, 308), fc.integer({ min: 300, max: 399 }));

/** A path of one to three lower-case segments with an optional query, all unreserved. */
export const pathAndQuery = (): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { minLength: 1, maxLength: 3 }),
      fc.option(fc.tuple(fc.stringMatching(/^[a-z]{1,5}$/), fc.stringMatching(/^[a-z0-9]{1,6}$/)), {
        nil: undefined,
      }),
    )
    .map(([segments, query]) => `/${segments.join('/')}${query ? `?${query[0]}=${query[1]}` : ''}`);

/** A printable-ASCII user name without `:` (RFC 7617) for Basic. */
export const basicUser = (): fc.Arbitrary<string> =>
  fc
    .string({
      unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
      minLength: 1,
      maxLength: 12,
    })
    .filter((u) => !u.includes(':'));

/** A printable-ASCII password (may hold `:`, spaces inside). */
export const asciiPassword = (minLength = 0): fc.Arbitrary<string> =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength,
    maxLength: 16,
  });
