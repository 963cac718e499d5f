import assert from 'node:assert/strict';

/**
 * Asserts that an item time is the PBX clock at a report (FLEET-ITEM-FIRSTAT,
 * FLEET-ITEM-LASTAT, FLEET-TIMES-MS-UTC). `within` is the PBX clock read just before and
 * just after the report was raised: on a frozen clock both are the same instant and the time must
 * equal it; on a running clock the report's time lies in between and nothing else is known.
 */
export function assertReportTime(actual: unknown, within: [number, number] | undefined, field: string): void {
  assert.ok(within, `${field}: no report time was recorded`);
  const [from, to] = within;
  if (from === to) {
    assert.equal(actual, from, field);
    return;
  }
  assert.ok(
    typeof actual === 'number' && actual >= from && actual <= to,
    `${field}: ${String(actual)} is not the PBX clock at the report (between ${from} and ${to})`,
  );
}
