import type { MaintenanceActionName } from './command-names.ts';
import type { CommandParameters } from './command-parameters.ts';
import type { ActionResult } from './maintenance-actions.ts';

/** The one event name of a completed maintenance action (MAINT-UNSPEC-COMPLETION-EVENTS). */
export const COMPLETION_EVENT_NAME = 'MaintenanceCompleted';

/**
 * Reported once a maintenance action has run (MAINT-EXEC-COMPLETION-EVENT); never for
 * `RestartPbx` and `UpdatePbx` (MAINT-EXEC-NO-EVENT-SYSTEM-ACTIONS), never for a discarded
 * command, and only after the 200 answer was sent (MAINT-EXEC-ASYNC). Names and fields are the
 * simulator's choice (MAINT-UNSPEC-COMPLETION-EVENTS, schemas/maintenance/completion-event.schema.json).
 */
export interface CompletionEvent {
  /** 1, 2, … within this simulator; `GET /maintenance/events?since=` pages by it. */
  seq: number;
  name: typeof COMPLETION_EVENT_NAME;
  /** The id the command got when it was accepted (also in its module-log entry). */
  commandId: number;
  command: MaintenanceActionName;
  /** Always `API` for commands that came through interface A (MAINT-TRIGGER-SET-TO-API). */
  trigger: 'API';
  /** Virtual-clock epoch ms of acceptance and of completion. */
  acceptedAt: number;
  at: number;
  /** The parameters the command ran with: its own known fields as sent, `trigger` = `API`. */
  parameters: CommandParameters;
  /** What changed, per command (docs/maintenance-api.md, "Commands and their effects"). */
  result: ActionResult;
}
