import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { test } from 'node:test';
import { preAuthEncoding } from '../../../src/certificate/pae.ts';

/*
 * DSSE protocol v1.0.2, "Test Vectors": the spec's own example, byte for byte, and its ECDSA
 * signature checked over the PAE this module builds (so a PAE that differed by one byte fails).
 */

test('the PAE of the DSSE spec example is "DSSEv1 29 http://example.com/HelloWorld 11 hello world"', () => {
  const pae = preAuthEncoding('http://example.com/HelloWorld', Buffer.from('hello world'));
  assert.equal(pae.toString('latin1'), 'DSSEv1 29 http://example.com/HelloWorld 11 hello world');
});

test("the DSSE spec example's signature verifies over this PAE with the spec's P-256 key", () => {
  const hex = (decimal: string) => BigInt(decimal).toString(16).padStart(64, '0');
  const b64url = (decimal: string) => Buffer.from(hex(decimal), 'hex').toString('base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: b64url('46950820868899156662930047687818585632848591499744589407958293238635476079160'),
      y: b64url('5640078356564379163099075877009565129882514886557779369047442380624545832820'),
    },
    format: 'jwk',
  });
  const sig = Buffer.from(
    'A3JqsQGtVsJ2O2xqrI5IcnXip5GToJ3F+FnZ+O88SjtR6rDAajabZKciJTfUiHqJPcIAriEGAHTVeCUjW2JIZA==',
    'base64',
  );
  const pae = preAuthEncoding('http://example.com/HelloWorld', Buffer.from('hello world'));
  const check = (bytes: Buffer) => verify('sha256', bytes, { key, dsaEncoding: 'ieee-p1363' }, sig);
  assert.equal(check(pae), true);
  assert.equal(check(Buffer.from('DSSEv1 29 http://example.com/HelloWorld 11 hello worle')), false);
});

test('LEN counts bytes, not characters, in decimal without leading zeros', () => {
  const pae = preAuthEncoding('application/vnd.ü+json', Buffer.from('Überwachung', 'utf8'));
  assert.equal(pae.toString('utf8'), 'DSSEv1 23 application/vnd.ü+json 12 Überwachung');
  assert.equal(preAuthEncoding('t', Buffer.alloc(0)).toString('latin1'), 'DSSEv1 1 t 0 ');
});
