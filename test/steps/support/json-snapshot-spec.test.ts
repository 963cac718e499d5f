import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listScenarios, renderFormat } from '../../../simulators/pbx/index.ts';
import { JSON_SNAPSHOT_FIELDS, jsonSnapshotDeviations } from '../../../steps/support/json-snapshot-spec.ts';
import { scenarioSnapshot } from '../../simulators/pbx/snapshot/render/snapshot-of.ts';

function simulatorJson(scenario = 'healthy'): Record<string, unknown> {
  return JSON.parse(
    renderFormat(scenarioSnapshot(scenario), 'json', { renderError: false, jsonError: false }).toString(
      'utf8',
    ),
  ) as Record<string, unknown>;
}

/** The same fields, nested in groups the way another implementation might lay them out. */
function regrouped(flat: Record<string, unknown>): Record<string, unknown> {
  const groups: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of Object.entries(flat)) {
    const group = key.match(/^[a-z]+/)?.[0] ?? 'other';
    groups[group] ??= {};
    groups[group]![key] = value;
  }
  return { meta: { format: 1 }, snapshot: groups };
}

test('the JSON snapshot of every shipped simulator scenario meets the spec-level check', () => {
  for (const { name } of listScenarios())
    assert.deepEqual(jsonSnapshotDeviations(simulatorJson(name)), [], name);
});

test('the spec-level check accepts another nesting and extra fields (MON-UNSPEC-JSON-PATHS, -FIELDS)', () => {
  const nested = regrouped({ ...simulatorJson(), vendorExtension: { x: 1 } });
  assert.deepEqual(jsonSnapshotDeviations(nested), []);
});

test('the spec-level check names a missing listed field, wherever the others sit', () => {
  for (const field of ['accountsTotal', 'dbConnByDatabase', 'rtpMedianMos']) {
    const { [field]: _dropped, ...rest } = simulatorJson();
    assert.deepEqual(jsonSnapshotDeviations(regrouped(rest)), [`fields missing: ${field}`], field);
  }
  assert.equal(JSON_SNAPSHOT_FIELDS.length, new Set(JSON_SNAPSHOT_FIELDS).size);
});

test('the spec-level check refuses a non-object, a flat object and the types the spec states', () => {
  assert.deepEqual(jsonSnapshotDeviations([1]), ['the body is not a JSON object']);
  assert.match(jsonSnapshotDeviations({ pbxVersion: '1' }).join('\n'), /not hierarchical/);
  const json = simulatorJson();
  const peers = (json['peers'] as Record<string, unknown>[]).map((p) => ({ ...p, lastms: 12 }));
  assert.match(jsonSnapshotDeviations({ ...json, peers }).join('\n'), /"lastms" of element 0 of "peers"/);
  const entries = (json['sipProviderEntries'] as Record<string, unknown>[]).map((e) => ({
    ...e,
    registered: 'true',
  }));
  assert.match(
    jsonSnapshotDeviations({ ...json, sipProviderEntries: entries }).join('\n'),
    /"registered" of element 0 of "sipProviderEntries"/,
  );
  assert.match(
    jsonSnapshotDeviations({ ...json, channelsActive: 'x' }).join('\n'),
    /"channelsActive" is not a list/,
  );
  const modules = (json['modules'] as Record<string, unknown>[]).map(({ instances: _i, ...m }) => m);
  assert.match(jsonSnapshotDeviations({ ...json, modules }).join('\n'), /lacks "instances"/);
});
