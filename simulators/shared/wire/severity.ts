/** Severities of attention events, shared by the PBX's forwarder and the controller. */

/** FLEET-ITEM-SEVERITY: the four severities, in rising order. */
export const SEVERITIES = ['INFO', 'WARNING', 'ERROR', 'CRITICAL'] as const;
export type Severity = (typeof SEVERITIES)[number];

export function isSeverity(value: unknown): value is Severity {
  return typeof value === 'string' && (SEVERITIES as readonly string[]).includes(value);
}
