import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NO_RESULT_MESSAGE } from '../../../../simulators/pbx/resolver/query-provider.ts';
import { MIN_SEARCHED_SECRET_LENGTH, SecretMasker } from '../../../../simulators/pbx/resolver/secret-mask.ts';

// Issue 20, item 19: with the provider password `p` a message read
// `Query did not ***rovide any search results`, which gives the secret away.

test('a short secret is masked where it stands alone, never inside a word', () => {
  const masker = new SecretMasker(['p'], { username: 'anna', password: 'p' });
  assert.equal(masker.mask(NO_RESULT_MESSAGE), NO_RESULT_MESSAGE);
  assert.equal(masker.mask('GET /lookup?user=anna&pw=p&tel=1'), 'GET /lookup?user=anna&pw=***&tel=1');
  assert.equal(masker.mask('p'), '***');
  const basic = Buffer.from('anna:p').toString('base64');
  assert.equal(masker.mask(`Authorization: Basic ${basic}`), 'Authorization: Basic ***');
});

test('a secret of 8 characters or more is masked wherever it occurs, in every wire form', () => {
  assert.equal(MIN_SEARCHED_SECRET_LENGTH, 8);
  const masker = new SecretMasker(['s3cr3t+Key/x']);
  assert.equal(masker.mask('echo:s3cr3t+Key/xyz'), 'echo:***yz');
  assert.equal(masker.mask(`k=${encodeURIComponent('s3cr3t+Key/x')}`), 'k=***');
});

test('maskValue copies a value only when there is a secret to mask, and never changes the original', () => {
  const outcome = {
    url: 'https://x.test/?pw=s3cr3t+Key/x',
    hits: [{ result: 's3cr3t+Key/x' }],
    n: 1,
    z: null,
  };
  const masked = new SecretMasker(['s3cr3t+Key/x']).maskValue(outcome);
  assert.deepEqual(masked, { url: 'https://x.test/?pw=***', hits: [{ result: '***' }], n: 1, z: null });
  assert.equal(outcome.hits[0]?.result, 's3cr3t+Key/x');
  assert.equal(new SecretMasker(['', '']).maskValue(outcome), outcome);
});
