import type { Writable } from 'node:stream';
import type { Envelope, Pickle, TestStepResult } from '@cucumber/messages';
import { FIXTURE_ERROR_NAME } from '../core/fixture-error-name.ts';

/** How often a line is written without a terminal (CI logs). */
export const CI_LINE_INTERVAL_MS = 5_000;
/** How often the status line is redrawn on a terminal. */
const TTY_REDRAW_MS = 200;
/** How often the clock is looked at between scenarios, so the elapsed time moves on its own. */
const CLOCK_TICK_MS = 1_000;
/** Longest reason on a FAIL line; a longer one keeps its start and its end (what is missing is often last). */
const MAX_REASON_CHARS = 300;

export interface ProgressOptions {
  out: Writable;
  /** A terminal gets one status line redrawn in place; anything else gets a line every few seconds. */
  tty: boolean;
  now?: () => number;
  /**
   * What each scenario is expected to cost, in ms, by {@link scenarioCostKey} (from the last run's
   * report: src/runner/expected-costs.ts). Without costs for most scenarios, no time left is shown.
   */
  expectedCostMs?: ReadonlyMap<string, number>;
}

/** The key of a scenario's expected cost: its feature file and name. */
export function scenarioCostKey(uri: string, name: string): string {
  return `${uri}\u0000${name}`;
}

/** Share of the selected scenarios whose cost must be known before an estimate is shown. */
const KNOWN_COST_SHARE = 0.8;

/**
 * Progress of a `verify` run, read from Cucumber's live message stream (no Cucumber formatter):
 * scenarios done / total, failures so far, elapsed time and, where the scenarios' expected costs are
 * known (issue 29, item 14), an estimate of the time left: the expected cost of the scenarios not
 * yet done, scaled by how this run compares with the expected cost of those done. Scenarios differ
 * by orders of magnitude (a certify-plugin scenario runs a plug-in many times), so a rate of
 * scenarios per second says nothing, and without costs nothing is estimated. On a
 * terminal one status line is redrawn in place; without one (CI), a line every
 * {@link CI_LINE_INTERVAL_MS}; both also while a long scenario runs (a timer, unref'd, looks at
 * the clock every second). Either way each failed clause is printed once, as its first scenario
 * fails, with a one-line reason. A scenario whose harness fixture failed is not a failure here either.
 */
export class Progress {
  private readonly out: Writable;
  private readonly tty: boolean;
  private readonly now: () => number;
  private readonly pickles = new Map<string, Pickle>();
  private readonly caseToPickle = new Map<string, string>();
  private readonly startedCase = new Map<string, string>();
  private readonly firstFailure = new Map<string, TestStepResult>();
  private readonly expectedCostMs: ReadonlyMap<string, number>;
  /** Expected cost of every selected scenario (known or not), by test case id. */
  private readonly caseCost = new Map<string, number | undefined>();
  private expectedDoneMs = 0;
  private total = 0;
  private done = 0;
  private failures = 0;
  private startedAt: number | undefined;
  private lastLine = 0;
  private statusShown = false;
  private timer: NodeJS.Timeout | undefined;
  /** Clause ids (or, for a scenario citing none, scenario names) already printed on a FAIL line. */
  private readonly printed = new Set<string>();

  constructor(options: ProgressOptions) {
    this.out = options.out;
    this.tty = options.tty;
    this.now = options.now ?? Date.now;
    this.expectedCostMs = options.expectedCostMs ?? new Map();
  }

  onEnvelope(envelope: Envelope): void {
    if (envelope.pickle) this.pickles.set(envelope.pickle.id, envelope.pickle);
    else if (envelope.testCase) {
      this.total += 1;
      this.caseToPickle.set(envelope.testCase.id, envelope.testCase.pickleId);
      const pickle = this.pickles.get(envelope.testCase.pickleId);
      this.caseCost.set(
        envelope.testCase.id,
        pickle && this.expectedCostMs.get(scenarioCostKey(pickle.uri, pickle.name)),
      );
    } else if (envelope.testRunStarted) {
      this.startedAt = this.now();
      this.lastLine = this.startedAt;
      this.stop();
      this.timer = setInterval(() => this.tick(false), CLOCK_TICK_MS);
      this.timer.unref();
    } else if (envelope.testCaseStarted) {
      this.startedCase.set(envelope.testCaseStarted.id, envelope.testCaseStarted.testCaseId);
    } else if (envelope.testStepFinished) {
      const { testCaseStartedId, testStepResult } = envelope.testStepFinished;
      if (testStepResult.status === 'FAILED' && !this.firstFailure.has(testCaseStartedId)) {
        this.firstFailure.set(testCaseStartedId, testStepResult);
      }
    } else if (envelope.testCaseFinished) {
      const id = envelope.testCaseFinished.testCaseStartedId;
      const failed = this.firstFailure.get(id);
      this.firstFailure.delete(id);
      if (envelope.testCaseFinished.willBeRetried) return;
      this.done += 1;
      const caseId = this.startedCase.get(id) ?? '';
      this.expectedDoneMs += this.caseCost.get(caseId) ?? 0;
      this.caseCost.delete(caseId);
      if (failed && failed.exception?.type !== FIXTURE_ERROR_NAME) {
        this.failures += 1;
        this.printFailure(id, failed);
      }
      this.tick(false);
    } else if (envelope.testRunFinished) {
      this.stop();
      this.tick(true);
    }
  }

  /** Stops the clock timer (the run finished, or ended without a testRunFinished message). */
  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The status text, e.g. `120/667 scenarios, 1 failure, 14 s elapsed, about 60 s left`. */
  status(): string {
    const elapsedMs = this.startedAt === undefined ? 0 : this.now() - this.startedAt;
    const parts = [
      `${this.done}/${this.total} scenarios`,
      `${this.failures} failure${this.failures === 1 ? '' : 's'}`,
      `${formatSeconds(elapsedMs)} elapsed`,
    ];
    const left = this.estimateLeftMs(elapsedMs);
    if (left !== undefined) parts.push(`about ${formatSeconds(left)} left`);
    return parts.join(', ');
  }

  /**
   * The expected cost of what is left, times elapsed / expected cost of what is done (this
   * machine, this target, --parallel), once a second of expected work is done; `undefined` while
   * fewer than {@link KNOWN_COST_SHARE} of the scenarios left have a known cost (one without
   * gets the mean of those with).
   */
  private estimateLeftMs(elapsedMs: number): number | undefined {
    if (this.done === 0 || this.done >= this.total) return undefined;
    const costs = [...this.caseCost.values()];
    const known = costs.filter((cost): cost is number => cost !== undefined);
    if (known.length < KNOWN_COST_SHARE * costs.length || this.expectedDoneMs < 1_000) return undefined;
    const unknownCost = known.length > 0 ? known.reduce((a, b) => a + b, 0) / known.length : 0;
    const expectedLeftMs = costs.reduce<number>((sum, cost) => sum + (cost ?? unknownCost), 0);
    return expectedLeftMs * (elapsedMs / this.expectedDoneMs);
  }

  private tick(final: boolean): void {
    const now = this.now();
    if (this.tty) {
      if (!final && now - this.lastLine < TTY_REDRAW_MS) return;
      this.lastLine = now;
      this.out.write(`\r\u001b[2K${this.status()}${final ? '\n' : ''}`);
      this.statusShown = !final;
      return;
    }
    if (!final && now - this.lastLine < CI_LINE_INTERVAL_MS) return;
    this.lastLine = now;
    this.out.write(`progress: ${this.status()}\n`);
  }

  private printFailure(startedId: string, result: TestStepResult): void {
    const pickle = this.pickles.get(this.caseToPickle.get(this.startedCase.get(startedId) ?? '') ?? '');
    const cited = (pickle?.tags ?? [])
      .map((tag) => tag.name.replace(/^@/, ''))
      .filter((tag) => /^[A-Z][A-Z0-9]*-[A-Z0-9-]+$/.test(tag));
    const keys = cited.length > 0 ? cited : [pickle?.name ?? '?'];
    // Once per clause: a clause's further failing scenarios add to the count, not to the log.
    const fresh = keys.filter((key) => !this.printed.has(key));
    if (fresh.length === 0) return;
    for (const key of fresh) this.printed.add(key);
    const reason =
      (result.exception?.message ?? result.message ?? 'failed').split('\n').find((l) => l.trim()) ?? '';
    const where = pickle ? ` (${pickle.uri})` : '';
    const line = `FAIL ${fresh.join(' ')}: ${oneLine(reason.trim())}${where}`;
    if (this.tty && this.statusShown) this.out.write('\r\u001b[2K');
    this.out.write(`${line}\n`);
    this.statusShown = false;
    if (this.tty) this.lastLine = 0;
  }
}

/** A reason cut to {@link MAX_REASON_CHARS}, keeping its start and its end. */
function oneLine(reason: string): string {
  if (reason.length <= MAX_REASON_CHARS) return reason;
  const tail = Math.floor(MAX_REASON_CHARS / 3);
  return `${reason.slice(0, MAX_REASON_CHARS - tail - 3)} … ${reason.slice(-tail)}`;
}

function formatSeconds(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 120 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
