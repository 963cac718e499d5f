import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  validateProvider,
  validateProviders,
} from '../../../../simulators/pbx/resolver/provider-validation.ts';
import { normaliseProvider, TIMEOUT_DEFAULT_MS } from '../../../../simulators/pbx/state/provider-config.ts';

const BASE = {
  id: 'crm',
  type: 'HTTP',
  url: 'https://crm.example/q?t={tel}',
  parsers: [{ matcher: 'x', formatter: '\\0' }],
};

test('RESOLVER-TIMEOUT-DEFAULT RESOLVER-METHOD-DEFAULT RESOLVER-FORMAT-DEFAULT: a minimal provider takes the defaults', () => {
  const p = normaliseProvider(validateProvider(structuredClone(BASE)));
  assert.equal(p.timeoutMs, TIMEOUT_DEFAULT_MS);
  assert.equal(p.method, 'GET');
  assert.equal(p.numberFormat, '+xx');
  assert.equal(p.authentication, 'None');
  assert.equal(p.verifyCertificate, true);
  assert.deepEqual(p.fieldMappings, { firstName: '', lastName: '{0}', company: '' });
});

test('RESOLVER-TIMEOUT-RANGE: only integer timeouts from 100 to 1500 ms are accepted', () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.integer({ min: -5000, max: 5000 }), fc.double({ min: 0, max: 2000, noNaN: true })),
      (timeoutMs) => {
        const ok = Number.isInteger(timeoutMs) && timeoutMs >= 100 && timeoutMs <= 1500;
        if (ok) assert.equal(validateProvider({ ...BASE, timeoutMs }).timeoutMs, timeoutMs);
        else assert.throws(() => validateProvider({ ...BASE, timeoutMs }), /timeoutMs/);
        assert.ok(
          normaliseProvider({ ...validateProvider(structuredClone(BASE)), timeoutMs }).timeoutMs >= 100,
        );
      },
    ),
  );
});

test('invalid providers are refused with one line naming the field; ids must be unique', () => {
  assert.throws(() => validateProvider({ ...BASE, method: 'PUT' }), /provider\/method/);
  assert.throws(() => validateProvider({ ...BASE, extra: 1 }), /unknown field "extra"/);
  assert.throws(() => validateProvider({ ...BASE, url: 'ftp://x/y' }), /url/);
  assert.throws(() => validateProvider({ ...BASE, parsers: [{ matcher: '', formatter: 'x' }] }), /matcher/);
  assert.throws(() => validateProviders([BASE, BASE]), /id crm twice/);
  assert.equal(validateProviders([BASE, { ...BASE, id: 'b' }]).length, 2);
});
