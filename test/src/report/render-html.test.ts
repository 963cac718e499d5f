import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderHtml } from '../../../src/report/render-html.ts';
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
  assert.ok(html.includes('<details><summary>Failure at <code>Then the reply matches</code>'));
  assert.ok(html.includes('Exchange: <code>HTTP GET /xml</code>'));
});

test('the HTML report escapes every text and needs no external asset', () => {
  const html = renderHtml(sampleReport());
  assert.equal(html.includes('<script'), false);
  assert.ok(html.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp;'));
  assert.equal(/(src|href)="(https?:)?\/\//.test(html), false);
  assert.equal(/<link\b/.test(html), false);
});
