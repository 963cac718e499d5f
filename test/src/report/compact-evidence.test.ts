import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import {
  COMPACT_HEAD_BYTES,
  type CompactEvidence,
  type EvidenceAttachment,
} from '../../../src/report/attachments.ts';
import { buildReport } from '../../../src/report/build-report.ts';
import { utf8Head } from '../../../src/report/compact-evidence.ts';
import type { CompatibilityReport, ScenarioResult, ScenarioStatus } from '../../../src/report/model.ts';
import { renderJson } from '../../../src/report/render-json.ts';
import { validateReport } from '../../../src/report/validate-report.ts';
import { testCatalog } from './test-catalog.ts';

const RESPONSE = `HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\n${'<<<pbx>>>\nkey value ü\n'.repeat(200)}`;
const EXCHANGES: EvidenceAttachment[] = [
  { exchange: 'HTTP GET /checkmk', request: 'GET /checkmk HTTP/1.1\r\n\r\n', response: RESPONSE },
  { exchange: 'TCP raw connect', response: 'x'.repeat(3000), details: { seed: 42 } },
];

function scenario(
  name: string,
  status: ScenarioStatus,
  tag: string,
): { tags: string[]; result: ScenarioResult } {
  return {
    tags: [tag],
    result: {
      name,
      uri: 'features/demo.feature',
      line: 1,
      status,
      durationMs: 5,
      evidence: structuredClone(EXCHANGES),
      ...(status === 'failed' ? { failure: { step: 'Then it answers', message: 'no' } } : {}),
      ...(status === 'skipped' ? { notVerifiableReason: 'no control plane' } : {}),
    },
  };
}

function report(evidence?: 'compact' | 'full'): CompatibilityReport {
  const catalog = testCatalog();
  return buildReport({
    run: {
      command: 'verify',
      target: 'embedded',
      targetFile: null,
      startedAt: '2026-01-01T10:00:00.000Z',
      finishedAt: '2026-01-01T10:00:05.000Z',
    },
    catalog,
    results: {
      scenarios: [
        scenario('passes', 'passed', '@MON-A'),
        scenario('fails', 'failed', '@MON-B'),
        scenario('not verifiable', 'skipped', '@MON-C'),
        scenario('expected to fail', 'failed', '@MON-D'),
      ],
      catalog,
      ...(evidence ? { evidence } : {}),
    },
    expectedFailures: { path: 'x.yaml', file: null, entries: [{ clause: 'MON-D', reason: 'known' }] },
  });
}

const evidenceOf = (r: CompatibilityReport, id: string) =>
  r.interfaces.flatMap((face) => face.clauses).find((clause) => clause.id === id)?.scenarios[0]?.evidence;

test('a pass keeps compact evidence: exchange line, sizes, SHA-256 of the full form, the first bytes (issue 29, item 17)', () => {
  const built = report();
  assert.deepEqual(validateReport(built), []);
  const [first, second] = (evidenceOf(built, 'MON-A') ?? []) as CompactEvidence[];
  const full = EXCHANGES[0]!;
  assert.deepEqual(first, {
    exchange: 'HTTP GET /checkmk',
    form: 'compact',
    sha256: createHash('sha256')
      .update(JSON.stringify({ exchange: full.exchange, request: full.request, response: full.response }))
      .digest('hex'),
    requestBytes: Buffer.byteLength(full.request ?? ''),
    responseBytes: Buffer.byteLength(RESPONSE),
    head: utf8Head(RESPONSE, COMPACT_HEAD_BYTES),
  });
  assert.ok(Buffer.byteLength(first?.head ?? '') <= COMPACT_HEAD_BYTES);
  assert.match(first?.head ?? '', /^HTTP\/1\.1 200 OK\r\n/);
  assert.equal(second?.head, undefined, 'the head only on the first exchange');
  assert.equal(second?.detailsBytes, JSON.stringify({ seed: 42 }).length);
  // Failures, not-verifiable results and expected failures keep everything.
  for (const id of ['MON-B', 'MON-C', 'MON-D']) assert.deepEqual(evidenceOf(built, id), EXCHANGES, id);
});

test('--evidence full keeps the full form for passes too, and the JSON is much smaller compact', () => {
  const full = report('full');
  assert.deepEqual(validateReport(full), []);
  assert.deepEqual(evidenceOf(full, 'MON-A'), EXCHANGES);
  assert.ok(renderJson(report()).length < renderJson(full).length - 6_000);
});

test('utf8Head cuts between characters, never inside one', () => {
  assert.equal(utf8Head('aü', 2), 'a');
  assert.equal(utf8Head('aü', 3), 'aü');
  assert.equal(utf8Head('😀😀', 5), '😀');
  assert.equal(utf8Head('abc', 0), '');
});
