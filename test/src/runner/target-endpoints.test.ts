import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TargetFile } from '../../../src/core/target-file.ts';
import { targetEndpoints } from '../../../src/runner/target-endpoints.ts';
import { sampleTarget } from './loopback-ports.ts';

test('lists every interface of the pbx and fleet sections once per address', () => {
  const target = sampleTarget({ web: 8080, monitoring: 6556, control: 9000 }) as unknown as TargetFile;
  target['fleet'] = {
    apiUrl: 'https://fleet.example:8443/x',
    mcpUrl: 'https://fleet.example:8443/mcp',
    controlUrl: 'http://[::1]:9100',
    pbxs: [{ siteId: 's1', controlUrl: 'http://127.0.0.1:9000' }],
    accounts: { partner: { email: 'a@b', password: 'p' } },
  };
  target['resolver'] = { endpointHost: '10.0.0.5' };
  assert.deepEqual(targetEndpoints(target), [
    { names: ['pbx.webUrl'], host: '127.0.0.1', port: 8080, mayBeClosed: false },
    { names: ['pbx.monitoring'], host: '127.0.0.1', port: 6556, mayBeClosed: true },
    {
      names: ['pbx.controlUrl', 'fleet.pbxs[0].controlUrl'],
      host: '127.0.0.1',
      port: 9000,
      mayBeClosed: false,
    },
    { names: ['fleet.apiUrl', 'fleet.mcpUrl'], host: 'fleet.example', port: 8443, mayBeClosed: false },
    { names: ['fleet.controlUrl'], host: '::1', port: 9100, mayBeClosed: false },
  ]);
});

test('URLs without a port use the scheme default; the data endpoint sharing an address is not exempt', () => {
  const target = sampleTarget({ web: 80, monitoring: 6556 }) as unknown as TargetFile;
  target.pbx.webUrl = 'https://pbx.example';
  target.pbx.monitoring = { host: 'pbx.example', port: 443 };
  assert.deepEqual(targetEndpoints(target), [
    { names: ['pbx.webUrl', 'pbx.monitoring'], host: 'pbx.example', port: 443, mayBeClosed: false },
  ]);
});
