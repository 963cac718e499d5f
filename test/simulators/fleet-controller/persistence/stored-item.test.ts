import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { AttentionItem } from '../../../../simulators/fleet-controller/model/types.ts';
import { DataFormatError } from '../../../../simulators/fleet-controller/persistence/data-format-error.ts';
import {
  encodeItemCounts,
  fromStoredItem,
  ITEM_COUNTS_BYTES,
  itemCounts,
  STORED_SEVERITIES,
  splitItemV1,
  toItemDetails,
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
      firstAt: fc.maxSafeNat(),
      lastAt: fc.maxSafeNat(),
      occurrences: fc.maxSafeNat(),
      suppressed: fc.maxSafeNat(),
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

test('an item survives its two stored parts (details through JSON, counts as bytes) unchanged, acknowledgements included', () => {
  fc.assert(
    fc.property(item, (original) => {
      const counts = itemCounts(original);
      assert.equal(counts.length, ITEM_COUNTS_BYTES);
      const back = fromStoredItem(
        JSON.parse(JSON.stringify(toItemDetails(original))),
        Uint8Array.from(counts),
      );
      assert.deepEqual(back, original);
    }),
  );
});

test('the details hold no per-merge field, and the counts no text', () => {
  fc.assert(
    fc.property(item, (original) => {
      const details = toItemDetails(original);
      for (const field of ['severity', 'firstAt', 'lastAt', 'occurrences', 'suppressed'])
        assert.equal(field in details, false, field);
    }),
  );
});

test('every severity has its own stored code', () => {
  assert.deepEqual([...STORED_SEVERITIES].sort(), [...SEVERITIES].sort());
  assert.equal(new Set(STORED_SEVERITIES).size, STORED_SEVERITIES.length);
});

test('a missing, short or damaged counts record is a data format error naming the item', () => {
  const original = { ...toItemDetails(fc.sample(item, { numRuns: 1, seed: 7 })[0]!), id: 42 };
  const good = itemCounts(fc.sample(item, { numRuns: 1, seed: 7 })[0]!);
  const damaged = Buffer.from(good);
  damaged.writeDoubleLE(0.5, 16);
  const unknownSeverity = Buffer.from(good);
  unknownSeverity.writeDoubleLE(STORED_SEVERITIES.length, 32);
  for (const counts of [undefined, good.subarray(0, 39), damaged, unknownSeverity])
    assert.throws(
      () => fromStoredItem(original, counts),
      (error: unknown) => {
        assert.ok(error instanceof DataFormatError);
        assert.match(error.message, /item 42/);
        return true;
      },
    );
});

test('a record of store format 1 (the whole item in one JSON record) splits into the same item', () => {
  fc.assert(
    fc.property(item, (original) => {
      const v1 = JSON.parse(
        JSON.stringify({
          ...original,
          acks: [...original.acks].map(([partnerId, a]) => ({ partnerId, at: a.at })),
        }),
      );
      const { details, counts } = splitItemV1(v1);
      assert.deepEqual(fromStoredItem(JSON.parse(JSON.stringify(details)), counts), original);
    }),
  );
  assert.throws(
    () =>
      splitItemV1({
        ...JSON.parse(
          '{"id":3,"siteId":"s","module":"m","subject":"x","firstAt":1,"lastAt":1,"occurrences":1,"suppressed":0,"acks":[]}',
        ),
        severity: 'LOUD',
      }),
    DataFormatError,
  );
});

test('the counts are five little-endian float64 per item, each value its own 40 bytes, in the order of the items', () => {
  fc.assert(
    fc.property(fc.array(item, { maxLength: 8 }), (items) => {
      const values = encodeItemCounts(items);
      assert.equal(values.length, items.length);
      values.forEach((value, i) => {
        const it = items[i]!;
        const expected = Buffer.alloc(ITEM_COUNTS_BYTES);
        [
          it.firstAt,
          it.lastAt,
          it.occurrences,
          it.suppressed,
          STORED_SEVERITIES.indexOf(it.severity),
        ].forEach((n, k) => {
          expected.writeDoubleLE(n, k * 8);
        });
        assert.deepEqual(Buffer.from(value), expected);
      });
    }),
  );
});
