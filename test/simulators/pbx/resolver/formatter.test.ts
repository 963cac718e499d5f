import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { applyFormatter } from '../../../../simulators/pbx/resolver/formatter.ts';

test('\\0 is the whole match, \\1 to \\9 the groups, a missing group is empty, $ is literal', () => {
  const groups = ['Anna Müller', 'Anna', 'Müller', null];
  assert.equal(applyFormatter('\\2, \\1', groups), 'Müller, Anna');
  assert.equal(applyFormatter('[\\0]', groups), '[Anna Müller]');
  assert.equal(applyFormatter('\\3\\9x', groups), 'x');
  assert.equal(applyFormatter('$1 $& \\\\1 \\x', groups), '$1 $& \\1 \\x');
  assert.equal(applyFormatter('\\10', groups), 'Anna0');
});

test('RESOLVER-EVAL-GROUPS: back-references of generated matches give their groups', () => {
  const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '$', '&', '1', 'ü'), maxLength: 8 });
  fc.assert(
    fc.property(fc.array(text, { minLength: 1, maxLength: 9 }), (parts) => {
      const body = `<${parts.join('|')}>`;
      const re = new RegExp(`<${parts.map(() => '([^|>]*)').join('\\|')}>`, 'sm');
      const m = re.exec(body);
      assert.ok(m);
      const groups = Array.from(m, (g) => g ?? null);
      const formatter = parts.map((_, i) => `\\${i + 1}`).join('/');
      assert.equal(applyFormatter(formatter, groups), parts.join('/'));
      assert.equal(applyFormatter('\\0', groups), body);
    }),
  );
});
