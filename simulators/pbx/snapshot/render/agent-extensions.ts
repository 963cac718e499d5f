import {
  type AgentExtensions,
  KEY_VALUE_SECTIONS,
  type KeyValueSection,
  type PbxState,
} from '../../state/types.ts';
import { PBX_SECTION_NAMES, sectionKeys } from './pbx-section-keys.ts';
import { LINE_BREAKING } from './text-safety.ts';

/** Section names an extra section may not take: the agent's own header, PBX and local sections. */
const RESERVED_SECTIONS = new Set<string>([
  'monitor_agent',
  'labels',
  'local',
  'check_mk',
  ...PBX_SECTION_NAMES,
]);

const SECTION_NAME = /^[A-Za-z0-9_]+$/;
const EXTRA_LINE = /^([a-z][a-z0-9_]*) (.*)$/s;

/** Whether one key is a prefix of the other (consumers match lines by prefix). */
function clashes(a: string, b: string): boolean {
  return a.startsWith(b) || b.startsWith(a);
}

function lineProblem(line: unknown): string | undefined {
  if (typeof line !== 'string') return 'is not a string';
  if (new RegExp(LINE_BREAKING.source).test(line)) return 'contains a line break or control character';
  if (line.includes('<<<')) return 'contains <<<';
  return undefined;
}

/**
 * What is wrong with `agentExtensions` (docs/simulator.md, "Agent-text extensions"), as one text
 * per problem; empty when it is valid. Extra sections need a name of `[A-Za-z0-9_]+` that is not
 * one of the agent's own sections and lines without line breaks or `<<<`. Extra lines of a
 * key/value PBX section are `key value` lines whose key is new: no key the section writes is a
 * prefix of it or starts with it, and neither do the other extra keys (FIELD-KEY-PREFIX-FREE,
 * FIELD-ADDITIVE-ONLY).
 */
export function agentExtensionProblems(extensions: AgentExtensions): string[] {
  const problems: string[] = [];
  extensions.sections.forEach((s, i) => {
    const where = `agentExtensions.sections[${i}]`;
    if (typeof s.name !== 'string' || !SECTION_NAME.test(s.name))
      problems.push(`${where}.name must match [A-Za-z0-9_]+`);
    else if (RESERVED_SECTIONS.has(s.name))
      problems.push(`${where}.name '${s.name}' is one of the agent's own sections`);
    s.lines.forEach((line, j) => {
      const problem = lineProblem(line);
      if (problem) problems.push(`${where}.lines[${j}] ${problem}`);
    });
  });
  for (const name of KEY_VALUE_SECTIONS) {
    const taken = sectionKeys(name);
    (extensions.extraLines[name] ?? []).forEach((line, j) => {
      const where = `agentExtensions.extraLines.${name}[${j}]`;
      const problem = lineProblem(line);
      if (problem) {
        problems.push(`${where} ${problem}`);
        return;
      }
      const key = EXTRA_LINE.exec(line)?.[1];
      if (key === undefined) {
        problems.push(`${where} is not a 'key value' line (key [a-z][a-z0-9_]*, one space, value)`);
        return;
      }
      const other = taken.find((k) => clashes(k, key));
      if (other !== undefined)
        problems.push(`${where}: key '${key}' clashes with the key '${other}' by prefix`);
      else taken.push(key);
    });
  }
  return problems;
}

/**
 * The extra lines of `name` that are valid, in order; an invalid line (only possible for a state
 * set through the TypeScript API, which does not check) is left out.
 */
export function validExtraLines(state: PbxState, name: KeyValueSection): string[] {
  const lines = state.agentExtensions?.extraLines?.[name] ?? [];
  const taken = sectionKeys(name);
  return lines.filter((line) => {
    if (lineProblem(line)) return false;
    const key = EXTRA_LINE.exec(line)?.[1];
    if (key === undefined || taken.some((k) => clashes(k, key))) return false;
    taken.push(key);
    return true;
  });
}

/** The valid extra sections as agent text (`<<<name>>>` and its lines), or `''`. */
export function renderExtraSections(state: PbxState): string {
  return (state.agentExtensions?.sections ?? [])
    .filter((s) => SECTION_NAME.test(s.name) && !RESERVED_SECTIONS.has(s.name))
    .map(
      (s) =>
        `<<<${s.name}>>>\n${s.lines
          .filter((l) => !lineProblem(l))
          .map((l) => `${l}\n`)
          .join('')}`,
    )
    .join('');
}
