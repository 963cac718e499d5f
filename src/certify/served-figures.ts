/**
 * The figures the PBX served in one scenario run, each under a key that names the same figure in
 * every other run (PLUGIN-FIGURES-FOLLOW-SERVED): every number of the agent text's PBX sections
 * and local checks, keyed by its section, the line's shape with the numbers blanked
 * out and the number's place in the line; and every number of the JSON snapshot and the length
 * of each of its lists (the active channels, the peers, the backup targets …), keyed by their
 * path. Counts of agent-text lines are no figure of their own: a reader that counts one line too
 * many (a header line taken for a channel) must not find a figure to follow.
 */
export type Figures = Map<string, number>;

const HEADER = /^<<<([^>:]*)(?::[^>]*)?>>>$/;
const NUMBER = /-?\d+(?:\.\d+)?/g;

/** The figures of an agent text. */
export function agentFigures(text: string): Figures {
  const figures: Figures = new Map();
  let section: string | null = null;
  const shapes = new Map<string, number>();
  for (const raw of text.replace(/\r\n/g, '\n').split('\n')) {
    const header = HEADER.exec(raw);
    if (header) {
      // What a PBX plug-in reads: the PBX sections and the local checks, not the host's own
      // Linux sections (process lists and counters would only add coincidences).
      const name = header[1] ?? '';
      section = name === 'local' || name === 'pbx' || name.startsWith('pbx_') ? name : null;
      shapes.clear();
      continue;
    }
    if (section === null || raw.trim() === '') continue;
    const shape = raw.replace(NUMBER, '#').slice(0, 120);
    const seen = shapes.get(shape) ?? 0;
    shapes.set(shape, seen + 1);
    let index = 0;
    for (const match of raw.matchAll(NUMBER)) {
      const value = Number(match[0]);
      if (Number.isFinite(value))
        figures.set(`agent <<<${section}>>> "${shape}"${seen > 0 ? ` (${seen + 1}.)` : ''} #${index}`, value);
      index += 1;
    }
  }
  return figures;
}

/** The figures of a JSON snapshot (numbers and list lengths by path); none when it is no JSON. */
export function jsonFigures(text: string): Figures {
  const figures: Figures = new Map();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return figures;
  }
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'number' && Number.isFinite(value)) figures.set(`json ${path}`, value);
    else if (Array.isArray(value)) {
      figures.set(`json ${path}.length`, value.length);
      for (const [index, item] of value.entries()) walk(item, `${path}[${index}]`);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) walk(item, path === '' ? key : `${path}.${key}`);
    }
  };
  walk(data, '');
  return figures;
}

/** Whether an agent text carries data: something other than nothing or one `ERROR:` line. */
export function servedData(text: string | null): boolean {
  if (text === null) return false;
  const trimmed = text.trim();
  return trimmed !== '' && !/^ERROR:/.test(trimmed);
}
