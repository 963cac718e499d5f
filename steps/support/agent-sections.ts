import type { AgentSection, AgentTextView } from './agent-text-view.ts';

/**
 * The one section cut out by its exact header `<<<name>>>` (consumers in the field do the same),
 * or `undefined` when there is none.
 */
export function pbxSection(view: AgentTextView, name: string): AgentSection | undefined {
  return view.sections.find((s) => s.header === `<<<${name}>>>`);
}

/** The lines of a section joined, or `undefined` when the section is missing. */
export function sectionText(view: AgentTextView, name: string): string | undefined {
  return pbxSection(view, name)?.lines.join('\n');
}

/** `<<<pbx>>>` or `pbx` → `pbx`; `<<<labels:sep(0)>>>` → `labels`. */
export function sectionNameOf(header: string): string {
  return header.replace(/^<<</, '').replace(/>>>$/, '').split(':')[0]!;
}
