/**
 * Helpers that compare values across the three formats by value, not by line grammar (the MON-TEXT
 * clauses are about content; the field's line shapes are checked by the FIELD steps), and without
 * assuming JSON nesting (MON-UNSPEC-JSON-PATHS).
 */

/** Every value stored under a key named `name`, at any depth of a JSON value. */
export function findJsonFields(value: unknown, name: string): unknown[] {
  const found: unknown[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        if (key === name) found.push(child);
        visit(child);
      }
    }
  };
  visit(value);
  return found;
}

/** The first value under `name` anywhere in the JSON snapshot, or `undefined`. */
export function jsonField(value: unknown, name: string): unknown {
  return findJsonFields(value, name)[0];
}

const TOKEN_SPLIT = /[\s:=;|,()[\]{}<>"'/]+/;

/**
 * The tokens of a line: split on blanks and the separators key/value lines commonly use, and on
 * `/` (the field's `used/max` and `<A>/0` values).
 */
export function tokensOf(line: string): string[] {
  return line.split(TOKEN_SPLIT).filter((t) => t !== '');
}

/** True when `text` gives `expected`: a string occurs as a substring, a number as an equal numeric token. */
export function textGives(text: string, expected: unknown): boolean {
  if (typeof expected === 'number') {
    return tokensOf(text).some((t) => {
      const n = Number(t.replace(/[A-Za-z%]+$/, ''));
      return t !== '' && Number.isFinite(n) && Math.abs(n - expected) <= Math.abs(expected) * 1e-9;
    });
  }
  if (typeof expected === 'string') return expected !== '' && text.includes(expected);
  if (typeof expected === 'boolean') return tokensOf(text).some((t) => t.toLowerCase() === String(expected));
  return false;
}

/** Numeric value of a text or number, or `undefined` when it is none. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}
