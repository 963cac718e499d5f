import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasOwnRun, lineMentions, valuesWithoutOwnLine } from '../../../steps/support/line-matching.ts';

test('lineMentions finds a text only between separators or line ends', () => {
  assert.ok(lineMentions('by_app: pbx-core 20', 'by_app'));
  assert.ok(lineMentions('module: Monitoring', 'Monitoring'));
  assert.ok(lineMentions('instance: CRM Lookup', 'CRM Lookup'));
  assert.equal(lineMentions('instance: Monitoring Süd', 'Monitor'), false);
  assert.equal(lineMentions('module: WebResolver', 'Resolver'), false);
  assert.equal(lineMentions('anything', ''), false);
});

test('valuesWithoutOwnLine gives fields with equal values a line each', () => {
  const lines = ['heap_used: 100', 'heap_max: 200', 'max_memory: 300'];
  const wanted = (values: number[]) => values.map((v, i) => ({ label: `f${i}`, values: [v] }));
  assert.deepEqual(valuesWithoutOwnLine(lines, wanted([100, 200, 300])), []);
  // heap_max and max_memory equal, but one line dropped: one field is left without a line.
  const dropped = ['heap_used: 100', 'heap_max: 200'];
  assert.deepEqual(valuesWithoutOwnLine(dropped, wanted([100, 200, 200])), ['f2']);
  assert.deepEqual(valuesWithoutOwnLine(['a: 200', 'b: 200'], wanted([200, 200])), []);
});

test('valuesWithoutOwnLine finds an assignment where the greedy choice would block another value', () => {
  const lines = ['x: 7 8', 'y: 7'];
  const wanted = [
    { label: 'seven', values: [7] },
    { label: 'eight', values: [8] },
  ];
  assert.deepEqual(valuesWithoutOwnLine(lines, wanted), []);
});

test('valuesWithoutOwnLine takes only the lines the filter lets through, all values on one line', () => {
  const lines = ['by_app: pbx-core 20', 'by_db: pbx 30', 'by_app: web 6', 'total: 20'];
  const entry = (name: string, count: number) => ({ label: name, values: [name, count] });
  const byApp = (line: string) => lineMentions(line, 'by_app');
  assert.deepEqual(valuesWithoutOwnLine(lines, [entry('pbx-core', 20), entry('web', 6)], byApp), []);
  assert.deepEqual(valuesWithoutOwnLine(lines, [entry('pbx', 30)], byApp), ['pbx']);
  assert.deepEqual(valuesWithoutOwnLine(lines, [entry('web', 20)], byApp), ['web']);
});

const MODULES = [
  'module: Monitoring',
  'version: 26.9.2',
  'vendor: Simulated Systems GmbH',
  'instance: Monitoring',
  'module: Management',
  'version: 26.9.2',
  'vendor: Simulated Systems GmbH',
  'instance: Management',
];

test('hasOwnRun finds a module whose values are on its own consecutive lines', () => {
  const values = ['Monitoring', '26.9.2', 'Simulated Systems GmbH', 'Monitoring'];
  assert.ok(hasOwnRun(MODULES, values, ['Management']));
  assert.ok(hasOwnRun(MODULES, ['Management', '26.9.2', 'Simulated Systems GmbH'], ['Monitoring']));
});

test('hasOwnRun does not borrow a dropped value from the neighbouring module', () => {
  const withoutVersion = MODULES.filter((_, i) => i !== 1);
  const values = ['Monitoring', '26.9.2', 'Simulated Systems GmbH', 'Monitoring'];
  assert.equal(hasOwnRun(withoutVersion, values, ['Management']), false);
  const oneLine = [
    'Monitoring Simulated-Systems Monitoring',
    'Management 26.9.2 Simulated-Systems Management',
  ];
  assert.equal(hasOwnRun(oneLine, ['Monitoring', '26.9.2'], ['Management']), false);
  assert.ok(hasOwnRun(oneLine, ['Management', '26.9.2'], ['Monitoring']));
});

test('hasOwnRun lets an instance named like another module stay inside its run', () => {
  const lines = [
    'module: Resolver',
    'version: 1.0',
    'instance: Monitoring Süd',
    'module: Monitoring',
    'version: 2.0',
  ];
  assert.ok(hasOwnRun(lines, ['Resolver', '1.0', 'Monitoring Süd'], ['Monitoring']));
  assert.ok(hasOwnRun(lines, ['Monitoring', '2.0'], ['Resolver']));
});
