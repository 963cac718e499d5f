import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CustomerEndpointOptions } from '../../../../simulators/customer-endpoint/index.ts';
import type { ResolverLimits } from '../../../../simulators/pbx/resolver/resolver-limits.ts';
import { endpoint, logText, provider, resolveWith } from './resolver-fixture.ts';

/**
 * Hostile endpoints (issue 5, section 5): each ends as `failed` with one clear log line, within
 * the documented limits (docs/resolver.md, "Limits"), lowered here so the tests stay short.
 * Memory is bounded by the byte limits, which each test proves by the reason it fails with.
 */
const LIMITS: Partial<ResolverLimits> = {
  totalMs: 1500,
  maxRawBodyBytes: 256 * 1024,
  maxDecodedBodyBytes: 256 * 1024,
};

async function hostile(t: Parameters<typeof endpoint>[0], mode: CustomerEndpointOptions) {
  const ep = await endpoint(t, mode);
  const result = await resolveWith(provider(`${ep.urls.base}/x?t={tel}`), undefined, { limits: LIMITS });
  assert.equal(result.state, 'failed', logText(result));
  const errors = result.log.filter((e) => e.level === 'error');
  assert.ok(errors.length >= 1, 'a clear error line');
  return { ep, result, reason: result.attempts[0]?.reason ?? '' };
}

test('an endless body ends at the raw body limit', async (t) => {
  const { reason } = await hostile(t, { config: { fallback: { hostile: 'endless-body' } } });
  assert.match(reason, /body exceeds 262144 bytes/);
});

test('a slow drip ends at the overall time limit', async (t) => {
  const { reason } = await hostile(t, { config: { fallback: { hostile: 'slow-drip', dripIntervalMs: 10 } } });
  assert.match(reason, /overall limit of 1500 ms|within 1500 ms/);
});

test('an endpoint that never answers ends at the overall time limit', async (t) => {
  const { reason } = await hostile(t, { config: { fallback: { hostile: 'never-answer' } } });
  assert.match(reason, /1500 ms/);
});

test('RESOLVER-UNSPEC-REDIRECTS: a redirect loop is detected at its first repetition', async (t) => {
  const { ep, reason } = await hostile(t, { config: { fallback: { hostile: 'redirect-loop' } } });
  assert.match(reason, /redirect loop/);
  assert.equal(ep.control.requests().length, 1);
});

test('RESOLVER-UNSPEC-REDIRECTS: an endless redirect chain stops after 5 redirects', async (t) => {
  const { ep, reason } = await hostile(t, { config: { fallback: { hostile: 'redirect-chain' } } });
  assert.match(reason, /more than 5 redirects/);
  assert.equal(ep.control.requests().length, 6);
});

test('a compression bomb stops at the decoded body limit', async (t) => {
  const { reason } = await hostile(t, { config: { fallback: { hostile: 'compression-bomb' } } });
  assert.match(reason, /decompresses to more than 262144 bytes/);
});

test('a huge response header ends at the header limit', async (t) => {
  const { reason } = await hostile(t, { config: { fallback: { hostile: 'huge-header' } } });
  assert.match(reason, /response head exceeds 32768 bytes/);
});

test('a close in mid-body fails with a clear line', async (t) => {
  const { reason } = await hostile(t, { config: { fallback: { hostile: 'close-mid-body' } } });
  assert.match(reason, /closed in mid-body after \d+ bytes|closed before the answer was complete/);
});

test('a connection refused fails with a clear line', async (t) => {
  const ep = await endpoint(t);
  const url = `${ep.urls.base}/x?t={tel}`;
  await ep.close();
  const result = await resolveWith(provider(url), undefined, { limits: LIMITS });
  assert.equal(result.state, 'failed');
  assert.match(result.attempts[0]?.reason ?? '', /ECONNREFUSED/);
});

test('invalid UTF-8 is replaced, still evaluated, and reported', async (t) => {
  const body = Buffer.concat([
    Buffer.from('{"name":"Ann'),
    Buffer.from([0xff, 0xfe, 0xc3]),
    Buffer.from('a"}'),
  ]);
  const ep = await endpoint(t, { config: { fallback: { body } } });
  const result = await resolveWith(provider(`${ep.urls.base}/x?t={tel}`), undefined, { limits: LIMITS });
  assert.equal(result.state, 'resolved');
  assert.equal(result.name?.displayName, 'Ann\uFFFD\uFFFD\uFFFDa');
  assert.match(logText(result), /not valid utf-8; invalid bytes were replaced by U\+FFFD/);
});

test('a catastrophic matcher on a hostile body is stopped at the matcher limit', async (t) => {
  const ep = await endpoint(t, { config: { fallback: { body: `${'a'.repeat(5000)}!` } } });
  const result = await resolveWith(
    provider(`${ep.urls.base}/x?t={tel}`, { parsers: [{ matcher: '(a|a)+$', formatter: '\\1' }] }),
    undefined,
    {
      limits: { ...LIMITS, matcherMs: 100 },
    },
  );
  assert.equal(result.state, 'no-result');
  assert.match(logText(result), /ran longer than 100 ms and was stopped/);
});
