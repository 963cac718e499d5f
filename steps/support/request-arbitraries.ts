import * as fc from 'fast-check';

const FORMAT_TOKENS = ['checkmk', 'xml', 'json'];

const segment = fc.stringMatching(/^[a-z0-9_.~-]{1,12}$/).filter((s) => s !== '.' && s !== '..');

/**
 * Paths that name no format: one to three segments whose first one is not a format token in any
 * letter case (MON-UNKNOWN-PATH). Paths that only extend a token (`/xml/x`) or change its case are
 * left out: the spec does not say how strictly paths are matched.
 */
export const unknownPath: fc.Arbitrary<string> = fc
  .array(segment, { minLength: 1, maxLength: 3 })
  .filter((segments) => !FORMAT_TOKENS.some((t) => segments[0]!.toLowerCase().startsWith(t)))
  .map((segments) => `/${segments.join('/')}`);

/** `/`, the three format paths, or an unknown path. */
export const anyPath: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('/', '/checkmk', '/xml', '/json'),
  unknownPath,
);

/** One of the three format tokens. */
export const formatToken: fc.Arbitrary<'checkmk' | 'xml' | 'json'> = fc.constantFrom(
  'checkmk',
  'xml',
  'json',
);

/**
 * `format` values that are no token in any letter case (MON-UNKNOWN-FORMAT; whether `XML` counts
 * as `xml` is not stated).
 */
export const unknownFormatValue: fc.Arbitrary<string> = fc
  .stringMatching(/^[A-Za-z0-9_-]{0,12}$/)
  .filter((v) => !FORMAT_TOKENS.includes(v.toLowerCase()));

/** The request methods the data endpoint accepts (MON-HTTP-METHODS). */
export const acceptedMethod: fc.Arbitrary<string> = fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS');
