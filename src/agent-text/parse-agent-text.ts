/** One section of agent text: the lines between its header and the next header. */
export interface AgentSection {
  /** Section name, `[A-Za-z0-9_]+`. */
  name: string;
  /** Header options `:name(value)`, e.g. `{ sep: '0' }` for `<<<local:sep(0)>>>`. */
  options: Record<string, string>;
  /** The header line as written, e.g. `<<<local:sep(0)>>>`. */
  header: string;
  /** Content lines without line ends (a trailing CR is dropped). */
  lines: string[];
  /** 1-based line number of the header. */
  lineNumber: number;
  /** Host of the piggyback block (`<<<<host>>>>`) the section is in, or `null`. */
  piggyback: string | null;
}

/** A line that looks like a header (`<<<…>>>`) but breaks the header grammar. */
export interface AgentTextProblem {
  lineNumber: number;
  line: string;
  message: string;
}

export interface AgentText {
  sections: AgentSection[];
  problems: AgentTextProblem[];
}

const SECTION_HEADER = /^<<<([A-Za-z0-9_]+)((?::[A-Za-z0-9_]+\([^()]*\))*)>>>$/;
const HEADER_OPTION = /:([A-Za-z0-9_]+)\(([^()]*)\)/g;
const PIGGYBACK_HEADER = /^<<<<([^<>]*)>>>>$/;

/**
 * Splits agent text into sections, following the Checkmk agent grammar (docs/agent-text-grammar.md):
 * a header line `<<<name>>>` or `<<<name:opt(value):opt(value)>>>` starts a section; section names
 * are `[A-Za-z0-9_]+` and options are only recognised as `name(value)` (test-vectors.md);
 * `<<<>>>` ends the current section (later lines belong to none); `<<<<host>>>>` and `<<<<>>>>`
 * open and close a piggyback block. Lines outside any section are ignored, as a Checkmk server
 * does. A header-like line that breaks the grammar is reported in `problems` and its lines are
 * ignored. LF or CRLF line ends; a final line end does not make an empty line. A section name may
 * occur more than once (readers concatenate; see `sectionLines`).
 */
export function parseAgentText(text: string): AgentText {
  const sections: AgentSection[] = [];
  const problems: AgentTextProblem[] = [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let current: AgentSection | null = null;
  let piggyback: string | null = null;
  lines.forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const lineNumber = index + 1;
    const piggy = PIGGYBACK_HEADER.exec(line);
    if (piggy) {
      piggyback = piggy[1] === '' ? null : (piggy[1] ?? null);
      current = null;
      return;
    }
    if (line.startsWith('<<<') && line.endsWith('>>>')) {
      current = null;
      if (line === '<<<>>>') return;
      const header = SECTION_HEADER.exec(line);
      if (!header) {
        problems.push({ lineNumber, line, message: headerProblem(line) });
        return;
      }
      const options: Record<string, string> = {};
      for (const option of (header[2] ?? '').matchAll(HEADER_OPTION))
        options[option[1] ?? ''] = option[2] ?? '';
      current = { name: header[1] ?? '', options, header: line, lines: [], lineNumber, piggyback };
      sections.push(current);
      return;
    }
    (current as AgentSection | null)?.lines.push(line);
  });
  return { sections, problems };
}

/**
 * The lines of every section called `name` outside piggyback blocks, concatenated in order, or
 * `undefined` when there is none. Header options do not matter: `local` finds both
 * `<<<local>>>` and `<<<local:sep(0)>>>`.
 */
export function sectionLines(agentText: AgentText, name: string): string[] | undefined {
  const matching = agentText.sections.filter((s) => s.name === name && s.piggyback === null);
  return matching.length === 0 ? undefined : matching.flatMap((s) => s.lines);
}

function headerProblem(line: string): string {
  const body = line.slice(3, -3);
  const name = body.split(':', 1)[0] ?? '';
  if (!/^[A-Za-z0-9_]+$/.test(name)) return `section name '${name}' is not [A-Za-z0-9_]+`;
  return `header options of '${body}' are not of the form :name(value)`;
}
