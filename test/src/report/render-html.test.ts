import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NOT_VERIFIABLE_MEDIA_TYPE } from '../../../src/report/attachments.ts';
import { renderHtml } from '../../../src/report/render-html.ts';
import { escapedBytes, reproduceCommands } from '../../../src/report/reproduce.ts';
import { buildFromMessages } from './build-from-messages.ts';
import { sampleReport } from './sample-report.ts';
import { syntheticEnvelopes } from './synthetic-envelopes.ts';
import { testCatalog } from './test-catalog.ts';

test('the HTML report shows every clause with its verdict, rule and citation', () => {
  const report = sampleReport();
  const html = renderHtml(report);
  for (const clause of report.interfaces.flatMap((i) => i.clauses)) {
    assert.ok(html.includes(`id="${clause.id}"`), clause.id);
  }
  assert.match(html, /<span class="badge v-fail">fail<\/span> <span class="id">MON-B<\/span>/);
  assert.match(
    html,
    /<span class="badge v-not-verifiable">not verifiable<\/span> <span class="id">XMLRPC-A<\/span>/,
  );
  assert.ok(html.includes('s.md § One / B'));
  assert.ok(html.includes('MON — 1/4 testable clauses pass'));
  assert.ok(html.includes('Failed at <code>Then the reply matches</code>'));
  assert.ok(html.includes('Exchange: <code>HTTP GET /xml</code>'));
});

test('the page leads with the outcome and the scores, then failures, then not-verifiable reasons, then the rest', () => {
  const html = renderHtml(sampleReport());
  const at = (needle: string, from = 0) => {
    const index = html.indexOf(needle, from);
    assert.ok(index >= 0, needle);
    return index;
  };
  const outcome = at('class="outcome');
  const scores = at('<h2 id="scores">Scores</h2>');
  const failures = at('<h2 id="failures">Failures (2)</h2>');
  const firstFailure = at('id="MON-B"');
  const notVerifiable = at('<h2 id="not-verifiable">Not verifiable (1)</h2>');
  const reason = at('no &lt;script&gt;', notVerifiable);
  const pass = at('id="MON-A"');
  assert.ok(outcome < scores && scores < failures, 'the score first, right below the outcome');
  assert.ok(failures < firstFailure && firstFailure < notVerifiable, 'then failures');
  assert.ok(notVerifiable < reason && reason < pass, 'then not verifiable, with the reason');
  assert.ok(scores < outcome + 2_000, 'the scores are above the fold');
});

test('not-verifiable reasons are grouped: each reason once with its clauses, not once per scenario', () => {
  const catalog = testCatalog();
  const reason = 'the target file names no PBX control plane (`pbx.controlUrl`)';
  const skipped = (name: string, tag: string) => ({
    name,
    tags: [tag],
    steps: [
      {
        text: 'w',
        status: 'SKIPPED' as const,
        attachments: [{ mediaType: NOT_VERIFIABLE_MEDIA_TYPE, body: JSON.stringify({ reason }) }],
      },
    ],
  });
  const report = buildFromMessages({
    catalog,
    envelopes: syntheticEnvelopes([
      { name: 'passes', tags: ['@MON-A'], steps: [{ text: 'x', status: 'PASSED' }] },
      skipped('one', '@MON-B'),
      skipped('two', '@MON-B'),
      skipped('three', '@XMLRPC-A'),
    ]),
    metadata: {
      target: 'lab-pbx',
      targetFile: '/etc/lab.json',
      startedAt: '2026-01-01T10:00:00.000Z',
      finishedAt: '2026-01-01T10:00:05.000Z',
      toolVersion: '0.1.0',
      tagExpression: null,
    },
    expectedFailures: { path: '/x/lab-pbx.yaml', file: null, entries: [] },
  });
  const html = renderHtml(report);
  const rendered = 'the target file names no PBX control plane (<code>pbx.controlUrl</code>)';
  assert.equal(html.split(rendered).length - 1, 3, 'once in the group, once on each of the two cards');
  assert.ok(!html.includes('`pbx.controlUrl`'), 'the Markdown backticks are rendered');
  assert.match(
    html,
    /<li>the target file names no PBX control plane \(<code>pbx\.controlUrl<\/code>\)<div class="ids meta">2 clauses: <a class="id" href="#MON-B">MON-B<\/a>, <a class="id" href="#XMLRPC-A">XMLRPC-A<\/a><\/div><\/li>/,
  );
});

test('a failure shows the raw bytes beside the decoded view, and how to reproduce it', () => {
  const html = renderHtml(sampleReport());
  assert.ok(html.includes('Request, raw bytes (escaped)'));
  assert.ok(html.includes('Response, decoded'));
  // the hostile \u0001 byte shows as \x01 in the raw view
  assert.ok(
    html.includes('&lt;local&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; \\x01&lt;/local&gt;'),
  );
  assert.ok(html.includes('npx pbx-conformance verify --target &apos;/etc/lab.json&apos; --tags @MON-B'));
});

test('passing scenarios only name their exchanges; failures keep their bodies', () => {
  const report = sampleReport();
  const pass = report.interfaces[0]?.clauses.find((c) => c.id === 'MON-A');
  assert.ok(pass);
  pass.scenarios[0]?.evidence.push({ exchange: 'TCP raw', response: 'PASSING-BODY'.repeat(100) });
  const html = renderHtml(report);
  assert.ok(html.includes('<code>TCP raw</code>'));
  assert.equal(html.includes('PASSING-BODY'), false);
});

test('an interface with nothing verified reads "not run", not a zero score', () => {
  const report = sampleReport();
  const [mon, xmlrpc] = report.interfaces;
  assert.ok(mon && xmlrpc);
  // Left out by a tag filter, and (XMLRPC-A) not verifiable on this target, as FLEET with --no-fleet.
  mon.counts = { ...mon.counts, pass: 0, fail: 0, 'not-verifiable': 0, 'not-run': 3 };
  assert.equal(xmlrpc.counts.pass + xmlrpc.counts.fail, 0);
  assert.equal(xmlrpc.counts['not-verifiable'], 1);
  const html = renderHtml(report);
  assert.equal(html.split('<td class="idle" colspan="2">not run</td>').length - 1, 2);
  assert.ok(html.includes('<h2>XMLRPC — not run</h2>'));
  assert.ok(!html.includes('0/1'));
});

test('the HTML report escapes every text and is self-contained', () => {
  const html = renderHtml(sampleReport());
  assert.equal(html.match(/<script/g)?.length, 1, 'one inline script: the filter');
  assert.equal(/<script[^>]*\bsrc=/.test(html), false);
  assert.ok(
    html.includes('id="f-verdict"') && html.includes('id="f-interface"') && html.includes('id="f-search"'),
  );
  assert.ok(html.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp;'));
  assert.equal(/(src|href)="(https?:)?\/\//.test(html), false);
  assert.equal(/<link\b/.test(html), false);
});

test('reproduce lines: nc for raw TCP, printf | nc for HTTP over TCP, curl for HTTP, only for remote targets', () => {
  const evidence = [
    { exchange: 'TCP 10.0.0.5:6556 from 10.0.0.9 (raw)', request: '(nothing sent)' },
    { exchange: 'TCP 10.0.0.5:6556 from 10.0.0.9', request: 'GET /json HTTP/1.1\r\nHost: x\r\n\r\n' },
    { exchange: 'HTTP POST /xml-rpc?auth=123:<redacted>' },
  ];
  assert.deepEqual(
    reproduceCommands('MON-X', { targetFile: '/t/lab.json', webUrl: 'http://10.0.0.5' }, evidence),
    [
      "npx pbx-conformance verify --target '/t/lab.json' --tags @MON-X",
      'nc -s 10.0.0.9 -w 8 10.0.0.5 6556 < /dev/null',
      "printf '%s' $'GET /json HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n' | nc -s 10.0.0.9 -w 8 10.0.0.5 6556",
      "curl -sS -i -X POST 'http://10.0.0.5/xml-rpc?auth=123:<redacted>'",
    ],
  );
  assert.deepEqual(reproduceCommands('MON-X', { targetFile: null, webUrl: null }, evidence), [
    'npx pbx-conformance verify --tags @MON-X',
  ]);
});

test('escaped bytes show line ends, control bytes and UTF-8 bytes', () => {
  assert.equal(escapedBytes('a\r\nb\tü\u0000\\'), 'a\\r\\n\nb\\t\\xc3\\xbc\\x00\\\\');
});
