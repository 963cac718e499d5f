import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  describeRecord,
  maskSecrets,
  redactCredential,
} from '../../../steps/resolver/support/recorded-evidence.ts';

test('credentials never reach evidence: the scheme stays, the secret is cut', () => {
  assert.equal(redactCredential('Basic YW5uYTpwdw=='), 'Basic <redacted 12 chars>');
  assert.equal(redactCredential('secret'), '<redacted 6 chars>');
  const text = describeRecord({
    seq: 1,
    at: 0,
    method: 'GET',
    target: '/lookup?tel=+491',
    path: '/lookup',
    query: 'tel=+491',
    httpVersion: '1.1',
    headers: [
      ['Authorization', 'Bearer tok-123'],
      ['accept', 'text/html'],
    ],
    body: Buffer.alloc(0),
    bodyTruncated: false,
    tlsProtocol: null,
    auth: 'ok',
    status: 200,
    responseContentEncoding: 'gzip',
  });
  assert.doesNotMatch(text, /tok-123/);
  assert.match(text, /Authorization: Bearer <redacted 7 chars>/);
  assert.match(text, /^#1 GET \/lookup\?tel=\+491 HTTP\/1\.1 → 200 \(gzip\) \(auth ok\)/);
});

test('secrets put into a URL are masked as written and percent-encoded', () => {
  assert.equal(
    maskSecrets('/x?pw=Geh eim&q=Geh%20eim&k=tok', ['Geh eim', 'tok', '']),
    '/x?pw=***&q=***&k=***',
  );
});
