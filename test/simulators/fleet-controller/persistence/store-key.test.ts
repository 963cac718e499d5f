import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { storeKey } from '../../../../simulators/fleet-controller/persistence/store-key.ts';

test('store keys are short, free of NUL and one-to-one on the parts', () => {
  fc.assert(
    fc.property(
      fc.array(fc.string({ unit: 'binary', maxLength: 800 }), { minLength: 1, maxLength: 3 }),
      fc.array(fc.string({ unit: 'binary', maxLength: 800 }), { minLength: 1, maxLength: 3 }),
      (a, b) => {
        const ka = storeKey(...a);
        assert.equal(ka.includes('\u0000'), false);
        assert.ok(Buffer.byteLength(ka, 'utf8') <= 500);
        assert.equal(storeKey(...a), ka);
        if (JSON.stringify(a) !== JSON.stringify(b)) assert.notEqual(storeKey(...b), ka);
      },
    ),
  );
});

test('parts are not confused by where they split', () => {
  assert.notEqual(storeKey('a', 'bc'), storeKey('ab', 'c'));
  assert.notEqual(storeKey('site\u0000x'), storeKey('site', 'x'));
});
