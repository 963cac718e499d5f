import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderHtml } from '../../../src/report/render-html.ts';
import { escapedBytes, reproduceCommands } from '../../../src/report/reproduce.ts';
import { sampleReport } from './sample-report.ts';

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

test('the page leads with failures, then not-verifiable clauses with reasons, then the rest', () => {
  const html = renderHtml(sampleReport());
  const at = (needle: string) => {
    const index = html.indexOf(needle);
    assert.ok(index >= 0, needle);
    return index;
  };
  const failures = at('<h2 id="failures">Failures (2)</h2>');
  const firstFailure = at('id="MON-B"');
  const notVerifiable = at('<h2 id="not-verifiable">Not verifiable (1)</h2>');
  const reason = at('Not verifiable: no &lt;script&gt;');
  const scores = at('<h2>Scores</h2>');
  const pass = at('id="MON-A"');
  assert.ok(failures < firstFailure && firstFailure < notVerifiable, 'failures first');
  assert.ok(notVerifiable < reason && reason < scores, 'then not verifiable, with the reason');
  assert.ok(scores < pass, 'passes last');
  assert.ok(at('<h2 id="failures">') < at('class="outcome') + 5_000, 'failures right below the outcome');
});

test('a failure shows the raw bytes beside the decoded view, and how to reproduce it', () => {
  const html = renderHtml(sampleReport());
  assert.ok(html.includes('Request, raw bytes (escaped)'));
  assert.ok(html.includes('Response, decoded'));
  // the hostile \u0001 byte shows as \x01 in the raw view
  assert.ok(
    html.includes('&lt;local&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; \\x01&lt;/local&gt;'),
  );
  assert.ok(html.includes('pbx-conformance verify --target &apos;/etc/lab.json&apos; --tags @MON-B'));
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

test('a clause left out by a tag filter reads "not run", not a zero score', () => {
  const report = sampleReport();
  const face = report.interfaces[0];
  assert.ok(face);
  face.counts = { ...face.counts, pass: 0, fail: 0, 'not-verifiable': 0, 'not-run': 3 };
  const html = renderHtml(report);
  assert.ok(html.includes('<td class="idle" colspan="2">not run in this selection</td>'));
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
      "pbx-conformance verify --target '/t/lab.json' --tags @MON-X",
      'nc -s 10.0.0.9 -w 8 10.0.0.5 6556 < /dev/null',
      "printf '%s' $'GET /json HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n' | nc -s 10.0.0.9 -w 8 10.0.0.5 6556",
      "curl -sS -i -X POST 'http://10.0.0.5/xml-rpc?auth=123:<redacted>'",
    ],
  );
  assert.deepEqual(reproduceCommands('MON-X', { targetFile: null, webUrl: null }, evidence), [
    'pbx-conformance verify --tags @MON-X',
  ]);
});

test('escaped bytes show line ends, control bytes and UTF-8 bytes', () => {
  assert.equal(escapedBytes('a\r\nb\tü\u0000\\'), 'a\\r\\n\nb\\t\\xc3\\xbc\\x00\\\\');
});
