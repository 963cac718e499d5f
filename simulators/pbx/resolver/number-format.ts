import type { NumberFormat } from '../state/provider-config.ts';

/**
 * A caller number read with the system's country code (docs/resolver.md, "Number cases";
 * RESOLVER-UNSPEC-NUMBER-CASES, proposed):
 * - `domestic`: a national number of the system's country (`+49 30…`, `0049 30…`, `030…`);
 * - `foreign`: an international number of another country (`+33…`, `0033…`);
 * - `internal`: digits without a leading `+` or `0` (extensions, short and service numbers);
 *   the PBX cannot know an area code for them, so every format sends them unchanged;
 * - `not-resolvable`: anonymous, empty or not a phone number; no request is sent.
 */
export type ParsedNumber =
  | { kind: 'domestic'; countryCode: string; national: string }
  | { kind: 'foreign'; international: string }
  | { kind: 'internal'; digits: string }
  | { kind: 'not-resolvable'; reason: string };

/** Words that carrier signalling and PBXs use for a withheld number. */
const ANONYMOUS = /^(anonymous|unknown|restricted|private|unavailable|withheld|clip no screening)$/i;

/** Separators people and carriers write inside numbers; they carry no meaning. */
const SEPARATORS = /[\s\-/.()]/g;

/** A country code as the system stores it: 1 to 3 digits, no leading zero (E.164). */
export function isCountryCode(value: string): boolean {
  return /^[1-9]\d{0,2}$/.test(value);
}

/**
 * Reads any input form with the system's country code (RESOLVER-FMT-COUNTRY-CODE). Separators
 * (space, `-`, `/`, `.`, brackets) are dropped, and so is the written trunk `(0)` of
 * `+49 (0)30 …`. Country codes are a prefix code (ITU-T E.164), so `+<cc>…` with the system's
 * code is always domestic.
 */
export function parseNumber(input: string, countryCode: string): ParsedNumber {
  if (!isCountryCode(countryCode))
    throw new RangeError(`invalid country code ${JSON.stringify(countryCode)}`);
  const trimmed = input.trim();
  if (trimmed === '') return { kind: 'not-resolvable', reason: 'empty number' };
  if (ANONYMOUS.test(trimmed)) return { kind: 'not-resolvable', reason: 'anonymous caller' };
  const cleaned = (trimmed.startsWith('+') ? trimmed.replace(/\(0\)/g, '') : trimmed).replace(SEPARATORS, '');
  if (!/^\+?\d+$/.test(cleaned)) return { kind: 'not-resolvable', reason: 'not a phone number' };
  let international: string | undefined;
  if (cleaned.startsWith('+')) international = cleaned.slice(1);
  else if (cleaned.startsWith('00')) international = cleaned.slice(2);
  if (international !== undefined) {
    if (!/^[1-9]\d{2,}$/.test(international))
      return { kind: 'not-resolvable', reason: 'incomplete international number' };
    if (international.startsWith(countryCode) && international.length > countryCode.length) {
      return { kind: 'domestic', countryCode, national: international.slice(countryCode.length) };
    }
    return { kind: 'foreign', international };
  }
  if (cleaned.startsWith('0')) {
    const national = cleaned.slice(1);
    if (national === '') return { kind: 'not-resolvable', reason: 'incomplete national number' };
    return { kind: 'domestic', countryCode, national };
  }
  return { kind: 'internal', digits: cleaned };
}

/**
 * Renders a parsed number in a provider's format (RESOLVER-FMT-PLUS, RESOLVER-FMT-00,
 * RESOLVER-FMT-0). A foreign number has no national form, so format `0` gives its
 * international dialling form `00<cc>…`. Returns `null` for a number that cannot be resolved.
 */
export function formatNumber(number: ParsedNumber, format: NumberFormat): string | null {
  switch (number.kind) {
    case 'not-resolvable':
      return null;
    case 'internal':
      return number.digits;
    case 'foreign':
      return format === '+xx' ? `+${number.international}` : `00${number.international}`;
    case 'domestic':
      if (format === '+xx') return `+${number.countryCode}${number.national}`;
      if (format === '00xx') return `00${number.countryCode}${number.national}`;
      return `0${number.national}`;
  }
}

/** All three forms of a number, or `null` when it cannot be resolved. */
export function numberForms(input: string, countryCode: string): Record<NumberFormat, string> | null {
  const parsed = parseNumber(input, countryCode);
  const plus = formatNumber(parsed, '+xx');
  if (plus === null) return null;
  return {
    '+xx': plus,
    '00xx': formatNumber(parsed, '00xx') ?? plus,
    '0': formatNumber(parsed, '0') ?? plus,
  };
}
