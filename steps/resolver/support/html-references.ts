import * as fc from 'fast-check';

/**
 * HTML character references for RESOLVER-EVAL-HTML-DECODE, from the spec's own example (`&amp;`)
 * and the HTML 4 entity set that every HTML decoder knows. Left out on purpose: references
 * without `;`, the C1 range `&#128;`–`&#159;` (HTML5 maps it to windows-1252, HTML 4 decoders do
 * not) and nested references such as `&amp;lt;` (one pass or two is not stated).
 */
export const NAMED_REFERENCES: Readonly<Record<string, string>> = {
  '&': 'amp',
  '<': 'lt',
  '>': 'gt',
  '"': 'quot',
  ä: 'auml',
  ö: 'ouml',
  ü: 'uuml',
  Ä: 'Auml',
  Ö: 'Ouml',
  Ü: 'Uuml',
  ß: 'szlig',
  é: 'eacute',
  è: 'egrave',
  à: 'agrave',
  ç: 'ccedil',
  ñ: 'ntilde',
  '©': 'copy',
  '®': 'reg',
  '€': 'euro',
  '–': 'ndash',
  '—': 'mdash',
};

/** Characters that must be written as references inside the cell the matcher reads. */
const MUST_ENCODE = new Set(['&', '<', '>', '"']);

/** Text of letters, inner spaces and characters with references; no white space at either end. */
export const referenceEncodableText = (): fc.Arbitrary<string> =>
  fc
    .array(
      fc.constantFrom(...Object.keys(NAMED_REFERENCES), "'", 'ł', '中', '😀', 'A', 'b', 'Z', '1', ' ', '.'),
      { minLength: 1, maxLength: 10 },
    )
    .map((chars) => chars.join('').trim())
    .filter((text) => text !== '');

function hex(code: number, upper: boolean): string {
  const digits = code.toString(16);
  return upper ? digits.toUpperCase() : digits;
}

/** Writes each character plainly (where the cell allows it), by name, as decimal or as hexadecimal reference. */
export const encodeWithReferences = (text: string): fc.Arbitrary<string> =>
  fc
    .array(fc.constantFrom('plain', 'named', 'decimal', 'hex', 'HEX'), {
      minLength: [...text].length,
      maxLength: [...text].length,
    })
    .map((ways) =>
      [...text]
        .map((char, i) => {
          const code = char.codePointAt(0) as number;
          const way = ways[i] as string;
          const name = NAMED_REFERENCES[char];
          if (way === 'named' && name) return `&${name};`;
          if (way === 'decimal') return `&#${code};`;
          if (way === 'hex' || way === 'HEX') return `&#x${hex(code, way === 'HEX')};`;
          if (MUST_ENCODE.has(char)) return `&${name};`;
          return char;
        })
        .join(''),
    );
