import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactAuth } from '../../../steps/support/world.ts';

test('cuts the secret of the credentials parameter, also when the colon is percent-encoded', () => {
  assert.equal(
    redactAuth('/xml-rpc?de.vendor.pbx.auth=123:abcdef', 'de.vendor.pbx.auth'),
    '/xml-rpc?de.vendor.pbx.auth=123:<redacted>',
  );
  assert.equal(
    redactAuth('/xml-rpc?de.vendor.pbx.auth=123%3Aabcdef', 'de.vendor.pbx.auth'),
    '/xml-rpc?de.vendor.pbx.auth=123:<redacted>',
  );
  assert.equal(redactAuth('/xml-rpc', 'de.vendor.pbx.auth'), '/xml-rpc');
});
