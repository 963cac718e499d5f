import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pbxOfPool } from '../../../simulators/fleet/pool-target.ts';

const target = {
  name: 'simulator',
  pbx: {
    webUrl: 'http://127.64.0.1:8080',
    controlUrl: 'http://127.0.0.1:4000/pbx/site-hamburg',
    monitoring: { host: '127.64.0.1', port: 6556 },
    xmlrpc: { login: '123' },
  },
  fleet: {
    apiUrl: 'http://127.0.0.1:4001',
    pool: {
      count: 1000,
      addresses: '127.64.0.1-127.64.3.232',
      ports: { data: 6556, web: 8080 },
      namedSites: ['site-hamburg', 'site-kiel', 'site-bremen', 'site-muenchen'],
      sitePattern: 'site-demo-{n}',
      controlUrlPattern: 'http://127.0.0.1:4000/pbx/{siteId}',
    },
  },
};

test('a pooled target file points at PBX n: its address, the same ports, its site control plane; the rest stays', () => {
  const moved = pbxOfPool(target, 500);
  assert.deepEqual(moved.pbx, {
    webUrl: 'http://127.64.1.244:8080',
    controlUrl: 'http://127.0.0.1:4000/pbx/site-demo-500',
    monitoring: { host: '127.64.1.244', port: 6556 },
    xmlrpc: { login: '123' },
  });
  assert.equal(moved.fleet, target.fleet);
  assert.equal(pbxOfPool(target, 2).pbx.controlUrl, 'http://127.0.0.1:4000/pbx/site-kiel');
  assert.equal(pbxOfPool(target, 1000).pbx.monitoring.host, '127.64.3.232');
  assert.deepEqual(pbxOfPool(target, 1).pbx, target.pbx, 'PBX 1 is the one the file names');
  assert.throws(() => pbxOfPool(target, 1001), /PBX 1001 is not in the fleet: expected 1 to 1000/);
  assert.throws(() => pbxOfPool(target, 0), /expected 1 to 1000/);
  assert.throws(() => pbxOfPool({ pbx: target.pbx }, 2), /has no fleet\.pool/);
});
