import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isEpochMs, timeMembers } from '../../../../steps/fleet/support/epoch-ms.ts';

test('FLEET-TIMES-MS-UTC: integer milliseconds of this century pass; seconds, fractions and strings do not', () => {
  assert.ok(isEpochMs(Date.UTC(2026, 6, 28, 12)));
  assert.ok(!isEpochMs(Math.floor(Date.UTC(2026, 6, 28) / 1000)), 'seconds');
  assert.ok(!isEpochMs(Date.UTC(2026, 6, 28) * 1000), 'microseconds');
  assert.ok(!isEpochMs(Date.UTC(2026, 6, 28) + 0.5), 'fraction');
  assert.ok(!isEpochMs(String(Date.UTC(2026, 6, 28))), 'string');
  assert.ok(!isEpochMs(null));
});

test('timeMembers finds every time member with its path, however deep', () => {
  const found = timeMembers([
    { id: 1, attentionEvents: [{ firstAt: 1, lastAt: 2 }] },
    { createdAt: 3, acknowledgedAt: 4 },
  ]);
  assert.deepEqual(found, [
    { path: '$[0].attentionEvents[0].firstAt', value: 1 },
    { path: '$[0].attentionEvents[0].lastAt', value: 2 },
    { path: '$[1].createdAt', value: 3 },
    { path: '$[1].acknowledgedAt', value: 4 },
  ]);
});
