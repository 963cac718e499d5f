/**
 * Why an accepted command was discarded instead of executed. Each discard writes one module-log
 * entry carrying its reason and no completion event (MAINT-LICENCE-NEEDED-TO-EXECUTE,
 * MAINT-DISCARD-CALLDATA-UNCONFIRMED, MAINT-DISCARD-PROVISION-NO-TYPE, MAINT-DISCARD-INVALID-MODE,
 * MAINT-DISCARD-UNAVAILABLE-VERSION, MAINT-UNSPEC-MODULE-LOG). The API has already answered 200 `ok`.
 */
export type DiscardReason =
  /** `licence.valid` is false when the command runs. */
  | 'licence-invalid'
  /** `DeleteCallData` without `confirmed: true` (missing or `false`, MAINT-UNSPEC-CONFIRMED-FALSE). */
  | 'not-confirmed'
  /** `ProvisionDevices` without a non-empty `type`. */
  | 'type-missing'
  /** `mode` outside the command's modes (or not a string). */
  | 'invalid-mode'
  /** `DeleteLogs` with a `scope` outside `all`, `pbx`, `support` (or not a string). */
  | 'invalid-scope'
  /** `ProvisionDevices` with a `type` longer than 64 characters. */
  | 'invalid-type'
  /** `UpdatePbx` target not in `update.availableVersions` (MAINT-DISCARD-UNAVAILABLE-VERSION). */
  | 'version-unavailable'
  /** `executeAt` not a string of the shape `yyyy-mm-ddThh:mm` naming a real date and time. */
  | 'invalid-execute-at'
  /** `maintenance.timeZone` is not a time zone this Node knows. */
  | 'time-zone-unknown'
  /** A parameter of the wrong JSON type (MAINT-UNSPEC-WRONG-TYPES); the log names it. */
  | 'wrong-type'
  /** The simulator failed while running the command (a bug; logged at level `error`). */
  | 'internal-error';
