import { parseAgentText, sectionLines } from '../agent-text/parse-agent-text.ts';
import { type LocalCheckLine, parseLocalLine } from '../agent-text/parse-local-line.ts';
import type { StateName } from './plugin-output.ts';

/** Severity order of the monitoring field: OK < WARNING < UNKNOWN < CRITICAL. */
const SEVERITY: Record<StateName, number> = { OK: 0, WARNING: 1, UNKNOWN: 2, CRITICAL: 3 };
const BY_CODE: StateName[] = ['OK', 'WARNING', 'CRITICAL', 'UNKNOWN'];

/** Whether `state` is at least as severe as `than`. */
export function atLeastAsSevere(state: StateName, than: StateName): boolean {
  return SEVERITY[state] >= SEVERITY[than];
}

/** A `watches` pattern: the service name, `*` matching any run of characters. */
export function watchPattern(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

export interface WatchedState {
  /** The worst state the PBX gives the watched services. */
  worst: StateName;
  /** The watched services as the PBX judged them. */
  services: { name: string; state: StateName }[];
  /** The `watches` patterns that matched a service in this answer. */
  matched: string[];
}

/**
 * The PBX's own judgement of the services a plug-in watches (PLUGIN-STATE-AGREES-WITH-PBX): the
 * `<<<local>>>` lines whose service name matches one of `watches`, each line's state under the
 * local checks' status rules (`P` computed from the metric levels), and the worst of them.
 * `null` when the agent text holds no watched service.
 */
export function watchedState(agentText: string, watches: readonly string[]): WatchedState | null {
  const patterns = watches.map(watchPattern);
  const lines = sectionLines(parseAgentText(agentText), 'local') ?? [];
  const services: { name: string; state: StateName }[] = [];
  const matched = new Set<string>();
  for (const line of lines) {
    if (line.trim() === '') continue;
    const parsed = parseLocalLine(line);
    if (!('name' in parsed)) continue;
    const hits = watches.filter((_, index) => patterns[index]?.test(parsed.name));
    if (hits.length === 0) continue;
    for (const hit of hits) matched.add(hit);
    services.push({ name: parsed.name, state: localState(parsed) });
  }
  if (services.length === 0) return null;
  const worst = services.reduce<StateName>((w, s) => (SEVERITY[s.state] > SEVERITY[w] ? s.state : w), 'OK');
  return { worst, services, matched: [...matched] };
}

/** A local check's state; `P` is the worst state its metrics' levels give. */
function localState(line: LocalCheckLine): StateName {
  if (line.status !== 'P') return BY_CODE[line.status] as StateName;
  let code = 0;
  for (const m of line.metrics) {
    const crit =
      (m.crit !== undefined && m.value >= m.crit) || (m.critLower !== undefined && m.value < m.critLower);
    const warn =
      (m.warn !== undefined && m.value >= m.warn) || (m.warnLower !== undefined && m.value < m.warnLower);
    code = Math.max(code, crit ? 2 : warn ? 1 : 0);
  }
  return BY_CODE[code] as StateName;
}

/** The names of the `<<<local>>>` services of an agent text. */
export function localServices(agentText: string): string[] {
  const names: string[] = [];
  for (const line of sectionLines(parseAgentText(agentText), 'local') ?? []) {
    const parsed = parseLocalLine(line);
    if ('name' in parsed) names.push(parsed.name);
  }
  return names;
}
