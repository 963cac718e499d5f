/**
 * Reading values back out of a request target the endpoint recorded (RESOLVER-PH-FIELD,
 * RESOLVER-PH-PREFIX-SUFFIX, RESOLVER-URL-ENCODING, RESOLVER-URL-PLUS). The exact encoding after
 * replacement is open (RESOLVER-UNSPEC-URL-ENCODING), so values are compared after
 * percent-decoding; a space may arrive as `%20` or as `+`.
 */

/** RFC 3986: unreserved, gen-delims, sub-delims and `%` followed by two hex digits. */
const URL_CHARACTER = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2}/y;

/** The characters of `target` that a URL may not carry as they are, or `[]`. */
export function nonUrlCharacters(target: string): string[] {
  const bad: string[] = [];
  let i = 0;
  while (i < target.length) {
    URL_CHARACTER.lastIndex = i;
    const m = URL_CHARACTER.exec(target);
    if (m) i += m[0].length;
    else {
      const char = String.fromCodePoint(target.codePointAt(i) as number);
      bad.push(char);
      i += char.length;
    }
  }
  return bad;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Matches a recorded request-target against the path and query of a URL template and returns
 * the raw text that stands in each placeholder's place, in order of appearance, or `null` when
 * the target does not have the template's shape. The template's own characters must arrive as
 * written (they are all URL characters in the scenarios).
 */
export function placeholderTexts(template: string, target: string): { name: string; raw: string }[] | null {
  const names: string[] = [];
  let pattern = '^';
  let rest = 0;
  for (const m of template.matchAll(/\{([A-Za-z0-9_.-]+)\}/g)) {
    pattern += `${escapeRegex(template.slice(rest, m.index))}(.*?)`;
    names.push(m[1] as string);
    rest = (m.index as number) + m[0].length;
  }
  pattern += `${escapeRegex(template.slice(rest))}$`;
  const match = new RegExp(pattern, 's').exec(target);
  if (!match) return null;
  return names.map((name, i) => ({ name, raw: match[i + 1] as string }));
}

function percentDecode(raw: string, charset: 'utf-8' | 'latin1'): string | null {
  if (charset === 'utf-8') {
    try {
      return decodeURIComponent(raw);
    } catch {
      return null;
    }
  }
  return raw.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/**
 * Whether the raw text decodes to `value`: percent-decoding as UTF-8 (or, for values within
 * Latin-1, as Latin-1); a `+` may stand for a space when the value holds a space and no `+`.
 */
export function decodesTo(raw: string, value: string): boolean {
  const candidates = [raw];
  if (value.includes(' ') && !value.includes('+')) candidates.push(raw.replace(/\+/g, '%20'));
  const latin1 = [...value].every((c) => (c.codePointAt(0) as number) <= 0xff);
  return candidates.some(
    (candidate) =>
      percentDecode(candidate, 'utf-8') === value || (latin1 && percentDecode(candidate, 'latin1') === value),
  );
}
