/** The JSON snapshot's fields (json-snapshot.feature); fields count wherever they sit (MON-UNSPEC-JSON-PATHS). */
import assert from 'node:assert/strict';
import { type DataTable, Then } from '@cucumber/cucumber';
import { latestJson } from '../support/latest-snapshots.ts';
import { findJsonFields } from '../support/snapshot-values.ts';
import type { PbxWorld } from '../support/world.ts';

function list(world: PbxWorld, name: string): unknown[] {
  const values = findJsonFields(latestJson(world), name).filter(Array.isArray);
  assert.ok(values.length > 0, `the JSON snapshot has no list "${name}"`);
  return values[0] as unknown[];
}

function elements(world: PbxWorld, name: string): Record<string, unknown>[] {
  const items = list(world, name);
  assert.ok(items.length > 0, `the JSON list "${name}" is empty`);
  return items.map((item, i) => {
    assert.ok(
      item !== null && typeof item === 'object' && !Array.isArray(item),
      `element ${i} of "${name}" is no object`,
    );
    return item as Record<string, unknown>;
  });
}

Then('the body is a hierarchical JSON object', function (this: PbxWorld) {
  assert.ok(this.reply, 'no reply');
  const value: unknown = JSON.parse(this.reply.body.toString('utf8'));
  assert.ok(
    value !== null && typeof value === 'object' && !Array.isArray(value),
    'the body is not a JSON object',
  );
  const nested = Object.values(value).some((v) => v !== null && typeof v === 'object');
  assert.ok(nested, 'the JSON object holds no nested object or list');
});

Then('the JSON fields {names} are the number -1', function (this: PbxWorld, fields: string[]) {
  const json = latestJson(this);
  for (const field of fields) {
    const values = findJsonFields(json, field);
    assert.ok(values.length > 0, `the JSON snapshot has no field "${field}"`);
    for (const value of values)
      assert.strictEqual(value, -1, `"${field}" is ${JSON.stringify(value)}, not -1`);
  }
});

Then('the JSON snapshot has the fields', function (this: PbxWorld, table: DataTable) {
  const json = latestJson(this);
  const missing = table
    .raw()
    .flat()
    .filter((f) => f !== '' && findJsonFields(json, f).length === 0);
  assert.deepEqual(missing, [], 'the JSON snapshot lacks fields');
});

Then(
  'every element of the JSON list {string} has the members {names}',
  function (this: PbxWorld, name: string, members: string[]) {
    elements(this, name).forEach((element, i) => {
      const missing = members.filter((m) => !(m in element));
      assert.deepEqual(missing, [], `element ${i} of "${name}" lacks members`);
    });
  },
);

Then(
  '{string} is a string in every element of the JSON list {string}',
  function (this: PbxWorld, member: string, name: string) {
    elements(this, name).forEach((element, i) => {
      assert.equal(
        typeof element[member],
        'string',
        `"${member}" of element ${i} of "${name}" is ${JSON.stringify(element[member])}`,
      );
    });
  },
);

Then(
  '{string} is a list in every element of the JSON list {string}',
  function (this: PbxWorld, member: string, name: string) {
    elements(this, name).forEach((element, i) => {
      assert.ok(Array.isArray(element[member]), `"${member}" of element ${i} of "${name}" is not a list`);
    });
  },
);

const TYPE_CHECKS: Record<string, (value: unknown) => boolean> = {
  integer: (v) => typeof v === 'number' && Number.isInteger(v),
  string: (v) => typeof v === 'string',
  boolean: (v) => typeof v === 'boolean',
};

Then(
  'every element of the JSON list {string} has the typed members',
  function (this: PbxWorld, name: string, table: DataTable) {
    const rows = table.hashes() as { member: string; type: string }[];
    elements(this, name).forEach((element, i) => {
      for (const { member, type } of rows) {
        const check = TYPE_CHECKS[type];
        assert.ok(check, `unknown type ${type}`);
        assert.ok(
          check(element[member]),
          `"${member}" of element ${i} of "${name}" is ${JSON.stringify(element[member])}, not ${type}`,
        );
      }
    });
  },
);

Then('the JSON field {string} is a list of strings', function (this: PbxWorld, name: string) {
  list(this, name).forEach((item, i) => {
    assert.equal(typeof item, 'string', `element ${i} of "${name}" is not a string`);
  });
});

Then('the JSON fields {names} are lists', function (this: PbxWorld, fields: string[]) {
  for (const field of fields) list(this, field);
});
