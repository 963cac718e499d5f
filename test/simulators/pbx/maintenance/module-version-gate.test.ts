import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  compareVersions,
  hasMaintenanceApi,
} from '../../../../simulators/pbx/maintenance/module-version-gate.ts';

test('versions compare numerically part by part', () => {
  assert.ok(compareVersions('26.10.1', '26.9.9') > 0);
  assert.ok(compareVersions('26.7.28', '26.7.3') > 0);
  assert.equal(compareVersions('26.7', '26.7.0'), 0);
  assert.ok(compareVersions('26.7.28-beta', '26.7.27') > 0);
  assert.equal(compareVersions('x', '0'), 0);
});

test('MAINT-MODULE-VERSION-GATE: the interface exists exactly after 26.7.28', () => {
  fc.assert(
    fc.property(fc.array(fc.nat({ max: 40 }), { minLength: 1, maxLength: 4 }), (parts) => {
      const version = parts.join('.');
      const [a = 0, b = 0, c = 0, d = 0] = parts;
      const after = a !== 26 ? a > 26 : b !== 7 ? b > 7 : c !== 28 ? c > 28 : d > 0;
      assert.equal(hasMaintenanceApi(version), after, version);
    }),
    { numRuns: 500 },
  );
});

test('compareVersions is antisymmetric', () => {
  const version = fc.array(fc.nat({ max: 99 }), { minLength: 1, maxLength: 4 }).map((p) => p.join('.'));
  fc.assert(
    fc.property(
      version,
      version,
      (a, b) => Math.sign(compareVersions(a, b)) === -Math.sign(compareVersions(b, a)),
    ),
  );
});
