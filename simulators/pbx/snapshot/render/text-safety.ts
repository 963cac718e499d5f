/**
 * Character hygiene shared by all renderers: every value a renderer writes comes from state that a
 * scenario, `PATCH /state` or a property test may fill with arbitrary text.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Replaces lone UTF-16 surrogates with U+FFFD, which is what UTF-8 encoding would do anyway. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * Characters that end a line for some reader: C0 controls (LF, CR, VT, FF, …), DEL, NEL and the
 * Unicode line and paragraph separators (Python's `str.splitlines()` splits on all of them, and
 * plug-ins in the field are mostly Python).
 */
export const LINE_BREAKING = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/g;

/**
 * Turns a number into plain decimal text without exponent (Checkmk's metric parser and most
 * plug-ins do not expect `1e-7`); non-finite numbers become the sentinel `-1` (MON-JSON-SENTINEL,
 * MON-UNSPEC-SENTINEL-SCOPE). `Number(formatNumber(n)) === n` for every finite `n`.
 */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '-1';
  if (Object.is(value, -0)) return '0';
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign = '', lead = '', fraction = '', exponentText = '0'] = match;
  const digits = lead + fraction;
  const point = 1 + Number(exponentText);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A finite number, or the sentinel `-1` for what cannot be determined (MON-JSON-SENTINEL). */
export function numberOrSentinel(value: number): number {
  return Number.isFinite(value) ? value : -1;
}
