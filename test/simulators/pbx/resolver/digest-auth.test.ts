import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseDigestAuthorization } from '../../../../simulators/customer-endpoint/index.ts';
import { parseChallenges } from '../../../../simulators/pbx/resolver/auth-challenge.ts';
import {
  type DigestChallenge,
  digestAuthorization,
  digestResponse,
  selectDigestChallenge,
} from '../../../../simulators/pbx/resolver/digest-auth.ts';

/** RFC 7616 section 3.9.1. */
const RFC = {
  username: 'Mufasa',
  password: 'Circle of Life',
  method: 'GET',
  uri: '/dir/index.html',
  cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
  nc: 1,
};
const RFC_HEADERS = [
  'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"',
  'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=MD5, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"',
];

function rfcChallenge(algorithm: string): DigestChallenge {
  const selection = selectDigestChallenge(
    parseChallenges([RFC_HEADERS[algorithm === 'MD5' ? 1 : 0] as string]),
  );
  assert.ok(selection.ok);
  return selection.challenge;
}

test('RESOLVER-AUTH-DIGEST-VALID: the RFC 7616 example gives its MD5 and SHA-256 responses', () => {
  assert.equal(
    digestResponse({ ...RFC, challenge: rfcChallenge('MD5') }),
    '8ca523f5e9506fed4657c9700eebdbec',
  );
  assert.equal(
    digestResponse({ ...RFC, challenge: rfcChallenge('SHA-256') }),
    '753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1',
  );
});

test('the Authorization header of the RFC example carries every member in RFC form', () => {
  const header = digestAuthorization({ ...RFC, challenge: rfcChallenge('SHA-256') });
  const params = parseDigestAuthorization(header);
  assert.deepEqual(params, {
    username: 'Mufasa',
    realm: 'http-auth@example.org',
    uri: '/dir/index.html',
    algorithm: 'SHA-256',
    nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
    nc: '00000001',
    cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
    qop: 'auth',
    response: '753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1',
    opaque: 'FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS',
  });
});

test('of several challenges the strongest usable one is chosen; auth-int alone and unknown algorithms are refused', () => {
  const both = selectDigestChallenge(
    parseChallenges([`${RFC_HEADERS[1]}, ${RFC_HEADERS[0]}`, 'Basic realm="x"']),
  );
  assert.ok(both.ok);
  assert.equal(both.challenge.algorithm, 'SHA-256');
  const intOnly = selectDigestChallenge(parseChallenges(['Digest realm="r", nonce="n", qop="auth-int"']));
  assert.deepEqual(intOnly, { ok: false, reason: 'qop auth-int is not supported (only auth)' });
  assert.equal(
    selectDigestChallenge(parseChallenges(['Digest realm="r", nonce="n", algorithm=SHA-1'])).ok,
    false,
  );
  assert.equal(selectDigestChallenge(parseChallenges(['Basic realm="r"'])).ok, false);
});

test('an RFC 2069 challenge without qop is answered without nc and cnonce', () => {
  const selection = selectDigestChallenge(parseChallenges(['Digest realm="r", nonce="abc"']));
  assert.ok(selection.ok);
  const header = digestAuthorization({ ...RFC, challenge: selection.challenge });
  assert.doesNotMatch(header, /nc=|cnonce=|qop=/);
  assert.match(header, /algorithm=MD5/);
});

test('a user name with quotes is escaped; a non-ASCII one is sent as username*', () => {
  const challenge = rfcChallenge('MD5');
  assert.match(digestAuthorization({ ...RFC, username: 'a"b', challenge }), /username="a\\"b"/);
  assert.match(digestAuthorization({ ...RFC, username: 'Jäger', challenge }), /username\*=UTF-8''J%C3%A4ger/);
});

test('challenge parsing never throws on arbitrary header text', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ maxLength: 80 }), { maxLength: 3 }), (headers) => {
      const challenges = parseChallenges(headers);
      assert.ok(challenges.length <= 16);
    }),
  );
});
