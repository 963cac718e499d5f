import type { Figures } from './served-figures.ts';

/** One plug-in run as figure tracking sees it. */
export interface TrackedRun {
  /** The scenario (or generated state) the run was made on. */
  run: string;
  /** What the PBX served in that run; `null`: it served nothing (refused, closed, `ERROR:`). */
  figures: Figures | null;
  /** The numeric perfdata values the plug-in printed, by label (`U` left out), as printed. */
  values: Map<string, string>;
}

/** What a label's printed value is, judged over all runs. */
export type LabelTracking =
  | { label: string; kind: 'follows'; figures: string[] }
  | { label: string; kind: 'not-traced' }
  | { label: string; kind: 'broken'; message: string; evidence: TrackingEvidence };

export interface TrackingEvidence {
  label: string;
  /** The run where the label stopped following the figure, and what it printed there. */
  run: string;
  printed: string;
  /** The figure the label followed, and its value in that run (`null`: nothing was served). */
  figure: string;
  served: number | null;
  /** A run where the label equalled the figure, with the value it printed there. */
  earlierRun: string;
  earlierPrinted: string;
}

/** Above this many pair candidates for one label, ratios and percentages are not tried. */
const MAX_PAIR_CANDIDATES = 50_000;

/**
 * Figure tracking (PLUGIN-FIGURES-FOLLOW-SERVED): for each perfdata label, every served figure it
 * equals in any run (and every ratio or percentage of two it equals in one run) is a candidate, and
 * the candidates are narrowed over every other run, so a coincidence in one state (online phones
 * equal to active accounts) never raises an alarm. A label some candidate follows in every data run
 * `follows`, and is never accused: a figure explains it. One that no candidate explains is `broken`
 * only on evidence that it tracked a figure and then stopped:
 * - it equalled the figure in two runs where the figure had different telling values (it really
 *   tracked it), and another run shows a value that is not the figure; or
 * - it equalled the figure in two runs, and in another run it printed the same value again while
 *   the figure had moved (an answer kept from an earlier run, such as a cache at a fixed path).
 * Small whole numbers (−9 to 9) are too common among a PBX's hundreds of figures for an equality
 * with one of them to be evidence: they never accuse (a count a plug-in computes itself, such as
 * failed backups, equals some figure by chance);
 * - or it follows a figure that took different values, and in a run where the PBX served nothing
 *   it still printed a number (figures presented as data, such as invented zeros).
 * Only a figure itself can accuse a label; a ratio or percentage of two only explains one.
 * Anything else is `not-traced`: listed, never a failure. Printed values are compared with the
 * precision they are printed with (a figure of 12.34 equals a printed `12.3`).
 *
 * The generated states (`--runs`) draw every figure anew (src/certify/state-arbitrary.ts), so a
 * label kept from an earlier answer is no longer explained by a figure that merely stayed put
 * among the catalog's scenarios.
 */
export function trackFigures(runs: readonly TrackedRun[]): LabelTracking[] {
  const labels = new Set<string>();
  for (const run of runs) for (const label of run.values.keys()) labels.add(label);
  const memo: KeyMemo = { pairs: new Map(), words: new Map() };
  return [...labels].sort().map((label) => trackLabel(label, runs, memo));
}

/**
 * What figure tracking works out once per key and reuses over every label and run of one
 * `trackFigures` call: a pair key's parts (a label may have tens of thousands of pair candidates,
 * each valued in every run) and a text's words (compared again at every step of a sort).
 */
interface KeyMemo {
  pairs: Map<string, PairKey | null>;
  words: Map<string, Set<string>>;
}

/** A ratio or percentage of two figures, as its key names it. */
interface PairKey {
  percent: boolean;
  a: string;
  b: string;
}

function pairOf(key: string, memo: KeyMemo): PairKey | null {
  let pair = memo.pairs.get(key);
  if (pair === undefined) {
    const parts = PAIR.exec(key);
    pair = parts ? { percent: parts[1] === 'percent', a: parts[2] as string, b: parts[3] as string } : null;
    memo.pairs.set(key, pair);
  }
  return pair;
}

function trackLabel(label: string, runs: readonly TrackedRun[], memo: KeyMemo): LabelTracking {
  const isPair = (key: string) => pairOf(key, memo) !== null;
  const servedIn = (key: string, run: TrackedRun) => valueIn(key, run.figures as Figures, memo);
  const data = runs.filter((r) => r.figures !== null && r.values.has(label));
  const seed = pickSeed(label, data);
  if (!seed) return { label, kind: 'not-traced' };
  const candidates = new Set(candidatesOf(seed.printed, seed.run.figures as Figures));
  // A figure the label equals in any run is a candidate: the run a cache was filled in need not
  // be the seed.
  for (const run of data) {
    const printed = run.values.get(label) as string;
    for (const [key, value] of run.figures as Figures) if (matches(printed, value)) candidates.add(key);
  }
  if (candidates.size === 0) return { label, kind: 'not-traced' };
  const agreeing = new Map<string, TrackedRun[]>();
  for (const key of candidates) {
    agreeing.set(
      key,
      data.filter((r) => matches(r.values.get(label) as string, servedIn(key, r))),
    );
  }
  const following = [...candidates].filter((key) => agreeing.get(key)?.length === data.length);
  const empty = runs.filter((r) => r.figures === null && r.values.has(label));
  if (following.length > 0) {
    const proven = following.find((key) => !isPair(key) && distinctValues(key, data, memo) >= 2);
    const invented = empty[0];
    if (proven && invented) {
      const earlier = data[0] as TrackedRun;
      return {
        label,
        kind: 'broken',
        message: `'${label}' follows ${proven}, but printed ${invented.values.get(label)} in ${invented.run}, where the PBX served nothing`,
        evidence: {
          label,
          run: invented.run,
          printed: invented.values.get(label) as string,
          figure: proven,
          served: null,
          earlierRun: earlier.run,
          earlierPrinted: earlier.values.get(label) as string,
        },
      };
    }
    const shown = [...following].sort(
      (a, b) =>
        Number(distinctValues(b, data, memo) >= 2) - Number(distinctValues(a, data, memo) >= 2) ||
        Number(isPair(a)) - Number(isPair(b)),
    );
    return { label, kind: 'follows', figures: shown.slice(0, 5) };
  }
  // Most agreeing runs first; among equals a figure itself before a ratio or percentage of two,
  // then the figure whose name shares most words with the label (the evidence names the likelier).
  const ranked = [...agreeing.entries()].sort(
    (a, b) =>
      b[1].length - a[1].length ||
      Number(isPair(a[0])) - Number(isPair(b[0])) ||
      kinship(label, b[0], memo) - kinship(label, a[0], memo),
  );
  for (const [key, agree] of ranked) {
    if (agree.length < 2) break;
    // A ratio or percentage of two figures may explain a label, never accuse it: there are too
    // many pairs for a coincidence among them to be evidence.
    if (isPair(key)) continue;
    const agreed = new Set(agree);
    const disagree = data.filter((r) => !agreed.has(r));
    // Proven: the label equalled the figure at two different telling printed values.
    const proven =
      new Set(
        agree
          .map((r) => r.values.get(label) as string)
          .filter(telling)
          .map(Number),
      ).size >= 2;
    // The same telling value printed again while the figure moved: an answer kept from before.
    const stale = disagree.find(
      (r) =>
        telling(r.values.get(label) as string) &&
        agree.some(
          (s) => s.values.get(label) === r.values.get(label) && servedIn(key, s) !== servedIn(key, r),
        ),
    );
    const stopped = stale ?? (proven ? disagree[0] : undefined);
    if (!stopped) continue;
    const earlier = agree[0] as TrackedRun;
    const served = servedIn(key, stopped);
    const printed = stopped.values.get(label) as string;
    return {
      label,
      kind: 'broken',
      message: `'${label}' followed ${key} (${earlier.run}: ${earlier.values.get(label)}), but printed ${printed} in ${stopped.run}, where the PBX served ${served ?? 'no such figure'}${stale ? ' (the same value as before: an answer kept from an earlier run?)' : ''}`,
      evidence: {
        label,
        run: stopped.run,
        printed,
        figure: key,
        served: served ?? null,
        earlierRun: earlier.run,
        earlierPrinted: earlier.values.get(label) as string,
      },
    };
  }
  return { label, kind: 'not-traced' };
}

/** How many words of three letters or more a label and a figure's key share. */
function kinship(label: string, key: string, memo: KeyMemo): number {
  const inKey = wordsOf(key, memo);
  let shared = 0;
  for (const word of wordsOf(label, memo)) if (inKey.has(word)) shared += 1;
  return shared;
}

/** A text's words of three letters or more, lower case. */
function wordsOf(text: string, memo: KeyMemo): Set<string> {
  let words = memo.words.get(text);
  if (!words) {
    words = new Set(
      text
        .toLowerCase()
        .split(/[^a-z]+/)
        .filter((w) => w.length >= 3),
    );
    memo.words.set(text, words);
  }
  return words;
}

/** Whether a value repeated is evidence: not a small whole number (−9 to 9), which repeats by chance. */
function telling(printed: string): boolean {
  const v = Number(printed);
  return Number.isFinite(v) && !(Number.isInteger(v) && Math.abs(v) <= 9);
}

/** The data run to take the candidates from: a non-zero value with the fewest direct matches. */
function pickSeed(label: string, data: readonly TrackedRun[]): { run: TrackedRun; printed: string } | null {
  let best: { run: TrackedRun; printed: string; score: number } | null = null;
  for (const run of data) {
    const printed = run.values.get(label) as string;
    const direct = [...(run.figures as Figures).values()].filter((f) => matches(printed, f)).length;
    const score =
      Number(printed) === 0 ? Number.MAX_SAFE_INTEGER : direct === 0 ? Number.MAX_SAFE_INTEGER - 1 : direct;
    if (!best || score < best.score) best = { run, printed, score };
  }
  return best;
}

/** Every figure key the printed value equals, and every ratio or percentage of two. */
function candidatesOf(printed: string, figures: Figures): string[] {
  const keys: string[] = [];
  for (const [key, value] of figures) if (matches(printed, value)) keys.push(key);
  const v = Number(printed);
  if (v === 0) return keys;
  const byValue = new Map<number, string[]>();
  for (const [key, value] of figures) {
    const list = byValue.get(value);
    if (list) list.push(key);
    else byValue.set(value, [key]);
  }
  const values = [...byValue.keys()].sort((a, b) => a - b);
  const tolerance = toleranceOf(printed);
  const pairs: string[] = [];
  for (const [kind, factor] of [
    ['ratio', 1],
    ['percent', 100],
  ] as const) {
    for (const b of values) {
      if (b === 0) continue;
      // a * factor / b ≈ v  ⇔  a ≈ v * b / factor, within tolerance * |b| / factor.
      const centre = (v * b) / factor;
      const spread = (tolerance * Math.abs(b)) / factor;
      for (const a of rangeOf(values, centre - spread, centre + spread)) {
        if (a === 0) continue;
        for (const ka of byValue.get(a) as string[]) {
          for (const kb of byValue.get(b) as string[]) {
            if (ka === kb) continue;
            pairs.push(`${kind}(${ka} / ${kb})`);
            if (pairs.length > MAX_PAIR_CANDIDATES) return keys;
          }
        }
      }
    }
  }
  return [...keys, ...pairs];
}

function rangeOf(sorted: readonly number[], low: number, high: number): number[] {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < low) lo = mid + 1;
    else hi = mid;
  }
  const found: number[] = [];
  for (let i = lo; i < sorted.length && (sorted[i] as number) <= high; i += 1)
    found.push(sorted[i] as number);
  return found;
}

const PAIR = /^(ratio|percent)\((.*) \/ (.*)\)$/s;

/** A figure's value in a run (a pair computed from its two figures); `undefined` when absent. */
export function figureValue(key: string, figures: Figures): number | undefined {
  return valueIn(key, figures, { pairs: new Map(), words: new Map() });
}

function valueIn(key: string, figures: Figures, memo: KeyMemo): number | undefined {
  const direct = figures.get(key);
  if (direct !== undefined) return direct;
  const pair = pairOf(key, memo);
  if (!pair) return undefined;
  const a = figures.get(pair.a);
  const b = figures.get(pair.b);
  if (a === undefined || b === undefined || b === 0) return undefined;
  return pair.percent ? (100 * a) / b : a / b;
}

/** How many different non-zero values a figure took over these runs (zeros prove nothing). */
function distinctValues(key: string, runs: readonly TrackedRun[], memo: KeyMemo): number {
  return new Set(runs.map((r) => valueIn(key, r.figures as Figures, memo)).filter((v) => v !== 0)).size;
}

/** Half a unit of the last printed decimal, plus a hair for binary fractions. */
function toleranceOf(printed: string): number {
  const decimals = /\.(\d*)$/.exec(printed)?.[1]?.length ?? 0;
  return 0.5 * 10 ** -decimals + 1e-9 * Math.abs(Number(printed));
}

/** Whether a printed value equals a served figure to the precision it is printed with. */
export function matches(printed: string, figure: number | undefined): boolean {
  if (figure === undefined) return false;
  const v = Number(printed);
  if (!Number.isFinite(v)) return false;
  return Math.abs(v - figure) <= toleranceOf(printed);
}
