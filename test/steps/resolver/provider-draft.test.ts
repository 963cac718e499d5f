import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applySetting, buildProvider, defaultDraft } from '../../../steps/resolver/support/provider-draft.ts';

test('a default draft leaves method, format, timeout and certificate switch to the PBX', () => {
  const provider = buildProvider(defaultDraft('main', 'main'), 'http://127.0.0.1:4000');
  assert.equal(provider.url, 'http://127.0.0.1:4000/lookup?tel={tel}');
  assert.equal(provider.type, 'HTTP');
  for (const key of ['method', 'numberFormat', 'timeoutMs', 'verifyCertificate', 'authentication'])
    assert.equal(key in provider, false, `${key} is set`);
  assert.deepEqual(provider.fieldMappings, { firstName: '', lastName: '{0}', company: '' });
});

test('provider table rows set fields, prefixes, switches and the URL', () => {
  const draft = defaultDraft('p', 'main');
  applySetting(draft, 'method', 'POST');
  applySetting(draft, 'user name', 'anna');
  applySetting(draft, 'password', 'pw');
  applySetting(draft, 'security token', 'tok');
  applySetting(draft, 'field apikey', 'k');
  applySetting(draft, 'prefix of apikey', 'v2.');
  applySetting(draft, 'cache', 'on');
  applySetting(draft, 'verify certificate', 'off');
  applySetting(draft, 'timeout', '150');
  applySetting(draft, 'URL', 'https://example.invalid/x?t={tel}');
  const provider = buildProvider(draft, 'http://127.0.0.1:4000');
  assert.equal(provider.url, 'https://example.invalid/x?t={tel}');
  assert.deepEqual(provider.fields, {
    username: { value: 'anna' },
    password: { value: 'pw' },
    securityToken: { value: 'tok' },
    apikey: { value: 'k', prefix: 'v2.' },
  });
  assert.equal(provider.method, 'POST');
  assert.equal(provider.cache, true);
  assert.equal(provider.verifyCertificate, false);
  assert.equal(provider.timeoutMs, 150);
  assert.throws(() => applySetting(draft, 'colour', 'red'), /unknown provider setting/);
  assert.throws(() => applySetting(draft, 'cache', 'maybe'), /on or off/);
});
