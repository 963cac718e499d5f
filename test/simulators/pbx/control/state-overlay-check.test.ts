import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkStateOverlay } from '../../../../simulators/pbx/control/state-overlay-check.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { UnknownFieldError } from '../../../../simulators/shared/deep-merge.ts';
import { ControlInputError } from '../../../../simulators/shared/http/control-input-error.ts';

const current = defaultState(1_700_000_000_000);

test('a partial overlay of known fields with the right types passes', () => {
  checkStateOverlay(current, {});
  checkStateOverlay(current, { sip: { onlinePhones: 0 }, licence: { iQueues: { skill: { used: 1 } } } });
  checkStateOverlay(current, {
    channels: { active: [] },
    update: { kind: 'major', latestVersion: '13.0.0.1' },
  });
  checkStateOverlay(current, {
    peers: [{ name: '300', ipaddr: '10.0.0.3', lastms: -1, monitored: true, online: false }],
  });
});

test('unknown fields throw UnknownFieldError with their path', () => {
  assert.throws(
    () => checkStateOverlay(current, { monitoring: { tile: false } }),
    (error: Error) => {
      return error instanceof UnknownFieldError && error.field === 'monitoring.tile';
    },
  );
  assert.throws(
    () =>
      checkStateOverlay(current, {
        peers: [{ name: 'a', ipaddr: 'b', lastms: 1, monitored: true, online: true, x: 1 }],
      }),
    (error: Error) => error instanceof UnknownFieldError && error.field === 'peers[0].x',
  );
});

test('wrong JSON types and non-objects are refused', () => {
  assert.throws(() => checkStateOverlay(current, 42), /the state overlay must be a JSON object, got 42/);
  assert.throws(() => checkStateOverlay(current, [1]), ControlInputError);
  assert.throws(() => checkStateOverlay(current, null), ControlInputError);
  assert.throws(
    () => checkStateOverlay(current, { sip: { onlinePhones: '0' } }),
    /sip\.onlinePhones must be a number, got "0"/,
  );
  assert.throws(() => checkStateOverlay(current, { sip: 'ok' }), /sip must be a JSON object/);
  assert.throws(
    () => checkStateOverlay(current, { channels: { active: 'SIP/1' } }),
    /channels\.active must be an array/,
  );
  assert.throws(
    () => checkStateOverlay(current, { channels: { active: [1] } }),
    /channels\.active\[0\] must be a string/,
  );
});

test('null is refused except where the state allows it', () => {
  checkStateOverlay(current, { raid: null });
  assert.throws(() => checkStateOverlay(current, { monitoring: null }), /monitoring cannot be null/);
  assert.throws(
    () => checkStateOverlay(current, { sip: { knownPhones: null } }),
    /sip\.knownPhones cannot be null/,
  );
});

test('array elements and objects that replace null must be complete', () => {
  assert.throws(
    () => checkStateOverlay(current, { peers: [{ name: '300' }] }),
    /peers\[0\]\.ipaddr is missing/,
  );
  assert.throws(() => checkStateOverlay(current, { raid: { status: 'degraded' } }), /raid\.level is missing/);
  checkStateOverlay(current, {
    raid: { level: 'raid1', status: 'degraded', devices: [{ name: 'sdb', state: 'faulty' }] },
  });
  const withRaid = { ...current, raid: { level: 'raid1', status: 'clean', devices: [] } };
  checkStateOverlay(withRaid, { raid: { status: 'degraded' } });
});

test('settings are checked as by their own operations', () => {
  assert.throws(
    () => checkStateOverlay(current, { monitoring: { port: 70_000 } }),
    /monitoring\.port must be an integer/,
  );
  assert.throws(() => checkStateOverlay(current, { monitoring: { cacheLifetimeMs: -5 } }), /cacheLifetimeMs/);
  assert.throws(
    () => checkStateOverlay(current, { monitoring: { host: '::1' } }),
    /monitoring\.host must be an IPv4/,
  );
  assert.throws(() => checkStateOverlay(current, { monitoring: { instanceName: 'a.b' } }), /instanceName/);
  assert.throws(() => checkStateOverlay(current, { monitoring: { defaultFormat: 'csv' } }), /defaultFormat/);
  assert.throws(
    () => checkStateOverlay(current, { monitoring: { hosts: [{ entry: '10.0.0.0/33', active: true }] } }),
    /monitoring\.hosts\[0\]\.entry/,
  );
  assert.throws(
    () => checkStateOverlay(current, { update: { kind: 'patch' } }),
    /update\.kind must be one of none, major, minor/,
  );
  assert.throws(
    () => checkStateOverlay(current, { system: { logStatus: { status: 3 } } }),
    /must be 0, 1 or 2/,
  );
  assert.throws(
    () => checkStateOverlay(current, { users: [{ login: 'x', passwordSha512: 'secret', admin: false }] }),
    (error: Error) => /128 lowercase hex/.test(error.message) && !error.message.includes('secret'),
  );
});
