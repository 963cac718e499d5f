import { parseAgentText, sectionLines } from '../agent-text/parse-agent-text.ts';
import { parseLocalLine } from '../agent-text/parse-local-line.ts';
import { FIGURE_CATALOG, type FigureDefinition } from './figure-catalog.ts';
import { servedData } from './served-figures.ts';

/**
 * One catalog figure as a run served it: a known value in the figure's unit, or unknown, with how
 * the PBX said so (the monitoring spec's `-1` sentinel, an empty field, a missing key or line).
 * PLUGIN-UNKNOWN-NOT-A-FIGURE holds a printed value against every unknown.
 */
export type Reading = { value: number } | { unknown: 'the -1 sentinel' | 'an empty field' | 'a missing key' };

/** The served-figure collection of one run: every catalog figure the run's answer carries. */
export type CatalogReadings = Map<string, Reading>;

/**
 * Reads every catalog figure from what a run was served (the agent text, and the JSON snapshot
 * for figures only it serves); `null` when the answer carried no data (refused, closed without a
 * byte, an `ERROR:` line). A figure whose only place is the JSON snapshot is left out when no
 * snapshot was served (a recording): it was not served as unknown, only not asked for.
 */
export function catalogReadings(text: string | null, json: string | null): CatalogReadings | null {
  if (!servedData(text)) return null;
  const agent = parseAgentText(text as string);
  let data: unknown = null;
  if (json !== null) {
    try {
      data = JSON.parse(json);
    } catch {
      data = null;
    }
  }
  const readings: CatalogReadings = new Map();
  for (const figure of FIGURE_CATALOG) {
    const reading = readFigure(figure, (name) => sectionLines(agent, name), data);
    if (reading) readings.set(figure.name, reading);
  }
  return readings;
}

function readFigure(
  figure: FigureDefinition,
  lines: (section: string) => string[] | undefined,
  json: unknown,
): Reading | null {
  if (figure.agent) return readAgent(figure.agent, lines(figure.agent.section));
  if (figure.local) return readLocal(figure.local, lines('local'));
  if (figure.computed) return readComputed(figure.name, lines(figure.computed.section));
  if (figure.json && json !== null) return readJson(figure.json, json);
  return null;
}

const MISSING: Reading = { unknown: 'a missing key' };

/** A served number as a reading: `-1` is the sentinel, an empty or non-numeric field is unknown. */
function number(text: string | undefined): Reading {
  if (text === undefined) return MISSING;
  const trimmed = text.trim();
  if (trimmed === '') return { unknown: 'an empty field' };
  if (!/^-?\d+(?:\.\d+)?$/.test(trimmed)) return { unknown: 'an empty field' };
  const value = Number(trimmed);
  return value === -1 ? { unknown: 'the -1 sentinel' } : { value };
}

function readAgent(location: NonNullable<FigureDefinition['agent']>, lines: string[] | undefined): Reading {
  if (lines === undefined) return MISSING;
  if ('key' in location) {
    const line = lines.find(
      (l) => l === location.key || l.startsWith(`${location.key} `) || l.startsWith(`${location.key}\t`),
    );
    if (line === undefined) return MISSING;
    let value = line
      .slice(location.key.length)
      .trim()
      .replace(/\s+kB$/, '');
    if (location.part !== undefined) value = value.split('/')[location.part] ?? '';
    return number(value);
  }
  if ('line' in location) {
    const pattern = new RegExp(location.line);
    for (const line of lines) {
      const match = pattern.exec(line);
      if (match) return number(match[1]);
    }
    return MISSING;
  }
  const except = location.except ? new RegExp(location.except) : null;
  return { value: lines.filter((l) => l.trim() !== '' && !except?.test(l)).length };
}

function readLocal(location: { service: string; metric: string }, lines: string[] | undefined): Reading {
  for (const line of lines ?? []) {
    const parsed = parseLocalLine(line);
    if (!('name' in parsed) || parsed.name !== location.service) continue;
    const metric = parsed.metrics.find((m) => m.name === location.metric);
    return metric ? number(String(metric.value)) : MISSING;
  }
  return MISSING;
}

/** The backup figures: each target's newest run (`[TYPE]location <ms> <result>`), the ages of the local checks. */
function readComputed(name: string, lines: string[] | undefined): Reading {
  if (lines === undefined) return MISSING;
  if (name === 'backups.oldest_newest_age') {
    const ages: number[] = [];
    for (const line of lines) {
      const parsed = parseLocalLine(line);
      if (!('name' in parsed) || !parsed.name.startsWith('PBX Backup ')) continue;
      const age = parsed.metrics.find((m) => m.name === 'age_minutes');
      if (age && age.value >= 0) ages.push(age.value);
    }
    return ages.length === 0 ? MISSING : { value: Math.max(...ages) };
  }
  const newest = new Map<string, { when: number; result: string }>();
  for (const line of lines) {
    const match = /^(\[.*) (-?\d+) (\S+)$/.exec(line.trim());
    if (!match) continue;
    const [, target, when, result] = match as unknown as [string, string, string, string];
    const seen = newest.get(target);
    if (!seen || Number(when) > seen.when) newest.set(target, { when: Number(when), result });
  }
  if (name === 'backups.targets') return { value: newest.size };
  return { value: [...newest.values()].filter((run) => !run.result.endsWith('successful')).length };
}

function readJson(path: string, data: unknown): Reading {
  let at: unknown = data;
  for (const part of path.split('.')) {
    if (part === 'length' && Array.isArray(at)) return { value: at.length };
    if (typeof at !== 'object' || at === null || !(part in at)) return MISSING;
    at = (at as Record<string, unknown>)[part];
  }
  if (typeof at === 'number') return at === -1 ? { unknown: 'the -1 sentinel' } : { value: at };
  if (at === '' || at === null) return { unknown: 'an empty field' };
  return number(typeof at === 'string' ? at : undefined);
}
