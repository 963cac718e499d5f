import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTargetFile, TargetFileError } from '../../../src/core/target-file.ts';
import {
  monitoringOptionsOf,
  NEUTRAL_PACKAGE_FILE_NAME,
} from '../../../steps/support/monitoring-target-options.ts';

const PBX = {
  webUrl: 'http://192.0.2.10',
  monitoring: { host: '192.0.2.10', port: 6556 },
  xmlrpc: { path: '/xml-rpc', instanceName: 'Monitoring', authParam: 'auth', login: '123', password: 'x' },
  listedClientAddress: '192.0.2.20',
};

test('without options the neutral names and an unauthenticated package download apply', () => {
  for (const pbx of [undefined, PBX]) {
    const options = monitoringOptionsOf(pbx);
    assert.deepEqual(options, {
      monitoringPackage: { fileName: NEUTRAL_PACKAGE_FILE_NAME, signIn: 'none', headers: {} },
      originalNames: { engineUptime: 'engineUptime' },
    });
  }
});

test('a target file may name the original names, the package file, its sign-in and the module id', () => {
  const pbx = {
    ...PBX,
    monitoringModuleId: 'abc',
    monitoringPackage: { fileName: 'vendor_monitoring.mkp', signIn: 'authParam', headers: { Cookie: 's=1' } },
    originalNames: { engineUptime: 'vendorEngineUptime' },
  };
  assert.ok(parseTargetFile({ name: 'real', pbx }));
  assert.deepEqual(monitoringOptionsOf(pbx), {
    monitoringModuleId: 'abc',
    monitoringPackage: { fileName: 'vendor_monitoring.mkp', signIn: 'authParam', headers: { Cookie: 's=1' } },
    originalNames: { engineUptime: 'vendorEngineUptime' },
  });
});

test('the target schema refuses unknown original names, a path as file name and other sign-ins', () => {
  for (const extra of [
    { originalNames: { pbxRoot: 'x' } },
    { monitoringPackage: { fileName: 'a/b.mkp' } },
    { monitoringPackage: { signIn: 'basic' } },
    { monitoringPackage: { headers: { Cookie: 1 } } },
  ]) {
    assert.throws(() => parseTargetFile({ name: 'real', pbx: { ...PBX, ...extra } }), TargetFileError);
  }
});
