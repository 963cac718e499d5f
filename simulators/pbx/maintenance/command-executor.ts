import { EventEmitter } from 'node:events';
import type { TimerId } from '../../shared/clock.ts';
import type { PbxStore } from '../state/store.ts';
import type { PbxState } from '../state/types.ts';
import type { AcceptedCommand } from './accepted-command.ts';
import { type CommandName, isSystemAction, type MaintenanceActionName } from './command-names.ts';
import type { BodyKind, CommandParameters } from './command-parameters.ts';
import { COMPLETION_EVENT_NAME, type CompletionEvent } from './completion-event.ts';
import type { DiscardReason } from './discard-reason.ts';
import { localDateTimeToEpoch } from './execute-at.ts';
import { loggableParameters } from './loggable-parameters.ts';
import { type ActionResult, runMaintenanceAction } from './maintenance-actions.ts';
import { checkParameters, type UsableParameters } from './parameter-rules.ts';
import { beginRestart, finishRestart } from './pbx-restart.ts';
import { installUpdate, isVersionAvailable, takeScheduledUpdate } from './pbx-update.ts';

/** Module-log messages of the executor (source `maintenance`); one of the first two per command. */
export const EXECUTOR_LOG = {
  executed: 'maintenance command executed',
  discarded: 'maintenance command discarded',
  updateInstalled: 'scheduled update installed',
  updateDiscarded: 'scheduled update discarded',
  restartFinished: 'PBX restart finished',
} as const;

export const LOG_SOURCE = 'maintenance';

/** The hand-over failed: the API answers 500 `command failed` (MAINT-ERR-500-COMMAND-FAILED). */
export class CommandHandoverError extends Error {
  constructor(reason: string) {
    super(`command hand-over failed: ${reason}`);
    this.name = 'CommandHandoverError';
  }
}

export interface CommandExecutorOptions {
  /** Accepted commands waiting to run before a hand-over fails (default 100 000). */
  maxQueued?: number;
  /** Commands run per turn of the event loop before I/O gets its turn again (default 256). */
  batchSize?: number;
}

/** Kept completion events; older ones are dropped (a long `simulate` run stays bounded). */
const MAX_EVENTS = 50_000;

export interface CommandExecutorEvents {
  completed: [event: CompletionEvent];
}

/**
 * Runs accepted commands in the background against the one PBX state, each exactly once and in
 * acceptance order (MAINT-EXEC-ASYNC): `submit()` only queues, and the queue is worked off on
 * `setImmediate`, never in the request's call stack, so the 200 is written before any command
 * runs. Every command ends in exactly one module-log entry, `executed` or `discarded`; discards
 * are silent towards the client (MAINT-LICENCE-NEEDED-TO-EXECUTE, MAINT-DISCARD-CALLDATA-UNCONFIRMED,
 * MAINT-DISCARD-PROVISION-NO-TYPE, MAINT-DISCARD-INVALID-MODE, MAINT-DISCARD-UNAVAILABLE-VERSION,
 * MAINT-POST-INVALID-JSON-REQUIRED). Maintenance
 * actions also record a completion event (MAINT-EXEC-COMPLETION-EVENT). Scheduled updates and the
 * end of a restart run on the store's (virtual) clock.
 */
export class CommandExecutor extends EventEmitter<CommandExecutorEvents> {
  private queue: AcceptedCommand[] = [];
  private head = 0;
  private immediate: NodeJS.Immediate | undefined;
  private idleWaiters: (() => void)[] = [];
  private readonly eventList: CompletionEvent[] = [];
  private eventSeq = 0;
  private commandSeq = 0;
  private updateTimer: TimerId | undefined;
  private restartTimer: TimerId | undefined;
  private closed = false;
  private readonly maxQueued: number;
  private readonly batchSize: number;

  constructor(
    private readonly store: PbxStore,
    options: CommandExecutorOptions = {},
  ) {
    super();
    this.maxQueued = options.maxQueued ?? 100_000;
    this.batchSize = options.batchSize ?? 256;
    store.on('faults', this.onFaults);
  }

  /** Clearing the fault `command-execution-held` lets the queue run again. */
  private readonly onFaults = (): void => this.arm();

  /**
   * Hands a command over; returns at once. Throws `CommandHandoverError` when the fault
   * `command-handover-failure` is on, the queue is full or the executor is closed.
   */
  submit(command: CommandName, parameters: CommandParameters, body: BodyKind): AcceptedCommand {
    if (this.closed) throw new CommandHandoverError('the executor is closed');
    if (this.store.hasFault('command-handover-failure')) throw new CommandHandoverError('fault injected');
    if (this.pending() >= this.maxQueued) throw new CommandHandoverError('the queue is full');
    const accepted: AcceptedCommand = {
      id: ++this.commandSeq,
      command,
      parameters: { ...parameters, trigger: 'API' },
      body,
      acceptedAt: this.store.clock.now(),
    };
    this.queue.push(accepted);
    this.arm();
    return accepted;
  }

  /** Commands accepted and not yet run. */
  pending(): number {
    return this.queue.length - this.head;
  }

  /** Resolves once every command accepted so far has run (tests, the control plane). */
  idle(): Promise<void> {
    if (this.pending() === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Completion events with `seq` above `sinceSeq`, oldest first. */
  events(sinceSeq = 0): CompletionEvent[] {
    return this.eventList.filter((event) => event.seq > sinceSeq).map((event) => structuredClone(event));
  }

  /**
   * Back to a fresh executor for the next scenario: queued commands are dropped unrun, events
   * are cleared and the clock timers of a scheduled update or a restart are cancelled (the
   * state's own reset clears `scheduledUpdate` and `restartingUntil`). Sequence numbers go on.
   */
  reset(): void {
    this.dropQueue();
    this.eventList.length = 0;
    this.cancelTimers();
  }

  /** Stops the worker and the timers; later hand-overs fail. */
  close(): void {
    this.closed = true;
    this.store.off('faults', this.onFaults);
    this.dropQueue();
    this.cancelTimers();
  }

  private dropQueue(): void {
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = undefined;
    this.queue = [];
    this.head = 0;
    this.wakeIdle();
  }

  private cancelTimers(): void {
    if (this.updateTimer !== undefined) this.store.clock.clearTimer(this.updateTimer);
    if (this.restartTimer !== undefined) this.store.clock.clearTimer(this.restartTimer);
    this.updateTimer = undefined;
    this.restartTimer = undefined;
  }

  private arm(): void {
    if (this.immediate || this.pending() === 0 || this.store.hasFault('command-execution-held')) return;
    this.immediate = setImmediate(() => this.work());
  }

  /**
   * Runs up to `batchSize` commands inside one `store.update`, so the batch ends in one change
   * notification instead of one per command: the other faces (data endpoint, attention forwarder)
   * re-evaluate the state on every change, which cost more than the actions themselves. Nothing
   * outside sees the state between two commands of a batch: they run in one call stack.
   */
  private work(): void {
    this.immediate = undefined;
    // Held after the work was armed: stay queued; clearing the fault arms again.
    if (this.store.hasFault('command-execution-held')) return;
    if (this.pending() === 0) {
      this.wakeIdle();
      return;
    }
    this.store.update(() => {
      for (let n = 0; n < this.batchSize && this.head < this.queue.length; n++) {
        const accepted = this.queue[this.head]!;
        this.head++;
        this.runOnce(accepted);
      }
    });
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    if (this.pending() > 0) this.arm();
    else this.wakeIdle();
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }

  private runOnce(accepted: AcceptedCommand): void {
    try {
      this.run(accepted);
    } catch (error) {
      this.discard(
        accepted,
        'internal-error',
        undefined,
        error instanceof Error ? error.message : String(error),
      );
    }
  }

  private run(accepted: AcceptedCommand): void {
    if (!this.store.read().licence.valid) {
      this.discard(accepted, 'licence-invalid');
      return;
    }
    const check = checkParameters(accepted.command, accepted.parameters);
    if (!check.usable) {
      this.discard(accepted, check.reason, check.parameter);
      return;
    }
    const { command } = accepted;
    if (command === 'RestartPbx') this.restart(accepted);
    else if (command === 'UpdatePbx') this.update(accepted, check.parameters);
    else this.maintain(accepted, command, check.parameters);
  }

  private maintain(
    accepted: AcceptedCommand,
    command: MaintenanceActionName,
    parameters: UsableParameters,
  ): void {
    // Runs within the batch's `store.update` (work): the live state is the one to change.
    const result = runMaintenanceAction(this.store.read() as PbxState, command, parameters);
    this.executed(accepted, result);
  }

  private restart(accepted: AcceptedCommand): void {
    const now = this.store.clock.now();
    let until = now;
    this.store.update((state) => {
      until = beginRestart(state, now);
    });
    if (this.restartTimer !== undefined) this.store.clock.clearTimer(this.restartTimer);
    this.restartTimer = undefined;
    if (until <= now) this.finishRestart();
    else this.restartTimer = this.store.clock.setTimer(() => this.finishRestart(), until - now);
    this.executed(accepted, { restartingUntil: until });
  }

  private finishRestart(): void {
    this.restartTimer = undefined;
    const now = this.store.clock.now();
    const until = this.store.read().maintenance.restartingUntil;
    if (until === 0 || now < until) return;
    this.store.update((state) => finishRestart(state, now));
    this.store.log('info', LOG_SOURCE, EXECUTOR_LOG.restartFinished, { restartedAt: until });
  }

  /**
   * `UpdatePbx` (MAINT-UNSPEC-UPDATE-SCHEDULING; docs/maintenance-api.md, "UpdatePbx scheduling"):
   * `version` is the target version, the latest one when absent (MAINT-PARAM-VERSION); a target
   * that is not available is discarded, nothing started or scheduled
   * (MAINT-DISCARD-UNAVAILABLE-VERSION).
   */
  private update(accepted: AcceptedCommand, parameters: UsableParameters): void {
    const now = this.store.clock.now();
    if (parameters.mode === 'cancel') {
      let cancelled: ReturnType<typeof takeScheduledUpdate> = null;
      this.store.update((state) => {
        cancelled = takeScheduledUpdate(state);
      });
      this.cancelUpdateTimer();
      this.executed(accepted, { mode: 'cancel', cancelled });
      return;
    }
    const state = this.store.read();
    const version = parameters.version ?? state.update.latestVersion;
    if (!isVersionAvailable(state, version)) {
      this.discard(accepted, 'version-unavailable', 'version');
      return;
    }
    const executeAt = parameters.executeAt;
    if (executeAt) {
      const dueAt = localDateTimeToEpoch(executeAt.fields, state.maintenance.timeZone);
      if (dueAt === null) {
        this.discard(accepted, 'time-zone-unknown');
        return;
      }
      if (dueAt > now) {
        const scheduled = { version, executeAt: executeAt.text, dueAt };
        let replaced: ReturnType<typeof takeScheduledUpdate> = null;
        this.store.update((draft) => {
          replaced = takeScheduledUpdate(draft);
          draft.maintenance.scheduledUpdate = { ...scheduled };
        });
        this.cancelUpdateTimer();
        this.updateTimer = this.store.clock.setTimer(() => this.installScheduled(scheduled), dueAt - now);
        this.executed(accepted, { mode: 'install', scheduled, replaced });
        return;
      }
    }
    let replaced: ReturnType<typeof takeScheduledUpdate> = null;
    let installed: ReturnType<typeof installUpdate> | undefined;
    this.store.update((draft) => {
      replaced = takeScheduledUpdate(draft);
      installed = installUpdate(draft, version);
    });
    this.cancelUpdateTimer();
    this.executed(accepted, {
      mode: 'install',
      ...installed,
      ...(executeAt ? { executeAt: executeAt.text, caughtUp: true } : {}),
      replaced,
    });
  }

  private cancelUpdateTimer(): void {
    if (this.updateTimer !== undefined) this.store.clock.clearTimer(this.updateTimer);
    this.updateTimer = undefined;
  }

  /** The due time of a scheduled update has come (or the clock jumped past it: caught up). */
  private installScheduled(expected: { version: string; executeAt: string; dueAt: number }): void {
    this.updateTimer = undefined;
    const state = this.store.read();
    const pending = state.maintenance.scheduledUpdate;
    if (pending.version !== expected.version || pending.dueAt !== expected.dueAt) return;
    const reason: DiscardReason | null = !state.licence.valid
      ? 'licence-invalid'
      : isVersionAvailable(state, expected.version)
        ? null
        : 'version-unavailable';
    if (reason) {
      this.store.update((draft) => {
        takeScheduledUpdate(draft);
      });
      this.store.log('warning', LOG_SOURCE, EXECUTOR_LOG.updateDiscarded, { ...expected, reason });
      return;
    }
    let installed: ReturnType<typeof installUpdate> | undefined;
    this.store.update((draft) => {
      takeScheduledUpdate(draft);
      installed = installUpdate(draft, expected.version);
    });
    this.store.log('info', LOG_SOURCE, EXECUTOR_LOG.updateInstalled, { ...expected, ...installed });
  }

  private executed(accepted: AcceptedCommand, result: ActionResult): void {
    this.store.log('info', LOG_SOURCE, EXECUTOR_LOG.executed, {
      commandId: accepted.id,
      command: accepted.command,
      trigger: accepted.parameters.trigger,
      body: accepted.body,
      parameters: loggableParameters(accepted.parameters),
      result,
    });
    const command = accepted.command;
    if (isSystemAction(command)) return;
    const event: CompletionEvent = {
      seq: ++this.eventSeq,
      name: COMPLETION_EVENT_NAME,
      commandId: accepted.id,
      command,
      trigger: 'API',
      acceptedAt: accepted.acceptedAt,
      at: this.store.clock.now(),
      // A command that ran has passed `checkParameters`: its values are strings, numbers and
      // booleans, so a shallow copy is a whole one (no structuredClone per command).
      parameters: { ...accepted.parameters },
      result,
    };
    this.eventList.push(event);
    // Trimmed in batches: amortised O(1) per event once the list is full.
    if (this.eventList.length > MAX_EVENTS * 1.1)
      this.eventList.splice(0, this.eventList.length - MAX_EVENTS);
    // Each listener gets its own copy, so the kept event cannot be changed from outside; without
    // listeners (the usual case) no copy is made at all.
    if (this.listenerCount('completed') > 0) this.emit('completed', structuredClone(event));
  }

  private discard(
    accepted: AcceptedCommand,
    reason: DiscardReason,
    parameter?: string,
    detail?: string,
  ): void {
    this.store.log(reason === 'internal-error' ? 'error' : 'warning', LOG_SOURCE, EXECUTOR_LOG.discarded, {
      commandId: accepted.id,
      command: accepted.command,
      trigger: accepted.parameters.trigger,
      body: accepted.body,
      parameters: loggableParameters(accepted.parameters),
      reason,
      ...(parameter === undefined ? {} : { parameter }),
      ...(detail === undefined ? {} : { detail }),
    });
  }
}
