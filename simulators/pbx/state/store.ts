import { EventEmitter } from 'node:events';
import type { Clock } from '../../shared/clock.ts';
import { deepMerge } from '../../shared/deep-merge.ts';
import { copyState } from './state-copy.ts';
import type { PbxState } from './types.ts';

/**
 * Faults the control plane can switch on for one scenario (docs/simulator.md, "Faults").
 * - `render-error`: the snapshot renderers throw (MON-ERR-RENDER-HTTP, MON-ERR-RENDER-RAW).
 * - `json-serialisation-error`: only the JSON renderer fails (MON-ERR-JSON).
 * - `linux-script-failure`: the agent script cannot run; Linux sections vanish (MON-TEXT-LINUX-SCRIPT-FAILURE).
 * - `collection-error`: XML-RPC data collection fails (XMLRPC-ERR-COLLECTION).
 * - `command-handover-failure`: the maintenance API cannot hand a command over (500 `command failed`).
 * - `command-execution-held`: accepted maintenance commands wait in the queue, unrun, until the
 *   fault is cleared; lets a scenario see the 200 arrive before the command ran (MAINT-EXEC-ASYNC).
 */
export const FAULTS = [
  'render-error',
  'json-serialisation-error',
  'linux-script-failure',
  'collection-error',
  'command-handover-failure',
  'command-execution-held',
] as const;
export type FaultName = (typeof FAULTS)[number];

export function isFaultName(value: unknown): value is FaultName {
  return typeof value === 'string' && (FAULTS as readonly string[]).includes(value);
}

export type LogLevel = 'info' | 'warning' | 'error';

/** One line of the module log (MAINT-UNSPEC-MODULE-LOG: the simulator's format). */
export interface ModuleLogEntry {
  seq: number;
  at: number;
  level: LogLevel;
  /** The face that wrote it: `monitoring`, `xmlrpc`, `maintenance`, `resolver`, `events`, `control`. */
  source: string;
  message: string;
  /** Structured details; never secrets. */
  data?: Record<string, unknown>;
}

/** Bound on kept log lines so a long `simulate` run does not grow without limit. */
const MAX_LOG_ENTRIES = 50_000;
const LOG_TRIM_BATCH = 5_000;

export interface PbxStoreEvents {
  change: [state: PbxState];
  log: [entry: ModuleLogEntry];
  /** After `reset()`: faces that keep their own records (tokens, queued commands) drop them. */
  reset: [];
  /** The set of active faults changed. */
  faults: [];
  /** The virtual clock was moved by the control plane (`advanceClock`). */
  clock: [];
}

/**
 * The one mutable PBX state plus what the control plane observes of it (module log, UI warnings,
 * active faults). Faces never keep their own copies of state; they call `read()` or `update()`.
 */
export class PbxStore extends EventEmitter<PbxStoreEvents> {
  private current: PbxState;
  private baseline: PbxState;
  private readonly faults = new Set<FaultName>();
  private readonly logEntries: ModuleLogEntry[] = [];
  private logSeq = 0;
  private readonly warningSet = new Set<string>();
  private revisionCounter = 0;

  constructor(
    readonly clock: Clock,
    initial: PbxState,
  ) {
    super();
    // A frozen state (`freezeState`) is shared: nothing changes it, so it serves as the baseline
    // of every PBX that starts from it (a shard's thousands) without a copy each (issue 31 §4).
    this.baseline = Object.isFrozen(initial) ? initial : copyState(initial);
    this.current = copyState(initial);
  }

  /** The live state. Treat as read-only; change it through `update()` or `patch()`. */
  read(): Readonly<PbxState> {
    return this.current;
  }

  /** Increments with every change; caches can compare it. */
  get revision(): number {
    return this.revisionCounter;
  }

  update(mutate: (state: PbxState) => void): void {
    mutate(this.current);
    this.changed();
  }

  /** Applies a deep-partial overlay (control plane `PATCH /state`). Unknown fields throw. */
  patch(overlay: unknown): void {
    this.current = deepMerge(withOptionalFields(this.current), overlay);
    this.changed();
  }

  /** Replaces state and baseline: `reset()` returns to this state afterwards. */
  load(state: PbxState, { asBaseline = true } = {}): void {
    this.current = copyState(state);
    if (asBaseline) this.baseline = copyState(state);
    this.changed();
  }

  /** Back to the baseline: state, faults, warnings, log. */
  reset(): void {
    this.current = copyState(this.baseline);
    this.faults.clear();
    this.warningSet.clear();
    this.logEntries.length = 0;
    this.changed();
    this.emit('reset');
  }

  injectFault(name: FaultName): void {
    this.faults.add(name);
    this.emit('faults');
  }

  clearFault(name?: FaultName): void {
    if (name) this.faults.delete(name);
    else this.faults.clear();
    this.emit('faults');
  }

  hasFault(name: FaultName): boolean {
    return this.faults.has(name);
  }

  activeFaults(): FaultName[] {
    return [...this.faults];
  }

  log(level: LogLevel, source: string, message: string, data?: Record<string, unknown>): ModuleLogEntry {
    const entry: ModuleLogEntry = { seq: ++this.logSeq, at: this.clock.now(), level, source, message };
    if (data) entry.data = data;
    this.logEntries.push(entry);
    // Trim in batches so a full log costs amortised O(1) per entry, not a 50k-element shift each.
    if (this.logEntries.length > MAX_LOG_ENTRIES + LOG_TRIM_BATCH) {
      this.logEntries.splice(0, this.logEntries.length - MAX_LOG_ENTRIES);
    }
    this.emit('log', entry);
    return entry;
  }

  moduleLog(sinceSeq = 0): ModuleLogEntry[] {
    return this.logEntries.filter((e) => e.seq > sinceSeq);
  }

  /** Warnings shown in the module UI, e.g. the port fallback (MON-STATE-PORT-FALLBACK). */
  warn(text: string): void {
    this.warningSet.add(text);
    this.log('warning', 'ui', text);
  }

  clearWarning(text: string): void {
    this.warningSet.delete(text);
  }

  warnings(): string[] {
    return [...this.warningSet];
  }

  private changed(): void {
    this.revisionCounter++;
    this.emit('change', this.current);
  }
}

/**
 * The state with its optional object fields present, so an overlay may set them: a RAID without
 * `controllerTable` gets `[]` (an empty table: the renderer derives one from the devices).
 */
function withOptionalFields(state: PbxState): PbxState {
  if (!state.raid || state.raid.controllerTable !== undefined) return state;
  return { ...state, raid: { ...state.raid, controllerTable: [] } };
}
