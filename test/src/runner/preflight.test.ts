import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgePreflight, preflight } from '../../../src/runner/preflight.ts';
import type { TargetEndpoint } from '../../../src/runner/target-endpoints.ts';
import type { Probe } from '../../../src/runner/tcp-probe.ts';

const web: TargetEndpoint = { names: ['pbx.webUrl'], host: '10.0.0.1', port: 80, mayBeClosed: false };
const data: TargetEndpoint = { names: ['pbx.monitoring'], host: '10.0.0.1', port: 6556, mayBeClosed: true };
const control: TargetEndpoint = { names: ['pbx.controlUrl'], host: '::1', port: 9000, mayBeClosed: false };

/** A probe that answers only on the given ports and records what it was asked. */
function fakeProbe(open: number[], asked: string[] = []): Probe {
  return async (host, port, timeoutMs) => {
    asked.push(`${host}:${port}/${timeoutMs}`);
    return open.includes(port) ? { reachable: true } : { reachable: false, reason: 'ECONNREFUSED' };
  };
}

test('everything answering: the run goes on without warnings', async () => {
  const asked: string[] = [];
  assert.deepEqual(await preflight([web, data, control], fakeProbe([80, 6556, 9000], asked), 1234), {
    kind: 'proceed',
    warnings: [],
  });
  assert.deepEqual(asked, ['10.0.0.1:80/1234', '10.0.0.1:6556/1234', '::1:9000/1234']);
});

test('nothing answering is a harness error naming every endpoint', async () => {
  assert.deepEqual(await preflight([web, data, control], fakeProbe([])), {
    kind: 'unreachable',
    message:
      'target unreachable: pbx.webUrl 10.0.0.1:80 does not answer: ECONNREFUSED, pbx.monitoring 10.0.0.1:6556 does not answer: ECONNREFUSED, pbx.controlUrl [::1]:9000 does not answer: ECONNREFUSED',
  });
});

test('some answering: one warning per endpoint that does not, and the run goes on', async () => {
  assert.deepEqual(await preflight([web, data, control], fakeProbe([80])), {
    kind: 'proceed',
    warnings: [
      'warning: pbx.monitoring 10.0.0.1:6556 does not answer: ECONNREFUSED (a data endpoint may be closed on purpose)',
      'warning: pbx.controlUrl [::1]:9000 does not answer: ECONNREFUSED',
    ],
  });
});

test('a closed data endpoint next to an answering web server is only a warning', () => {
  const verdict = judgePreflight([
    { endpoint: web, outcome: { reachable: true } },
    { endpoint: data, outcome: { reachable: false, reason: 'no answer within 3 s' } },
  ]);
  assert.equal(verdict.kind, 'proceed');
  assert.equal(verdict.kind === 'proceed' && verdict.warnings.length, 1);
});

test('only the data endpoint answering still lets the run go on', () => {
  const verdict = judgePreflight([
    { endpoint: web, outcome: { reachable: false, reason: 'ETIMEDOUT' } },
    { endpoint: data, outcome: { reachable: true } },
  ]);
  assert.deepEqual(verdict, {
    kind: 'proceed',
    warnings: ['warning: pbx.webUrl 10.0.0.1:80 does not answer: ETIMEDOUT'],
  });
});
