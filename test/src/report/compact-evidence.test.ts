import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import {
  COMPACT_HEAD_BYTES,
  type CompactEvidence,
  type EvidenceAttachment,
} from '../../../src/report/attachments.ts';
import { buildReport } from '../../../src/report/build-report.ts';
import { readEvidenceHeads, utf8Head } from '../../../src/report/compact-evidence.ts';
import { mergeReports } from '../../../src/report/merge-reports.ts';
import type { CompatibilityReport, ScenarioResult, ScenarioStatus } from '../../../src/report/model.ts';
import { renderHtml } from '../../../src/report/render-html.ts';
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
  return build(
    [
      scenario('passes', 'passed', '@MON-A'),
      scenario('fails', 'failed', '@MON-B'),
      scenario('not verifiable', 'skipped', '@MON-C'),
      scenario('expected to fail', 'failed', '@MON-D'),
    ],
    evidence,
  );
}

function build(
  scenarios: { tags: string[]; result: ScenarioResult }[],
  evidence?: 'compact' | 'full',
): CompatibilityReport {
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
    results: { scenarios, catalog, ...(evidence ? { evidence } : {}) },
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
    headSha256: createHash('sha256').update(utf8Head(RESPONSE, COMPACT_HEAD_BYTES)).digest('hex'),
  });
  // The head is the first 2 KiB, kept once in the report and named by its SHA-256.
  assert.equal(COMPACT_HEAD_BYTES, 2048);
  assert.equal(built.evidenceHeads?.encoding, 'gzip+base64');
  assert.equal(built.evidenceHeads?.count, 1);
  const head = readEvidenceHeads(built)[first?.headSha256 ?? ''] ?? '';
  assert.equal(head, utf8Head(RESPONSE, COMPACT_HEAD_BYTES));
  assert.ok(
    Buffer.byteLength(head) <= COMPACT_HEAD_BYTES && Buffer.byteLength(head) > COMPACT_HEAD_BYTES - 4,
  );
  assert.match(head, /^HTTP\/1\.1 200 OK\r\n/);
  assert.deepEqual(Object.keys(readEvidenceHeads(built)), [first?.headSha256]);
  assert.equal(second?.headSha256, undefined, 'the head only on the first exchange');
  assert.equal(second?.detailsBytes, JSON.stringify({ seed: 42 }).length);
  // Failures, not-verifiable results and expected failures keep everything.
  for (const id of ['MON-B', 'MON-C', 'MON-D']) assert.deepEqual(evidenceOf(built, id), EXCHANGES, id);
});

test('--evidence full keeps the full form for passes too, and the JSON is much smaller compact', () => {
  const full = report('full');
  assert.deepEqual(validateReport(full), []);
  assert.deepEqual(evidenceOf(full, 'MON-A'), EXCHANGES);
  assert.equal(full.evidenceHeads, undefined, 'no heads without compact evidence');
  assert.ok(renderJson(report()).length < renderJson(full).length - 4_000);
});

test('utf8Head cuts between characters, never inside one', () => {
  assert.equal(utf8Head('aü', 2), 'a');
  assert.equal(utf8Head('aü', 3), 'aü');
  assert.equal(utf8Head('😀😀', 5), '😀');
  assert.equal(utf8Head('abc', 0), '');
});

test('each distinct head is kept once: a pass proving two clauses and passes with the same answer share one, another answer adds one', () => {
  const twice = scenario('proves two clauses', 'passed', '@MON-A');
  twice.tags.push('@MON-B');
  const same = scenario('the same answer', 'passed', '@MON-C');
  const other = scenario('another answer', 'passed', '@MON-D');
  other.result.evidence = [
    { exchange: 'HTTP GET /xml', response: `<?xml version="1.0"?>${'<a/>'.repeat(900)}` },
  ];
  const built = build([twice, same, other]);
  assert.deepEqual(validateReport(built), []);
  const heads = readEvidenceHeads(built);
  assert.equal(Object.keys(heads).length, 2);
  assert.equal(built.evidenceHeads?.count, 2);
  const refs = ['MON-A', 'MON-B', 'MON-C', 'MON-D'].map(
    (id) => ((evidenceOf(built, id) ?? [])[0] as CompactEvidence | undefined)?.headSha256,
  );
  assert.equal(new Set(refs.slice(0, 3)).size, 1, 'one head for the same first answer');
  for (const ref of refs) {
    assert.ok(ref && heads[ref] !== undefined, 'every reference resolves');
    assert.equal(createHash('sha256').update(heads[ref]!).digest('hex'), ref, 'keyed by its SHA-256');
  }
  // The JSON holds the heads packed, not each pass's head in its text.
  const json = renderJson(built);
  assert.ok(!json.includes('<<<pbx>>>') && !json.includes('<?xml'), 'no head in the clear');
});

test('report merge keeps the heads its shards refer to, and reads an inline head of an earlier report', () => {
  const shard = (index: number, scenarios: ReturnType<typeof scenario>[]) => {
    const built = build(scenarios);
    built.metadata.run = { id: 'run-1', shard: { index, total: 2 } };
    return built;
  };
  const one = shard(1, [scenario('passes', 'passed', '@MON-A')]);
  const other = scenario('another answer', 'passed', '@MON-C');
  other.result.evidence = [{ exchange: 'HTTP GET /xml', response: '<?xml version="1.0"?><x/>' }];
  const two = shard(2, [other]);
  const merged = mergeReports([one, two]);
  assert.deepEqual(validateReport(merged), []);
  assert.deepEqual(readEvidenceHeads(merged), { ...readEvidenceHeads(one), ...readEvidenceHeads(two) });
  assert.equal(Object.keys(readEvidenceHeads(merged)).length, 2);
  for (const clause of merged.interfaces.flatMap((face) => face.clauses))
    for (const s of clause.scenarios) {
      const ref = (s.evidence[0] as CompactEvidence | undefined)?.headSha256;
      if (ref) assert.ok(readEvidenceHeads(merged)[ref] !== undefined, 'every reference resolves');
    }
  // A shard of an earlier version, its head inline: valid, and the page shows it.
  const inline = structuredClone(two);
  const entry = inline.interfaces.flatMap((face) => face.clauses).find((c) => c.id === 'MON-C')!.scenarios[0]!
    .evidence[0] as CompactEvidence;
  entry.head = readEvidenceHeads(inline)[entry.headSha256!];
  delete entry.headSha256;
  delete inline.evidenceHeads;
  assert.deepEqual(validateReport(inline), []);
  assert.match(renderHtml(inline), /First bytes of the answer<\/summary><pre>&lt;\?xml version/);
});

test('the HTML shows the start of each distinct head once, and each pass links to its own', () => {
  const same = scenario('the same answer', 'passed', '@MON-C');
  const built = build([scenario('passes', 'passed', '@MON-A'), same]);
  const html = renderHtml(built);
  const [key] = Object.keys(readEvidenceHeads(built));
  assert.ok(key);
  assert.equal(html.split(`id="h-${key.slice(0, 8)}"`).length - 1, 1, 'the head once');
  assert.equal(html.split(`href="#h-${key.slice(0, 8)}"`).length - 1, 2, 'a link from each pass');
  assert.ok(html.includes('HTTP/1.1 200 OK'), 'the head text');
  assert.ok(html.includes('&lt;&lt;&lt;pbx&gt;&gt;&gt;'), 'the head text, escaped');
});
