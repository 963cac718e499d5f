import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { PbxStore } from '../../../../simulators/pbx/state/store.ts';
import {
  getMonitoringData,
  getMonitoringDataXml,
  isActiveDirectoryEnabled,
  type MethodContext,
  type MonitoringData,
  readUseLocalChecks,
} from '../../../../simulators/pbx/xmlrpc/monitoring-methods.ts';
import type { XmlRpcStruct } from '../../../../simulators/pbx/xmlrpc/xmlrpc-codec.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';

function fixture(data: MonitoringData = { agentText: () => 'AGENT TEXT', localDocument: () => 'LOCAL DOC' }) {
  const clock = new VirtualClock({ start: 0 });
  const store = new PbxStore(clock, defaultState(0));
  const context = (methodName: string): MethodContext => ({ store, data, methodName, login: '123' });
  return { store, context, dispose: () => clock.dispose() };
}

test('readUseLocalChecks takes true, "true" and "1" as true and anything else as false', () => {
  for (const v of [true, 'true', '1'])
    assert.equal(readUseLocalChecks({ useLocalChecks: v }), true, String(v));
  for (const v of [false, 'false', '0', 'TRUE', 'yes', 1, 0, null, {}]) {
    assert.equal(readUseLocalChecks({ useLocalChecks: v }), false, String(v));
  }
  assert.equal(readUseLocalChecks({}), false);
});

test('GetMonitoringData returns the agent text as data whatever useLocalChecks says', () => {
  const f = fixture();
  const inputs: XmlRpcStruct[] = [
    {},
    { useLocalChecks: true },
    { useLocalChecks: 'true' },
    { useLocalChecks: false },
  ];
  for (const input of inputs) {
    assert.deepEqual(getMonitoringData.run(input, f.context('Monitoring.GetMonitoringData')), {
      data: 'AGENT TEXT',
    });
  }
  f.dispose();
});

test('GetMonitoringDataXML returns the local document as data', () => {
  const f = fixture();
  assert.deepEqual(getMonitoringDataXml.run({}, f.context('Monitoring.GetMonitoringDataXML')), {
    data: 'LOCAL DOC',
  });
  f.dispose();
});

test('data queries return empty payloads with the tile off or without licence, without collecting', () => {
  let collected = 0;
  const f = fixture({
    agentText: () => String(++collected),
    localDocument: () => String(++collected),
  });
  for (const change of [
    (s: ReturnType<typeof defaultState>) => {
      s.monitoring.tileOn = false;
    },
    (s: ReturnType<typeof defaultState>) => {
      s.licence.valid = false;
    },
  ]) {
    f.store.reset();
    f.store.update(change);
    assert.deepEqual(getMonitoringData.run({}, f.context('M.GetMonitoringData')), { data: '' });
    assert.deepEqual(getMonitoringDataXml.run({}, f.context('M.GetMonitoringDataXML')), {
      data: '<local></local>',
    });
  }
  assert.equal(collected, 0);
  f.dispose();
});

test('XMLRPC-ERR-COLLECTION: the collection-error fault yields an empty struct and an error log entry', () => {
  const f = fixture();
  f.store.injectFault('collection-error');
  assert.deepEqual(getMonitoringData.run({}, f.context('Monitoring.GetMonitoringData')), {});
  assert.deepEqual(getMonitoringDataXml.run({}, f.context('Monitoring.GetMonitoringDataXML')), {});
  const errors = f.store.moduleLog().filter((e) => e.level === 'error' && e.source === 'xmlrpc');
  assert.equal(errors.length, 2);
  assert.match(
    errors[0]!.message,
    /Monitoring\.GetMonitoringData: collecting monitoring data failed: .*collection-error/,
  );
  f.dispose();
});

test('XMLRPC-ERR-COLLECTION: an exception from the renderer yields an empty struct with its message logged', () => {
  const f = fixture({
    agentText: () => {
      throw new Error('renderer exploded');
    },
    localDocument: () => 'x',
  });
  assert.deepEqual(getMonitoringData.run({}, f.context('Monitoring.GetMonitoringData')), {});
  assert.ok(f.store.moduleLog().some((e) => e.level === 'error' && /renderer exploded/.test(e.message)));
  f.dispose();
});

test('isActiveDirectoryEnabled answers the directory flag as a string, also with tile off and no licence', () => {
  const f = fixture();
  const ctx = f.context('Monitoring.isActiveDirectoryEnabled');
  assert.deepEqual(isActiveDirectoryEnabled.run({}, ctx), { activeDirectoryEnabled: 'false' });
  f.store.update((s) => {
    s.directory.activeDirectoryEnabled = true;
    s.monitoring.tileOn = false;
    s.licence.valid = false;
  });
  f.store.injectFault('collection-error');
  assert.deepEqual(isActiveDirectoryEnabled.run({}, ctx), { activeDirectoryEnabled: 'true' });
  f.dispose();
});
