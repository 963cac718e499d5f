/**
 * The `Authorization` value as evidence shows it: the scheme and the length of the rest, never a
 * token or credentials (secrets never reach reports or logs).
 */
export function redactAuthorization(value: string | undefined): string {
  if (value === undefined) return '(none)';
  const space = value.search(/\s/);
  // A bare scheme word (`Bearer` without a token) is no secret; anything else without a space may be.
  if (space === -1) return /^[A-Za-z]{1,12}$/.test(value) ? value : `<redacted, ${value.length} chars>`;
  return `${value.slice(0, space)} <redacted, ${value.length - space - 1} chars>`;
}
