import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTargetFile, TargetFileError } from '../../../src/core/target-file.ts';

const EXAMPLE = {
  name: 'simulator',
  pbx: {
    webUrl: 'http://127.0.0.1:8080',
    monitoring: { host: '127.0.0.1', port: 6556 },
    xmlrpc: {
      path: '/xml-rpc',
      instanceName: 'Monitoring',
      authParam: 'de.vendor.pbx.auth',
      login: '123',
      password: 'Pass123',
    },
    controlUrl: 'http://127.0.0.1:8081',
    listedClientAddress: '127.0.0.1',
    unlistedClientAddress: '127.0.0.2',
  },
};

test('accepts the documented target shape', () => {
  assert.equal(parseTargetFile(structuredClone(EXAMPLE)).pbx.monitoring.port, 6556);
});

/** The least a fleet section names (schemas/target.schema.json, `$defs/fleet`). */
const FLEET = {
  apiUrl: 'https://fleet.example.net',
  accounts: { partner: { email: 'a@example.net', password: 'x' } },
};

test('accepts a target without control plane and unlisted address, and sections of later interfaces', () => {
  const { controlUrl: _c, unlistedClientAddress: _u, ...pbx } = EXAMPLE.pbx;
  assert.ok(parseTargetFile({ name: 'real-pbx', pbx, maintenance: { token: 'x' }, fleet: FLEET }));
});

test('refuses a target that lacks a required field or has a misspelt one', () => {
  const { monitoring: _m, ...withoutMonitoring } = EXAMPLE.pbx;
  assert.throws(() => parseTargetFile({ name: 'x', pbx: withoutMonitoring }), TargetFileError);
  assert.throws(
    () => parseTargetFile({ ...EXAMPLE, pbx: { ...EXAMPLE.pbx, controlURL: 'http://x' } }),
    TargetFileError,
  );
  assert.throws(
    () => parseTargetFile({ ...EXAMPLE, pbx: { ...EXAMPLE.pbx, listedClientAddress: '::1' } }),
    /listedClientAddress/,
  );
});

test('reads edge client addresses and refuses ones that are not IPv4 or named twice', () => {
  const edgeClientAddresses = ['127.100.141.75', '127.100.141.76', '127.100.141.77'];
  assert.deepEqual(
    parseTargetFile({ ...EXAMPLE, pbx: { ...EXAMPLE.pbx, edgeClientAddresses } }).pbx.edgeClientAddresses,
    edgeClientAddresses,
  );
  for (const bad of [['::1'], ['127.0.0.1', '127.0.0.1'], '127.0.0.1']) {
    assert.throws(
      () => parseTargetFile({ ...EXAMPLE, pbx: { ...EXAMPLE.pbx, edgeClientAddresses: bad } }),
      /edgeClientAddresses/,
      JSON.stringify(bad),
    );
  }
});
