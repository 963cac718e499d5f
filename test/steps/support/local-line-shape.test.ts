import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkLocalLine } from '../../../steps/support/local-line-shape.ts';

test('MON-LOCAL-LINE-SHAPE: accepts status, quoted name, metrics and text', () => {
  const checked = checkLocalLine(
    '1 "Licensed/Used full users" used=143;;;0;200|licensed=200 143 of 200 used',
  );
  assert.ok(checked.ok);
  assert.equal(checked.line.name, 'Licensed/Used full users');
  assert.equal(checked.line.status, 1);
});

test('MON-LOCAL-LINE-SHAPE: accepts `-` for no metrics and a missing text', () => {
  assert.ok(checkLocalLine('0 "PBX Hardware ID" - Hardware ID X').ok);
  assert.ok(checkLocalLine('0 "PBX Hardware ID" -').ok);
});

test('MON-LOCAL-LINE-SHAPE: refuses status 3 and P, which the spec does not allow', () => {
  assert.equal(checkLocalLine('3 "PBX update" - unknown').ok, false);
  assert.equal(checkLocalLine('P "PBX update" x=1;2;3 text').ok, false);
});

test('MON-LOCAL-LINE-SHAPE: refuses bare and single-quoted names and bad metrics', () => {
  assert.equal(checkLocalLine('0 PBX_update - text').ok, false);
  assert.equal(checkLocalLine("0 'PBX update' - text").ok, false);
  assert.equal(checkLocalLine('0 "PBX update" a/b=1 text').ok, false);
  assert.equal(checkLocalLine('0 "PBX update" x=abc text').ok, false);
  assert.equal(checkLocalLine('0 "PBX "update"" - text').ok, false);
});
