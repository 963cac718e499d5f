import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  checkCacheLifetime,
  checkDefaultFormat,
  checkInstanceName,
  checkListenHost,
  checkMonitoringHosts,
  checkPort,
} from '../../../../simulators/pbx/control/monitoring-input.ts';
import { ControlInputError } from '../../../../simulators/shared/http/control-input-error.ts';

const octet = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(octet, octet, octet, octet).map((parts) => parts.join('.'));

test('MON-AUTH-HOSTS-CIDR: every IPv4 address and CIDR range with prefix 0..32 is accepted as given', () => {
  fc.assert(
    fc.property(ipv4, fc.option(fc.integer({ min: 0, max: 32 })), fc.boolean(), (address, prefix, active) => {
      const entry = prefix === null ? address : `${address}/${prefix}`;
      assert.deepEqual(checkMonitoringHosts([{ entry, active }]), [{ entry, active }]);
    }),
  );
});

test('MON-AUTH-HOSTS-CIDR: a prefix beyond 32 is refused with the entry in the message', () => {
  fc.assert(
    fc.property(ipv4, fc.integer({ min: 33, max: 999 }), (address, prefix) => {
      const entry = `${address}/${prefix}`;
      assert.throws(
        () => checkMonitoringHosts([{ entry, active: true }]),
        (error: Error) => {
          return (
            error instanceof ControlInputError &&
            error.message.includes(entry) &&
            !error.message.includes('\n')
          );
        },
      );
    }),
  );
});

test('IPv6 entries, host names and malformed ranges are refused', () => {
  for (const entry of [
    '::1',
    '2001:db8::/32',
    'monitor.example',
    '10.0.0',
    '10.0.0.256',
    '10.0.0.0/',
    '10.0.0.0/-1',
    '',
  ]) {
    assert.throws(() => checkMonitoringHosts([{ entry, active: true }]), ControlInputError, entry);
  }
  assert.throws(() => checkMonitoringHosts([{ entry: 7, active: true }]), /hosts\[0\]\.entry/);
});

test('active defaults to true and other fields are refused', () => {
  assert.deepEqual(checkMonitoringHosts([{ entry: '192.0.2.0/24' }]), [
    { entry: '192.0.2.0/24', active: true },
  ]);
  assert.throws(
    () => checkMonitoringHosts([{ entry: '192.0.2.1', enabled: true }]),
    /unknown field "enabled"/,
  );
  assert.throws(
    () => checkMonitoringHosts([{ entry: '192.0.2.1', active: 'yes' }]),
    /hosts\[0\]\.active must be true or false/,
  );
  assert.throws(() => checkMonitoringHosts({ entry: '192.0.2.1' }), /hosts must be an array/);
  assert.throws(() => checkMonitoringHosts(new Array(1025).fill({ entry: '192.0.2.1' })), /at most 1024/);
});

test('ports, cache lifetimes and formats are checked against their ranges', () => {
  assert.equal(checkPort(0), 0);
  assert.equal(checkPort(65_535), 65_535);
  for (const bad of [-1, 65_536, 1.5, '6556', null, Number.NaN])
    assert.throws(() => checkPort(bad), ControlInputError);
  assert.equal(checkCacheLifetime(0), 0);
  assert.throws(() => checkCacheLifetime(-1), /ms must be an integer from 0 to 86400000, got -1/);
  assert.equal(checkDefaultFormat('json'), 'json');
  assert.throws(() => checkDefaultFormat('yaml'), /format must be one of checkmk, xml, json/);
});

test('XMLRPC-INSTANCE-RENAME: instance names are plain tokens of A-Z, a-z, 0-9 and _', () => {
  assert.equal(checkInstanceName('Monitoring_2'), 'Monitoring_2');
  for (const bad of ['', 'Moni.toring', 'Moni toring', 'Mönitoring', 'x'.repeat(65), 42]) {
    assert.throws(() => checkInstanceName(bad), ControlInputError, String(bad));
  }
});

test('MON-IPV4-ONLY: the listen host must be an IPv4 address', () => {
  assert.equal(checkListenHost('127.0.0.2'), '127.0.0.2');
  for (const bad of ['::1', 'localhost', '127.0.0.1/32'])
    assert.throws(() => checkListenHost(bad), ControlInputError);
});
