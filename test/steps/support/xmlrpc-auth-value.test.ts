import assert from 'node:assert/strict';
import { test } from 'node:test';
import { xmlRpcAuthValue } from '../../../src/clients/xmlrpc-auth-value.ts';

test('XMLRPC-AUTH-PARAM: computes the published test vector for 123 / Pass123', () => {
  assert.equal(
    xmlRpcAuthValue('123', 'Pass123'),
    '123:81d8af78c98b153485f7d48e3437eb735ba37f0f013c5e06ba74536776c5945694e7cde71e2effbed7b5a1d1a4566fadcd847ef4098c234052fdfd288e8b6ced',
  );
});

test('XMLRPC-AUTH-PARAM: computes the test vector for admin / secret', () => {
  assert.equal(
    xmlRpcAuthValue('admin', 'secret'),
    'admin:5b49f112384aedb874cd6777bd396629b61ebed8c8ded2839e537df22d2a7288f6b42054e5f70d310fb587b74a7e52dc440eb74f820a0b47265cc3a67a1b38ee',
  );
});
