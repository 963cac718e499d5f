import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { PbxStore } from '../../../../simulators/pbx/state/store.ts';
import { xmlrpcAuthValue } from '../../../../simulators/pbx/xmlrpc/auth.ts';
import type {
  MonitoringData,
  MonitoringMethod,
} from '../../../../simulators/pbx/xmlrpc/monitoring-methods.ts';
import type { XmlRpcValue } from '../../../../simulators/pbx/xmlrpc/xmlrpc-codec.ts';
import {
  dispatchXmlRpcCall,
  type XmlRpcOutcome,
} from '../../../../simulators/pbx/xmlrpc/xmlrpc-dispatcher.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';

const AUTH = `de.vendor.pbx.auth=${encodeURIComponent(xmlrpcAuthValue('123', 'Pass123'))}`;
const DATA: MonitoringData = { agentText: () => '<<<monitor_agent>>>\n', localDocument: () => '<local/>' };

function fixture() {
  const clock = new VirtualClock({ start: 0 });
  const store = new PbxStore(clock, defaultState(0));
  const calls: { command: string; login: string | null }[] = [];
  const spy = (command: string, requiresAuth: boolean): MonitoringMethod => ({
    command,
    requiresAuth,
    run(_input, context) {
      calls.push({ command, login: context.login });
      return { ran: command };
    },
  });
  const methods = [spy('GetMonitoringData', true), spy('isActiveDirectoryEnabled', false)];
  const dispatch = (methodName: string, params: XmlRpcValue[] = [{}], query = ''): XmlRpcOutcome =>
    dispatchXmlRpcCall({ store, data: DATA, methods }, { methodName, params }, new URLSearchParams(query));
  return { store, calls, dispatch, dispose: () => clock.dispose() };
}

function faultCode(outcome: XmlRpcOutcome): number | undefined {
  return outcome.kind === 'fault' ? outcome.fault.faultCode : undefined;
}

test('dispatch runs an authenticated method with the login of the credentials', () => {
  const f = fixture();
  assert.deepEqual(f.dispatch('Monitoring.GetMonitoringData', [{}], AUTH), {
    kind: 'result',
    value: { ran: 'GetMonitoringData' },
  });
  assert.deepEqual(f.calls, [{ command: 'GetMonitoringData', login: '123' }]);
  f.dispose();
});

test('XMLRPC-AUTH-BEFORE-HANDLER: failed credentials never reach the handler and are logged without the secret', () => {
  const f = fixture();
  const wrong = `de.vendor.pbx.auth=${encodeURIComponent(xmlrpcAuthValue('123', 'wrong'))}`;
  assert.equal(faultCode(f.dispatch('Monitoring.GetMonitoringData', [{}], wrong)), -32002);
  assert.equal(faultCode(f.dispatch('Monitoring.GetMonitoringData', [{}], '')), -32001);
  assert.deepEqual(f.calls, []);
  const log = f.store.moduleLog().filter((e) => e.source === 'xmlrpc');
  assert.equal(log.length, 2);
  assert.match(log[0]!.message, /^authentication failed for login "123"$/);
  assert.match(log[1]!.message, /^authentication failed: no credentials/);
  const secret = xmlrpcAuthValue('123', 'wrong').split(':')[1]!;
  assert.ok(!JSON.stringify(log).includes(secret));
  f.dispose();
});

test('dispatch runs a method without credentials when it needs none', () => {
  const f = fixture();
  assert.equal(f.dispatch('Monitoring.isActiveDirectoryEnabled').kind, 'result');
  assert.deepEqual(f.calls, [{ command: 'isActiveDirectoryEnabled', login: null }]);
  f.dispose();
});

test('dispatch reads the instance name and the credentials parameter name on every call', () => {
  const f = fixture();
  f.store.update((s) => {
    s.monitoring.instanceName = 'Mon2';
    s.monitoring.authParam = 'auth';
  });
  assert.equal(faultCode(f.dispatch('Monitoring.GetMonitoringData', [{}], AUTH)), -32601);
  assert.equal(faultCode(f.dispatch('Mon2.GetMonitoringData', [{}], AUTH)), -32001);
  const custom = `auth=${encodeURIComponent(xmlrpcAuthValue('123', 'Pass123'))}`;
  assert.equal(f.dispatch('Mon2.GetMonitoringData', [{}], custom).kind, 'result');
  f.dispose();
});

test('dispatch answers an unknown method before looking at credentials', () => {
  const f = fixture();
  assert.equal(faultCode(f.dispatch('Monitoring.getMonitoringData')), -32601);
  assert.equal(f.store.moduleLog().length, 0);
  f.dispose();
});

test('XMLRPC-UNSPEC-PARAMS: no params is an empty struct, a non-struct first param is -32602', () => {
  const f = fixture();
  assert.equal(f.dispatch('Monitoring.isActiveDirectoryEnabled', []).kind, 'result');
  for (const bad of ['x', 1, true, [], null] as XmlRpcValue[]) {
    assert.equal(faultCode(f.dispatch('Monitoring.isActiveDirectoryEnabled', [bad])), -32602, String(bad));
  }
  assert.equal(f.dispatch('Monitoring.isActiveDirectoryEnabled', [{}, 'extra']).kind, 'result');
  f.dispose();
});

test('XMLRPC-ERR-UNKNOWN-METHOD: any name other than the instance commands is method not found', () => {
  const f = fixture();
  fc.assert(
    fc.property(fc.string({ maxLength: 60 }), (name) => {
      fc.pre(name !== 'Monitoring.GetMonitoringData' && name !== 'Monitoring.isActiveDirectoryEnabled');
      const outcome = f.dispatch(name, [{}], AUTH);
      assert.equal(faultCode(outcome), -32601);
    }),
  );
  assert.deepEqual(f.calls, []);
  f.dispose();
});
