import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { localDateTimeToEpoch, parseExecuteAt } from '../../../../simulators/pbx/maintenance/execute-at.ts';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

test('MAINT-PARAM-EXECUTEAT: every real date-time of the shape yyyy-mm-ddThh:mm is read, in UTC as written', () => {
  fc.assert(
    fc.property(
      fc.date({
        min: new Date(Date.UTC(1970, 0, 1)),
        max: new Date(Date.UTC(9999, 11, 31)),
        noInvalidDate: true,
      }),
      (date) => {
        const text = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
        const fields = parseExecuteAt(text);
        assert.ok(fields, text);
        const minute = Math.floor(date.getTime() / 60_000) * 60_000;
        assert.equal(localDateTimeToEpoch(fields, 'UTC'), minute);
      },
    ),
    { numRuns: 300 },
  );
});

test('MAINT-UNSPEC-WRONG-TYPES: other shapes and impossible dates are refused', () => {
  for (const text of [
    '2026-02-29T10:00',
    '2026-04-31T10:00',
    '2026-00-10T10:00',
    '2026-01-10T24:00',
    '2026-01-10T23:60',
    '2026-01-10 10:00',
    '2026-01-10T10:00:00',
    '2026-01-10T10:00Z',
    '26-01-10T10:00',
    ' 2026-01-10T10:00',
    '２０２６-01-10T10:00',
  ]) {
    assert.equal(parseExecuteAt(text), null, text);
  }
  assert.deepEqual(parseExecuteAt('2024-02-29T23:59'), [2024, 2, 29, 23, 59]);
});

test('MAINT-UNSPEC-UPDATE-SCHEDULING: zone times, daylight-saving gaps forward, repeated hours their second time', () => {
  const at = (text: string, zone: string) =>
    new Date(localDateTimeToEpoch(parseExecuteAt(text)!, zone)!).toISOString();
  assert.equal(at('2026-07-01T12:00', 'Europe/Berlin'), '2026-07-01T10:00:00.000Z');
  assert.equal(at('2026-01-01T12:00', 'Europe/Berlin'), '2026-01-01T11:00:00.000Z');
  assert.equal(at('2026-03-29T02:30', 'Europe/Berlin'), '2026-03-29T01:30:00.000Z', 'skipped: 03:30 CEST');
  assert.equal(at('2026-10-25T02:30', 'Europe/Berlin'), '2026-10-25T01:30:00.000Z', 'repeated: 02:30 CET');
  assert.equal(at('2026-01-01T12:00', 'America/New_York'), '2026-01-01T17:00:00.000Z');
  assert.equal(localDateTimeToEpoch([2026, 1, 1, 0, 0], 'No/Such_Zone'), null);
});
