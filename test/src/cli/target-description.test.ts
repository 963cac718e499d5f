import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeSimulatorTarget, type SimulatorFacts } from '../../../src/cli/target-description.ts';
import { targetSchemaErrors } from './target-schema.ts';

const FACTS: SimulatorFacts = {
  webUrl: 'http://127.0.0.1:4000',
  controlUrl: 'http://127.0.0.1:4001',
  monitoring: { host: '127.0.0.1', port: 6556 },
  instanceName: 'Monitoring',
  authParam: 'de.vendor.pbx.auth',
  login: '123',
  password: 'Pass123',
  maintenanceBasePath: '/fp/7ce0d8df/api/v1',
};

test('a PBX-only target has the maintenance section and no fleet section, and fits the target schema', () => {
  const target = describeSimulatorTarget(FACTS);
  assert.deepEqual(target.maintenance, { basePath: '/fp/7ce0d8df/api/v1' });
  assert.equal('fleet' in target, false);
  assert.deepEqual(targetSchemaErrors(target), []);
});

test('a fleet section is copied, not shared, and fits the target schema', () => {
  const fleet = {
    apiUrl: 'http://127.0.0.1:5000',
    mcpUrl: 'http://127.0.0.1:5000/mcp',
    controlUrl: 'http://127.0.0.1:5001',
    accounts: { partner: { email: 'a@example.invalid', password: 'pw' } },
    pbxs: [{ siteId: 'site-a', controlUrl: 'http://127.0.0.1:4001' }],
  };
  const target = describeSimulatorTarget({ ...FACTS, fleet });
  assert.deepEqual(target.fleet, fleet);
  fleet.pbxs.push({ siteId: 'site-b', controlUrl: 'http://127.0.0.1:4002' });
  assert.equal(target.fleet?.pbxs?.length, 1);
  assert.deepEqual(targetSchemaErrors(target), []);
  assert.notDeepEqual(
    targetSchemaErrors({ ...target, fleet: { apiUrl: fleet.apiUrl } }),
    [],
    'accounts are required',
  );
});
