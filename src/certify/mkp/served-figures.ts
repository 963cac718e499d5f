/**
 * The numbers an agent text served, keyed by where they stand, for the figure rules of
 * `certify-plugin --mkp` (PLUGIN-FIGURES-FOLLOW-SERVED read for metrics, the canonical-unit rule):
 * every whole or decimal number after a line's first word, keyed `<section>/<first word>/<index>`
 * (`pbx/known_phones/1` for the line `known_phones 148` of `<<<pbx>>>`; the parts of a
 * `<used>/<max>` word get `.1` and `.2`).
 */
export type ServedFigures = Map<string, number>;

const HEADER = /^<<<([^<>:]*)(?::[^<>]*)?>>>\s*$/;
const NUMBER = /^-?\d+(?:\.\d+)?$/;

export function servedFigures(text: string): ServedFigures {
  const figures: ServedFigures = new Map();
  let section: string | null = null;
  for (const line of text.split('\n')) {
    const header = HEADER.exec(line);
    if (header) {
      section = header[1] || null;
      continue;
    }
    if (section === null) continue;
    const words = line.trim().split(/\s+/);
    const [first, ...rest] = words;
    if (!first) continue;
    rest.forEach((word, index) => {
      // `<used>/<max>` pairs (`total_accounts 155/0`, `java_heap_memory 1/2`) count part by part.
      const parts = word.includes('/') ? word.split('/') : [word];
      parts.forEach((part, at) => {
        if (!NUMBER.test(part)) return;
        const key = `${section}/${first}/${index + 1}${parts.length > 1 ? `.${at + 1}` : ''}`;
        if (!figures.has(key)) figures.set(key, Number(part));
      });
    });
  }
  return figures;
}

/** Scales under which a metric still "equals" a served figure: as served, ms → s, s → ms. */
export const FIGURE_SCALES = [1, 0.001, 1000] as const;

/**
 * Values too common to tie a metric to one figure: whole numbers from -9 to 9 (the `-1` sentinel,
 * 0, 1, and the small counts a PBX serves dozens of), and any number below 2. The same rule as the
 * command plug-ins' figure tracking (src/certify/figure-tracking.ts).
 */
export function distinctive(value: number): boolean {
  return Math.abs(value) >= 10 || (!Number.isInteger(value) && Math.abs(value) >= 2);
}

function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** The figures (with the scale) a metric value equals in one served text. */
export function matchingFigures(value: number, figures: ServedFigures): { key: string; scale: number }[] {
  if (!distinctive(value)) return [];
  const found: { key: string; scale: number }[] = [];
  for (const [key, served] of figures) {
    if (!distinctive(served)) continue;
    for (const scale of FIGURE_SCALES) if (near(served * scale, value)) found.push({ key, scale });
  }
  return found;
}

export function followsFigure(value: number, served: number | undefined, scale: number): boolean {
  return served !== undefined && near(served * scale, value);
}
