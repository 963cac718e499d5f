import * as fc from 'fast-check';

/** Code points below the surrogates; the 2,048 surrogates (U+D800–U+DFFF) are left out. */
const SURROGATES_START = 0xd800;
const SURROGATES = 0x800;

/**
 * One character of fast-check's `unit: 'binary'` (any code point but a surrogate), drawn exactly as
 * fast-check draws it (a `nat` over the 1,112,064 code points, mapped past the surrogates), so
 * `fc.string({ unit: binaryUnit })` yields the same strings as `fc.string({ unit: 'binary' })` for
 * the same seed. fast-check's own unit builds a reverse table of all 1.1 million code points the
 * first time a string arbitrary checks its "dangerous" strings (`__proto__`, …), about 0.65 s of
 * every suite run's start (issue 31 §1); this one maps a character back in constant time.
 */
export const binaryUnit: fc.Arbitrary<string> = fc.nat({ max: 0x10ffff - SURROGATES }).map(
  (index) => String.fromCodePoint(index < SURROGATES_START ? index : index + SURROGATES),
  (value) => {
    if (typeof value !== 'string') throw new Error('not a string');
    const point = value.codePointAt(0);
    if (point === undefined || String.fromCodePoint(point) !== value) throw new Error('not one code point');
    if (point >= SURROGATES_START && point < SURROGATES_START + SURROGATES) throw new Error('a surrogate');
    return point < SURROGATES_START ? point : point - SURROGATES;
  },
);
