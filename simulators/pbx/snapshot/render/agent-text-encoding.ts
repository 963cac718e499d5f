import { LINE_BREAKING, wellFormed } from './text-safety.ts';

/**
 * How values are written into the PBX sections of the agent text (docs/agent-text-grammar.md,
 * "Value encoding"). The line shapes are those of the earlier monitoring component
 * (field-line-shapes.md: FIELD-KEY-VALUE-LINES, FIELD-MODULES-LINE, …); the encoding only keeps
 * arbitrary state text from breaking them.
 *
 * Values are percent-encoded, but only for the few characters that would break a line-based
 * reader, so ordinary values (spaces inside, non-ASCII letters) appear unchanged: `%` itself,
 * every line-breaking character (LINE_BREAKING) and `<` (so no value can contain `<<<`, the text
 * consumers cut sections at). A *value* (rest of a `key value` line) also encodes leading and
 * trailing spaces; a *token* (one field of a space-separated line) also encodes every space and
 * `[`, `]`, and is written `-` when empty (a literal `-` becomes `%2D`).
 */
export function encodeValue(raw: string): string {
  const text = encodeCore(raw);
  return text.replace(/^ +| +$/g, (spaces) => '%20'.repeat(spaces.length));
}

/** See `encodeValue`; for fields of space-separated lines (peer names, backup locations, …). */
export function encodeToken(raw: string): string {
  if (raw === '') return '-';
  if (raw === '-') return '%2D';
  return encodeBareToken(raw);
}

/** A token that may be empty, written as nothing (the location of `[HDD] 1623885428016 …`). */
export function encodeBareToken(raw: string): string {
  return encodeCore(raw).replace(/[ [\]]/g, (ch) => percent(ch));
}

/**
 * A value written in double quotes (`appliance_type "PBX Free"`, `owner "Example Inc."`): as
 * `encodeValue`, and a `"` inside becomes `%22`, so the closing quote is the last character.
 */
export function encodeQuoted(raw: string): string {
  return `"${encodeValue(raw).replace(/"/g, '%22')}"`;
}

/**
 * One field of a module line `<name>:<version>:<vendor>:<<instance>,…>` (FIELD-MODULES-LINE): as
 * `encodeValue`, and the separators `:` and `>` become `%3A` and `%3E`; with `instance` also `,`,
 * and an empty instance name is `-` (a literal `-` becomes `%2D`).
 */
export function encodeModuleField(raw: string, { instance = false } = {}): string {
  const text = encodeValue(raw).replace(/[:>]/g, (ch) => percent(ch));
  if (!instance) return text;
  // An instance without a name must not vanish from `<a,,b>` or look like no instance at all (`<>`).
  if (raw === '') return '-';
  if (raw === '-') return '%2D';
  return text.replace(/,/g, '%2C');
}

function encodeCore(raw: string): string {
  return wellFormed(raw)
    .replace(/%/g, '%25')
    .replace(/</g, '%3C')
    .replace(LINE_BREAKING, (ch) => percent(ch));
}

function percent(ch: string): string {
  return encodeURIComponent(ch).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Makes a local-check service name safe (MON-LOCAL-LINE-SHAPE): the name is written in double
 * quotes and the local-check grammar has no escaping, so `"` and `'` are removed; line-breaking
 * characters become spaces; runs of `<` are cut to two so no `<<<` appears; whitespace collapses
 * and the result is trimmed. Idempotent.
 */
export function sanitiseServiceName(raw: string): string {
  return wellFormed(raw)
    .replace(LINE_BREAKING, ' ')
    .replace(/["']/g, '')
    .replace(/<{3,}/g, '<<')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Makes the text of a local check safe: one line, no `<<<`, no leading or trailing spaces (a
 * Checkmk server drops leading ones). A literal backslash-`n` is kept: it starts the long output,
 * as the local-check grammar defines. Idempotent.
 */
export function sanitiseCheckText(raw: string): string {
  return wellFormed(raw).replace(LINE_BREAKING, ' ').replace(/<{3,}/g, '<<').trim();
}
