import { ControlInputError } from '../../shared/http/control-input-error.ts';
import { isSeverity, type Severity } from '../../shared/wire/severity.ts';

/**
 * An attention event a module on the PBX raises (maintenance-and-fleet-api.md, "Events").
 * EVENT-UNSPEC-ATTENTIONEVENT-FIELDS: the fields are exactly those that reappear in the attention
 * item (`module`, `moduleId`, `subject`, `description`, `severity`) plus `at`, the PBX clock time
 * of the report (default: now). Subject and description are sent as raised; the controller
 * truncates them (FLEET-ITEM-SUBJECT-LIMIT, FLEET-ITEM-DESCRIPTION-LIMIT).
 */
export interface AttentionEvent {
  /** Display name of the module. */
  module: string;
  moduleId?: string;
  subject: string;
  description?: string;
  severity: Severity;
  /** ms since 1970 UTC by the PBX clock; default: the PBX clock's now. */
  at?: number;
}

/** Bounds on what the control plane accepts, far above the controller's limits so truncation shows. */
const MAX_FIELD_CHARS = 64 * 1024;

/** Checks an event from the control plane; throws `ControlInputError` (HTTP 400) naming the field. */
export function parseAttentionEvent(value: unknown): AttentionEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ControlInputError('an attention event must be a JSON object');
  }
  const v = value as Record<string, unknown>;
  const text = (field: string, required: boolean): string | undefined => {
    const x = v[field];
    if (x === undefined && !required) return undefined;
    if (typeof x !== 'string') throw new ControlInputError(`${field} must be a string`);
    if (x.length > MAX_FIELD_CHARS)
      throw new ControlInputError(`${field} must be at most ${MAX_FIELD_CHARS} characters`);
    return x;
  };
  const module = text('module', true) as string;
  if (module === '') throw new ControlInputError('module must not be empty');
  const subject = text('subject', true) as string;
  if (!isSeverity(v['severity']))
    throw new ControlInputError('severity must be one of INFO, WARNING, ERROR, CRITICAL');
  const event: AttentionEvent = { module, subject, severity: v['severity'] };
  const moduleId = text('moduleId', false);
  if (moduleId !== undefined) event.moduleId = moduleId;
  const description = text('description', false);
  if (description !== undefined) event.description = description;
  if (v['at'] !== undefined) {
    if (typeof v['at'] !== 'number' || !Number.isSafeInteger(v['at']) || v['at'] < 0) {
      throw new ControlInputError('at must be a non-negative integer (ms since 1970)');
    }
    event.at = v['at'];
  }
  return event;
}
