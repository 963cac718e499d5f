/** A value that has a Python literal: what a package manifest holds. */
export type PythonValue = string | number | boolean | null | readonly PythonValue[] | PythonDict;

export interface PythonDict {
  readonly [key: string]: PythonValue;
}

/**
 * `value` as Python source that `ast.literal_eval` reads back: the `info` manifest of a Checkmk
 * package is such a literal (Checkmk writes it with `pprint.pformat`, which sorts dict keys; so
 * does this, one top-level key per line, nested values inline). Strings use single quotes and escape what Python's
 * `repr` escapes; `null` is `None`.
 */
export function toPythonLiteral(value: PythonValue, depth = 0): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`no Python literal for ${value}`);
    return String(value);
  }
  if (typeof value === 'string') return pythonString(value);
  if (isList(value)) return `[${value.map((item) => toPythonLiteral(item, depth + 1)).join(', ')}]`;
  const items = Object.keys(value)
    .sort()
    .map((key) => `${pythonString(key)}: ${toPythonLiteral(value[key] as PythonValue, depth + 1)}`);
  return `{${items.join(depth === 0 ? ',\n ' : ', ')}}`;
}

function isList(value: PythonValue): value is readonly PythonValue[] {
  return Array.isArray(value);
}

function pythonString(text: string): string {
  let out = "'";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === "'") out += "\\'";
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code >= 0xd800 && code <= 0xdfff) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}'`;
}
