/**
 * Applies a formatter to a match (RESOLVER-EVAL-GROUPS): `\0` is the whole match, `\1`…`\9` the
 * capture groups; one digit per reference, so `\10` is group 1 followed by `0`. A group that did
 * not take part or does not exist gives the empty string. `\\` is a literal backslash; a
 * backslash before anything else stays as written. Plain text, never a regex replacement
 * string: `$&` and `$1` are literal.
 */
export function applyFormatter(formatter: string, groups: readonly (string | null)[]): string {
  let out = '';
  for (let i = 0; i < formatter.length; i++) {
    const c = formatter[i] as string;
    const next = formatter[i + 1];
    if (c === '\\' && next !== undefined && next >= '0' && next <= '9') {
      out += groups[Number(next)] ?? '';
      i++;
    } else if (c === '\\' && next === '\\') {
      out += '\\';
      i++;
    } else out += c;
  }
  return out;
}

/** Group numbers a formatter refers to. */
export function formatterReferences(formatter: string): number[] {
  const refs: number[] = [];
  for (const m of formatter.replace(/\\\\/g, '').matchAll(/\\([0-9])/g)) refs.push(Number(m[1]));
  return refs;
}
