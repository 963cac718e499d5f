import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as fc from 'fast-check';
import { redactAuthorization } from '../../../../steps/maintenance/support/redact-authorization.ts';

test('keeps the scheme and hides every credential', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('Bearer', 'Basic', 'Token'),
      fc.stringMatching(/^[A-Za-z0-9._~+/=-]{4,64}$/),
      (scheme, secret) => {
        const shown = redactAuthorization(`${scheme} ${secret}`);
        assert.ok(shown.startsWith(`${scheme} <redacted`));
        assert.ok(!shown.includes(secret));
      },
    ),
  );
});

test('shows a bare scheme word and hides a bare value that may be a secret', () => {
  assert.equal(redactAuthorization(undefined), '(none)');
  assert.equal(redactAuthorization('Bearer'), 'Bearer');
  assert.equal(redactAuthorization('Pass123'), '<redacted, 7 chars>');
});
