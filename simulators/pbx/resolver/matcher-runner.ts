import { createContext, Script } from 'node:vm';

/** One match as plain data: groups by number, `null` for a group that did not take part. */
export interface MatchData {
  groups: (string | null)[];
  index: number;
}

export type MatcherRun =
  | { ok: true; match: MatchData | null; count: number }
  | { ok: false; reason: 'syntax' | 'timeout'; message: string };

const SCRIPT = new Script(`(() => {
  const re = new RegExp(source, flags);
  const first = re.exec(body);
  let count = first ? 1 : 0;
  if (first && countLimit > 1) {
    const all = new RegExp(source, flags.includes('g') ? flags : flags + 'g');
    all.lastIndex = 0;
    count = 0;
    for (let m = all.exec(body); m !== null && count < countLimit; m = all.exec(body)) {
      count++;
      if (m[0] === '') all.lastIndex++;
    }
  }
  result = first ? { groups: Array.from(first, (g) => (g === undefined ? null : g)), index: first.index } : null;
  matches = count;
})()`);

/**
 * The one V8 context all runners share. Creating a context costs far more than a lookup's own
 * work, and sharing is safe: every run is synchronous and sets all its inputs first.
 */
let sharedContext: Record<string, unknown> | undefined;

function matcherContext(): Record<string, unknown> {
  sharedContext ??= createContext({
    body: '',
    source: '',
    flags: '',
    countLimit: 1,
    result: null,
    matches: 0,
  });
  return sharedContext;
}

/**
 * Runs matchers on a response body in a separate V8 context with a time limit, so a pattern
 * with catastrophic backtracking on a hostile body is stopped (limit `matcherMs`) instead of
 * blocking the PBX's event loop. One runner serves one body.
 */
export class MatcherRunner {
  private readonly context = matcherContext();

  constructor(
    private readonly body: string,
    private readonly timeoutMs: number,
  ) {}

  /** The first match (RESOLVER-EVAL-FIRST-MATCH); with `countUpTo` > 1 also how many there are. */
  run(source: string, flags: string, countUpTo = 1): MatcherRun {
    Object.assign(this.context, {
      body: this.body,
      source,
      flags,
      countLimit: countUpTo,
      result: null,
      matches: 0,
    });
    try {
      SCRIPT.runInContext(this.context, { timeout: Math.max(1, this.timeoutMs) });
    } catch (error) {
      const err = error as Error & { code?: string };
      if (err.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
        return {
          ok: false,
          reason: 'timeout',
          message: `the matcher ran longer than ${this.timeoutMs} ms and was stopped`,
        };
      return {
        ok: false,
        reason: 'syntax',
        message: `JavaScript cannot compile the matcher: ${err.message}`,
      };
    }
    const result = this.context['result'] as MatchData | null;
    const count = this.context['matches'] as number;
    // Let go of the body and the match so the shared context does not keep them alive.
    Object.assign(this.context, { body: '', result: null });
    return {
      ok: true,
      match: result ? { groups: [...result.groups], index: result.index } : null,
      count,
    };
  }
}
