import assert from 'node:assert/strict';
import type { CompletionEvent, ModuleLogEntry } from '../../../simulators/pbx/index.ts';
import { pollUntil } from '../../support/eventually.ts';
import { assertMatchesSchema } from './api-answers.ts';
import type { MaintenanceControls } from './maintenance-access.ts';
import type { Marks } from './maintenance-context.ts';

/** How long (real time) a completion event may take to show after the queue ran empty. */
const EVENT_POLL_MS = 5_000;
/**
 * How long (real time) a scenario watches, after the queue ran empty, for a completion event that
 * must not come: a target that records its events a little after running the command is still
 * caught, without every negative scenario waiting the full `EVENT_POLL_MS`.
 */
const NO_EVENT_WATCH_MS = 1_000;
const POLL_INTERVAL_MS = 50;

/** Where the completion events, the module log and the clock stand now. */
export async function takeMarks({ control, maintenance }: MaintenanceControls): Promise<Marks> {
  const [events, log, at] = await Promise.all([
    maintenance.completionEvents({ since: 0 }),
    control.moduleLog({ since: 0 }),
    control.now().then((c) => c.now),
  ]);
  return { eventSeq: events.at(-1)?.seq ?? 0, logSeq: log.at(-1)?.seq ?? 0, at };
}

/** Waits until every accepted command has run (the control plane's queue, bounded in real time). */
export async function settle({ maintenance }: MaintenanceControls): Promise<void> {
  const { pending } = await maintenance.waitIdle();
  assert.equal(pending, 0, `${pending} accepted command(s) still wait to run`);
}

/** Completion events after the marks, each validated against completion-event.schema.json. */
export async function eventsSince(controls: MaintenanceControls, marks: Marks): Promise<CompletionEvent[]> {
  const events = await controls.maintenance.completionEvents({ since: marks.eventSeq });
  for (const event of events) assertMatchesSchema(event, 'completion-event', `completion event ${event.seq}`);
  return events;
}

/**
 * Once the queue has run, polls the completion events after the marks (kept by `keep`) until one
 * shows or `windowMs` (real time) has passed; returns what it saw last (the project's one poll
 * helper, steps/support/eventually.ts).
 */
async function pollEvents(
  controls: MaintenanceControls,
  marks: Marks,
  windowMs: number,
  keep: (event: CompletionEvent) => boolean = () => true,
): Promise<CompletionEvent[]> {
  await settle(controls);
  const outcome = await pollUntil(
    async () => (await eventsSince(controls, marks)).filter(keep),
    (events) => events.length > 0,
    { timeoutMs: windowMs, intervalMs: POLL_INTERVAL_MS },
  );
  return outcome.value;
}

/**
 * The completion events of `command` after the marks, once the queue has run; polls briefly, as
 * a completion event is only promised to follow the command (MAINT-EXEC-COMPLETION-EVENT).
 */
export function awaitCompletionEvents(
  controls: MaintenanceControls,
  marks: Marks,
  command: string,
): Promise<CompletionEvent[]> {
  return pollEvents(controls, marks, EVENT_POLL_MS, (event) => event.command === command);
}

/**
 * The completion events after the marks seen once the queue has run; empty when none came
 * (MAINT-EXEC-NO-EVENT-SYSTEM-ACTIONS, MAINT-LICENCE-NEEDED-TO-EXECUTE,
 * MAINT-DISCARD-CALLDATA-UNCONFIRMED, MAINT-DISCARD-PROVISION-NO-TYPE, MAINT-DISCARD-INVALID-MODE,
 * MAINT-POST-INVALID-JSON-REQUIRED, MAINT-AUTH-401-NOT-EXECUTED). A remote target may record its events a
 * little after running a command, so there the harness watches for `NO_EVENT_WATCH_MS` of real
 * time. The embedded simulator records a command's completion event in the same turn in which
 * its executor runs the command (simulators/pbx/maintenance/command-executor.ts), and its clock
 * is frozen, so nothing scheduled can come due: once the harness has drained the executor
 * (`settle`, the control plane's wait-idle), one look sees everything that will ever come. The
 * check is as strict as before; it only no longer sleeps through a second in which nothing can
 * happen.
 */
export function eventsWhileWatching(controls: MaintenanceControls, marks: Marks): Promise<CompletionEvent[]> {
  return pollEvents(controls, marks, controls.drainedMeansSettled ? 0 : NO_EVENT_WATCH_MS);
}

/** Module-log entries written after the marks (their content is not stated: MAINT-UNSPEC-MODULE-LOG). */
export async function logSince({ control }: MaintenanceControls, marks: Marks): Promise<ModuleLogEntry[]> {
  return control.moduleLog({ since: marks.logSeq });
}
