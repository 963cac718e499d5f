import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as fc from 'fast-check';
import { jsonBodyOfSize } from '../../../../steps/maintenance/support/api-requests.ts';

test('MAINT-POST-BODY-UP-TO-1MIB: a sized body has exactly the bytes asked for, and is a JSON object from 2 bytes on', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2_097_152 }), (bytes) => {
      const body = jsonBodyOfSize(bytes);
      assert.equal(Buffer.byteLength(body), bytes);
      if (bytes >= 2) assert.equal(typeof JSON.parse(body), 'object');
    }),
    { numRuns: 200 },
  );
  for (const bytes of [0, 1, 2, 13, 14, 15, 1_048_576, 1_048_577])
    assert.equal(Buffer.byteLength(jsonBodyOfSize(bytes)), bytes);
});
