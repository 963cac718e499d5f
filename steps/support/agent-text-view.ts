import { parseAgentText } from '../../src/agent-text/index.ts';

/** One section of agent text: `<<<name>>>` or `<<<name:options>>>` and the lines up to the next header. */
export interface AgentSection {
  /** The header line exactly as sent, e.g. `<<<labels:sep(0)>>>`. */
  header: string;
  /** Section name without options, e.g. `labels`. */
  name: string;
  lines: string[];
}

export interface AgentTextView {
  /** Lines before the first section header (a conforming agent text has none). */
  preamble: string[];
  sections: AgentSection[];
  /** Header-like lines that break the header grammar, as the project's parser reports them. */
  problems: string[];
}

/**
 * Splits agent text into sections with the project's parser (src/agent-text), the way consumers
 * in the field cut it (test-vectors.md: "cut a section out by its exact header line up to the next
 * `<<<`"). No line grammar inside the sections is assumed here (the FIELD steps check it).
 */
export function viewAgentText(text: string): AgentTextView {
  const parsed = parseAgentText(text);
  const lines = text.split('\n');
  const firstHeader = lines.findIndex((l) => l.startsWith('<<<'));
  const preamble = (firstHeader === -1 ? lines : lines.slice(0, firstHeader)).filter((l) => l !== '');
  return {
    preamble,
    sections: parsed.sections.map((s) => ({ header: s.header, name: s.name, lines: s.lines })),
    problems: parsed.problems.map((p) => `line ${p.lineNumber}: ${p.message}`),
  };
}

/**
 * The PBX sections of the spec's table, in its order. Written out from the spec rather than taken
 * from the simulator's list, so that a section the simulator leaves out fails the checks.
 */
export const PBX_SECTION_NAMES = [
  'pbx',
  'pbx_backups',
  'pbx_channels',
  // Not in the spec's table: field-line-shapes.md moves the calls of the last 5 minutes here.
  'pbx_calls',
  'pbx_accounts',
  'pbx_peers',
  'pbx_sip_provider',
  'pbx_modules',
  'pbx_database',
  'pbx_db_connections',
  'pbx_java',
] as const;

/** Which of the four blocks of MON-TEXT-BLOCK-ORDER a section belongs to. */
export type AgentBlock = 'header' | 'linux' | 'pbx' | 'local';

export function blockOf(section: AgentSection): AgentBlock {
  if (section.name === 'monitor_agent' || section.name === 'labels') return 'header';
  if (section.name === 'local') return 'local';
  if ((PBX_SECTION_NAMES as readonly string[]).includes(section.name)) return 'pbx';
  return 'linux';
}

/** Sections with `name` (a PBX section is found by its exact header `<<<name>>>`, test-vectors.md). */
export function sectionsNamed(view: AgentTextView, name: string): AgentSection[] {
  return view.sections.filter((s) => s.name === name);
}

/** The blocks of the sections in order, consecutive sections of one block collapsed. */
export function blockSequence(view: AgentTextView): AgentBlock[] {
  const blocks: AgentBlock[] = [];
  for (const s of view.sections) {
    const block = blockOf(s);
    if (blocks.at(-1) !== block) blocks.push(block);
  }
  return blocks;
}

/** The order MON-TEXT-BLOCK-ORDER gives the four blocks. */
export const BLOCK_ORDER: readonly AgentBlock[] = ['header', 'linux', 'pbx', 'local'];

/**
 * Why the sections break MON-TEXT-BLOCK-ORDER, or `undefined` when they keep it. One line that says
 * what is wrong first (a missing block, the first section out of place) and the whole order last,
 * so a reason cut for a progress line still names the problem.
 */
export function blockOrderProblem(view: AgentTextView): string | undefined {
  const blocks = blockSequence(view);
  if (blocks.join() === BLOCK_ORDER.join()) return undefined;
  const problems = BLOCK_ORDER.filter((block) => !blocks.includes(block)).map((block) => `no ${block} block`);
  const ranks = view.sections.map((s) => BLOCK_ORDER.indexOf(blockOf(s)));
  const late = ranks.findIndex((rank, i) => i > 0 && rank < (ranks[i - 1] ?? 0));
  const moved = view.sections[late];
  const before = view.sections[late - 1];
  if (late > 0 && moved && before) {
    problems.push(`${moved.header} (${blockOf(moved)}) after ${before.header} (${blockOf(before)})`);
  }
  if (problems.length === 0) problems.push('a block is split');
  return `blocks come as ${blocks.join(', ')}, not ${BLOCK_ORDER.join(', ')}: ${problems.join('; ')}; sections: ${view.sections.map((s) => s.header).join(' ')}`;
}
