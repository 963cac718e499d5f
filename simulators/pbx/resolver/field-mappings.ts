import type { FieldMappings } from '../state/provider-config.ts';
import type { ResolvedName } from '../state/resolver-state.ts';

/**
 * Fills a field-mapping template with the index variables (RESOLVER-EVAL-FIELD-MAPPINGS):
 * `{n}` is variable n (empty when it has no value), anything else is literal. Brackets left empty
 * by an empty variable are dropped and whitespace is collapsed, so `{0} ({1})` with only `{0}`
 * reads `Name`, not `Name ()` (docs/resolver.md, "Field mappings").
 */
export function fillMapping(template: string, variables: readonly string[]): string {
  const filled = template.replace(/\{(\d{1,3})\}/g, (_, n: string) => variables[Number(n)] ?? '');
  return filled
    .replace(/\(\s*\)|\[\s*\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The display name of the caller-ID (RESOLVER-CALLER-NAME; RESOLVER-EVAL-DISPLAY is the PBX
 * setting, not simulated): `First Last`, with the company in brackets when both exist, or the
 * company alone.
 */
export function displayName(first: string, last: string, company: string): string {
  const person = [first, last].filter((p) => p !== '').join(' ');
  if (person && company) return `${person} (${company})`;
  return person || company;
}

/** Composes first name, last name and company from the index variables. */
export function composeName(mappings: FieldMappings, variables: readonly string[]): ResolvedName {
  const firstName = fillMapping(mappings.firstName, variables);
  const lastName = fillMapping(mappings.lastName, variables);
  const company = fillMapping(mappings.company, variables);
  return { firstName, lastName, company, displayName: displayName(firstName, lastName, company) };
}
