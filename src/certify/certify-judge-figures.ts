import type { Judged } from './certify-types.ts';
import { type Expectations, figuresOf, type Measure } from './expectations.ts';
import { FIGURES_BY_NAME, type FigureDefinition, type FigureUnit } from './figure-catalog.ts';
import { matches } from './figure-tracking.ts';
import { MEANINGFUL_UOMS, unitFactor, unitText } from './figure-units.ts';
import type { Finding } from './judge-run.ts';
import type { PerfdataItem } from './plugin-output.ts';
import type { CatalogReadings } from './served-catalog.ts';

/**
 * The judge stage's rules on what the state and the figures say (plugin-interface.md, "What the
 * state and the figures say" and "Declared meaning"): PLUGIN-NOT-OK-WITHOUT-DATA,
 * PLUGIN-UNKNOWN-NOT-A-FIGURE, PLUGIN-UOM-MATCHES-SERVED and PLUGIN-FIGURES-AS-DECLARED, over the
 * scenario and generated runs, from the served-figure collection of each (served-catalog.ts).
 * PLUGIN-STATE-FOLLOWS-OWN-THRESHOLDS and PLUGIN-STATE-EQUALS-PBX are judged on each run itself
 * (judge-run.ts).
 */

/** A run the figure rules look at: it reported, and the PBX was there. */
interface DataRun {
  judged: Judged;
  readings: CatalogReadings;
  items: Map<string, PerfdataItem>;
}

function reported(j: Judged): boolean {
  return j.judgement !== null && j.judgement.state !== null && j.record.evidence?.timedOut === false;
}

function push(j: Judged, finding: Finding): void {
  j.record.findings.push(finding);
}

/**
 * PLUGIN-NOT-OK-WITHOUT-DATA on the runs without data: a source that refused, closed without a
 * byte or answered one `ERROR:` line (when the plug-in reads the data endpoint, `{port}`), and the
 * `sections-missing` run (when the plug-in is known to read sections: its `measures`, its
 * `watches`, or a label figure tracking follows). The state must be UNKNOWN or CRITICAL: never OK,
 * and never WARNING with figures presented as data (a duration the plug-in measured itself is its
 * own, not the PBX's). Returns whether any run was judged.
 */
export function judgeNotOkWithoutData(
  all: Judged[],
  readsEndpoint: boolean,
  readsSections: boolean,
): boolean {
  let any = false;
  for (const j of all) {
    const answer = j.served?.answer;
    if (!answer || answer === 'data' || !readsEndpoint || !reported(j)) continue;
    if (answer === 'sections-missing' && !readsSections) continue;
    any = true;
    j.record.judged.add('PLUGIN-NOT-OK-WITHOUT-DATA');
    const state = j.judgement?.state;
    const what = {
      refused: 'the connection was refused',
      empty: 'the connection closed without a byte',
      error: 'the PBX answered only an ERROR line',
      'sections-missing': 'the answer held none of the sections it reads',
    }[answer];
    if (state === 'OK') push(j, { clause: 'PLUGIN-NOT-OK-WITHOUT-DATA', message: `state OK, but ${what}` });
    if (state === 'WARNING') {
      const figures = (j.judgement?.parsed.perfdata ?? []).filter(
        (p) => p.value !== 'U' && !['s', 'ms', 'us'].includes(p.uom),
      );
      if (figures.length > 0)
        push(j, {
          clause: 'PLUGIN-NOT-OK-WITHOUT-DATA',
          message: `state WARNING from figures (${figures.map((p) => `${p.label}=${p.value}${p.uom}`).join(' ')}), but ${what}`,
        });
    }
  }
  return any;
}

function dataRuns(all: Judged[]): DataRun[] {
  return all.flatMap((j) =>
    j.served?.readings && reported(j)
      ? [
          {
            judged: j,
            readings: j.served.readings,
            items: new Map((j.judgement?.parsed.perfdata ?? []).map((p) => [p.label, p])),
          },
        ]
      : [],
  );
}

/** The served value and unit of a measure in one run; `unknown` names the operand served as unknown. */
function measured(
  measure: Measure,
  readings: CatalogReadings,
): { value: number; unit: FigureUnit; tolerance: number } | { unknown: string; how: string } | null {
  const values: number[] = [];
  for (const name of figuresOf(measure)) {
    const reading = readings.get(name);
    if (reading === undefined) return null;
    if ('unknown' in reading) return { unknown: name, how: reading.unknown };
    values.push(reading.value);
  }
  if ('figure' in measure) {
    const figure = FIGURES_BY_NAME.get(measure.figure) as FigureDefinition;
    return { value: values[0] as number, unit: figure.unit, tolerance: figure.tolerance ?? 0 };
  }
  const [a, b] = values as [number, number];
  if (b === 0) return null;
  return 'ratio' in measure
    ? { value: a / b, unit: 'number', tolerance: 0 }
    : { value: (100 * a) / b, unit: '%', tolerance: 0 };
}

/** Whether a printed value equals `expected` to its printed precision, give or take `tolerance`. */
function within(printed: string, expected: number, tolerance: number): boolean {
  return matches(printed, expected) || Math.abs(Number(printed) - expected) <= tolerance;
}

const round = (value: number) => String(Number(value.toPrecision(12)));

/**
 * PLUGIN-FIGURES-AS-DECLARED (with the declared labels' PLUGIN-UOM-MATCHES-SERVED and
 * PLUGIN-UNKNOWN-NOT-A-FIGURE): in every data run that serves a declared label's figure, the label
 * is there and equals the figure converted into its UOM; where the figure was served as unknown,
 * the label is `U` or left out. One finding per label and clause: the first run that broke it.
 */
export function judgeDeclared(all: Judged[], expectations: Expectations | null): void {
  const measures = expectations?.measures ?? new Map<string, Measure>();
  const runs = dataRuns(all);
  for (const run of runs) {
    run.judged.record.judged.add('PLUGIN-UNKNOWN-NOT-A-FIGURE');
    run.judged.record.judged.add('PLUGIN-UOM-MATCHES-SERVED');
  }
  for (const [label, measure] of measures) {
    const broken = new Set<string>();
    const once = (run: DataRun, finding: Finding) => {
      if (broken.has(finding.clause)) return;
      broken.add(finding.clause);
      push(run.judged, finding);
    };
    for (const run of runs) {
      const served = measured(measure, run.readings);
      if (served === null) continue;
      const item = run.items.get(label);
      if ('unknown' in served) {
        if (item && item.value !== 'U')
          once(run, {
            clause: 'PLUGIN-UNKNOWN-NOT-A-FIGURE',
            message: `'${label}'=${item.value}${item.uom}, but the PBX served ${served.unknown} as unknown (${served.how})`,
          });
        continue;
      }
      run.judged.record.judged.add('PLUGIN-FIGURES-AS-DECLARED');
      const name = 'figure' in measure ? measure.figure : measure;
      const shown = typeof name === 'string' ? name : JSON.stringify(name);
      if (!item) {
        once(run, {
          clause: 'PLUGIN-FIGURES-AS-DECLARED',
          message: `the declared label '${label}' is missing, where ${shown} is served (${round(served.value)} ${unitText(served.unit)})`,
        });
        continue;
      }
      if (item.value === 'U') {
        once(run, {
          clause: 'PLUGIN-FIGURES-AS-DECLARED',
          message: `'${label}' is U, where ${shown} is served (${round(served.value)} ${unitText(served.unit)})`,
        });
        continue;
      }
      const factor = unitFactor(served.unit, item.uom);
      if (factor === null) {
        const message = `'${label}' is printed in ${item.uom}, but ${shown} is ${unitText(served.unit)}: no conversion makes one the other`;
        once(run, { clause: 'PLUGIN-UOM-MATCHES-SERVED', message });
        once(run, { clause: 'PLUGIN-FIGURES-AS-DECLARED', message });
        continue;
      }
      const expected = served.value * factor;
      if (within(item.value, expected, served.tolerance * factor)) continue;
      if (factor !== 1 && within(item.value, served.value, served.tolerance))
        once(run, {
          clause: 'PLUGIN-UOM-MATCHES-SERVED',
          message: `'${label}'=${item.value}${item.uom} is ${shown} as served in ${unitText(served.unit)}, not converted into ${item.uom} (${round(expected)}${item.uom})`,
        });
      once(run, {
        clause: 'PLUGIN-FIGURES-AS-DECLARED',
        message: `'${label}'=${item.value}${item.uom}, but ${shown} is served as ${round(served.value)} ${unitText(served.unit)}${factor === 1 ? '' : ` (${round(expected)}${item.uom})`}`,
      });
    }
  }
}

/** Multiples of the sentinel a printed value may be after a unit conversion (-1 kB as bytes, …). */
const SENTINEL_SCALES = [1, 100, 1000, 1024, 60, 1 / 1000, 1 / 1024, 1 / 60];

/**
 * PLUGIN-UNKNOWN-NOT-A-FIGURE for the labels without a declaration: in a run where the PBX served
 * a `-1` sentinel, a negative printed value that is the sentinel (in some unit) or a plain ratio
 * or percentage of it with another served figure (`used_percent=-700%` from 7 / -1) fails.
 */
export function judgeSentinels(all: Judged[], declared: ReadonlySet<string>): void {
  for (const run of dataRuns(all)) {
    const raw = run.judged.tracked?.figures;
    const sentinel =
      [...run.readings.values()].some((r) => 'unknown' in r && r.unknown === 'the -1 sentinel') ||
      [...(raw?.values() ?? [])].some((v) => v === -1);
    if (!sentinel) continue;
    const known = new Set<number>();
    for (const r of run.readings.values()) if ('value' in r && r.value > 0) known.add(r.value);
    for (const v of raw?.values() ?? []) if (v > 0) known.add(v);
    for (const item of run.items.values()) {
      if (declared.has(item.label) || item.value === 'U' || Number(item.value) >= 0) continue;
      const candidates = [
        ...SENTINEL_SCALES.map((k) => -k),
        ...[...known].flatMap((g) => [-g, -100 * g, -1 / g, -100 / g]),
      ];
      if (!candidates.some((c) => matches(item.value, c))) continue;
      push(run.judged, {
        clause: 'PLUGIN-UNKNOWN-NOT-A-FIGURE',
        message: `'${item.label}'=${item.value}${item.uom} is the PBX's -1 sentinel ("cannot be determined"), or computed from it, printed as a figure; print U or leave the item out`,
      });
    }
  }
}

/** Whether a value proves something repeated: not a small whole number, which figures share by chance. */
function telling(value: number): boolean {
  return Math.abs(value) >= 1000 || (!Number.isInteger(value) && Math.abs(value) >= 10);
}

/**
 * PLUGIN-UOM-MATCHES-SERVED for the labels without a declaration: a label with a UOM that says
 * what it measures (`B`…`TB`, `s`, `ms`, `us`, `%`) and equals, unconverted, one catalog figure of
 * another unit in every data run it is printed in, fails, whatever its name (`mem=8388608B` is
 * `MemTotal` in kB). Only on evidence: the figure took two values among those runs, or is large
 * enough not to be a coincidence; and no figure of the label's own unit explains it.
 */
export function judgeUndeclaredUnits(all: Judged[], declared: ReadonlySet<string>): void {
  const runs = dataRuns(all);
  const labels = new Map<string, string>();
  for (const run of runs)
    for (const item of run.items.values())
      if (!declared.has(item.label) && MEANINGFUL_UOMS.has(item.uom)) labels.set(item.label, item.uom);
  for (const [label, uom] of labels) {
    const printed = runs.filter((r) => {
      const item = r.items.get(label);
      return item !== undefined && item.value !== 'U' && item.uom === uom;
    });
    if (printed.length === 0) continue;
    const follows = (name: string) =>
      printed.every((r) => {
        const reading = r.readings.get(name);
        return (
          reading !== undefined &&
          'value' in reading &&
          matches((r.items.get(label) as PerfdataItem).value, reading.value)
        );
      });
    const explained = [...FIGURES_BY_NAME.values()].some(
      (f) => unitFactor(f.unit, uom) === 1 && follows(f.name),
    );
    if (explained) continue;
    for (const figure of FIGURES_BY_NAME.values()) {
      const factor = unitFactor(figure.unit, uom);
      if (factor === 1 || !follows(figure.name)) continue;
      const values = printed.map((r) => (r.readings.get(figure.name) as { value: number }).value);
      if (new Set(values).size < 2 && !values.every(telling)) continue;
      const first = printed[0] as DataRun;
      const value = (first.items.get(label) as PerfdataItem).value;
      push(first.judged, {
        clause: 'PLUGIN-UOM-MATCHES-SERVED',
        message: `'${label}'=${value}${uom} equals ${figure.name}, served in ${unitText(figure.unit)}, in every run it is printed in: ${
          factor === null
            ? `${uom} does not measure ${unitText(figure.unit)}`
            : `not converted into ${uom} (${round(Number(value) * factor)}${uom})`
        }`,
      });
      break;
    }
  }
}
