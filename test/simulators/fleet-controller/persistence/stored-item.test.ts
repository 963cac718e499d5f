import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { AttentionItem } from '../../../../simulators/fleet-controller/model/types.ts';
import {
  fromStoredItem,
  toStoredItem,
} from '../../../../simulators/fleet-controller/persistence/stored-item.ts';
import { SEVERITIES } from '../../../../simulators/shared/wire/severity.ts';

const item: fc.Arbitrary<AttentionItem> = fc
  .record(
    {
      id: fc.integer({ min: 1 }),
      siteId: fc.string(),
      module: fc.string(),
      moduleId: fc.string(),
      subject: fc.string(),
      description: fc.string(),
      severity: fc.constantFrom(...SEVERITIES),
      firstAt: fc.integer({ min: 0 }),
      lastAt: fc.integer({ min: 0 }),
      occurrences: fc.nat(),
      suppressed: fc.nat(),
      acks: fc.uniqueArray(fc.tuple(fc.string(), fc.integer({ min: 0 })), { selector: ([p]) => p }),
    },
    {
      requiredKeys: [
        'id',
        'siteId',
        'module',
        'subject',
        'severity',
        'firstAt',
        'lastAt',
        'occurrences',
        'suppressed',
        'acks',
      ],
    },
  )
  .map(({ acks, ...rest }) => ({ ...rest, acks: new Map(acks.map(([p, at]) => [p, { at }])) }));

test('an item survives the stored form through JSON unchanged, acknowledgements included', () => {
  fc.assert(
    fc.property(item, (original) => {
      const back = fromStoredItem(JSON.parse(JSON.stringify(toStoredItem(original))));
      assert.deepEqual(back, original);
    }),
  );
});
