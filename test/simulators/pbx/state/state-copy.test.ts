import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveScenario } from '../../../../simulators/pbx/load-scenario.ts';
import { copyState, freezeState, shareableState } from '../../../../simulators/pbx/state/state-copy.ts';
import { PbxStore } from '../../../../simulators/pbx/state/store.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';

const T0 = 1_767_225_600_000;

test('copyState copies every object and array and keeps equal values, an own __proto__ key included', () => {
  const value = JSON.parse('{"a":{"b":[1,{"c":"x"}],"n":null},"__proto__":{"evil":true},"s":"text"}');
  const copy = copyState(value);
  assert.deepEqual(copy, value);
  assert.notEqual(copy, value);
  assert.notEqual(copy.a, value.a);
  assert.notEqual(copy.a.b, value.a.b);
  assert.notEqual(copy.a.b[1], value.a.b[1]);
  assert.equal(Object.getPrototypeOf(copy), Object.prototype);
  assert.deepEqual(Object.keys(copy), ['a', '__proto__', 's']);
  assert.equal(({} as { evil?: boolean }).evil, undefined);
});

test('a shared frozen state serves as every store baseline; each store changes and resets its own copy', () => {
  const shared = shareableState(resolveScenario('healthy', T0));
  assert.ok(Object.isFrozen(shared.sip), 'frozen through');
  const one = new PbxStore(new VirtualClock({ start: T0 }), shared);
  const two = new PbxStore(new VirtualClock({ start: T0 }), shared);
  const phones = shared.sip.onlinePhones;
  one.update((s) => {
    s.sip.onlinePhones = phones + 5;
    s.backups.pop();
  });
  assert.equal(one.read().sip.onlinePhones, phones + 5);
  assert.equal(two.read().sip.onlinePhones, phones, 'the other store is untouched');
  assert.equal(shared.sip.onlinePhones, phones, 'the shared state is untouched');
  one.reset();
  assert.deepEqual(one.read(), shared);
  assert.notEqual(one.read(), shared, 'the live state is a copy, never the baseline');
});

test('a state that is not frozen is copied, so a caller changing it later changes no store', () => {
  const own = resolveScenario('healthy', T0);
  const store = new PbxStore(new VirtualClock({ start: T0 }), own);
  const phones = own.sip.onlinePhones;
  own.sip.onlinePhones = phones + 9;
  store.reset();
  assert.equal(store.read().sip.onlinePhones, phones);
  assert.equal(freezeState(own), own);
});
