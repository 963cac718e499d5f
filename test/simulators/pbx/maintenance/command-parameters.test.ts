import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { COMMAND_NAMES } from '../../../../simulators/pbx/maintenance/command-names.ts';
import {
  COMMAND_PARAMETERS,
  commandParameters,
  PARAMETER_NAMES,
  parseCommandBody,
} from '../../../../simulators/pbx/maintenance/command-parameters.ts';

const utf8 = (text: string) => Buffer.from(text, 'utf8');

test('MAINT-POST-EMPTY-BODY, MAINT-UNSPEC-NON-OBJECT-BODY: bodies are read leniently and never throw', () => {
  assert.deepEqual(parseCommandBody(new Uint8Array(0)), { kind: 'empty', fields: null });
  assert.deepEqual(parseCommandBody(utf8(' \r\n')), { kind: 'empty', fields: null });
  assert.deepEqual(parseCommandBody(utf8('{"a":1}')), { kind: 'object', fields: { a: 1 } });
  for (const text of ['[]', '"x"', '1', 'true', 'null'])
    assert.equal(parseCommandBody(utf8(text)).kind, 'non-object');
  for (const text of ['{', '{a:1}', "{'a':1}", 'undefined'])
    assert.equal(parseCommandBody(utf8(text)).kind, 'invalid-json');
  assert.equal(parseCommandBody(new Uint8Array([0x7b, 0xc3, 0x28, 0x7d])).kind, 'invalid-json');
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      assert.ok(['empty', 'object', 'invalid-json', 'non-object'].includes(parseCommandBody(bytes).kind));
    }),
  );
  assert.equal(parseCommandBody(utf8(`${'['.repeat(200_000)}${']'.repeat(200_000)}`)).kind, 'non-object');
});

test('MAINT-TRIGGER-SET-TO-API: the executor sees only the command’s own fields and trigger API', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...COMMAND_NAMES),
      fc.dictionary(fc.constantFrom(...PARAMETER_NAMES, 'x', 'y'), fc.jsonValue()),
      (command, fields) => {
        const parameters = commandParameters(command, fields);
        assert.equal(parameters.trigger, 'API');
        for (const [name, value] of Object.entries(parameters)) {
          if (name === 'trigger') continue;
          assert.ok((COMMAND_PARAMETERS[command] as readonly string[]).includes(name), name);
          assert.deepEqual(value, fields[name]);
          assert.notEqual(value, null);
        }
      },
    ),
  );
  assert.deepEqual(commandParameters('HangupAllCalls', null), { trigger: 'API' });
  assert.deepEqual(commandParameters('DeleteLogs', JSON.parse('{"__proto__":{"scope":"x"}}')), {
    trigger: 'API',
  });
});
