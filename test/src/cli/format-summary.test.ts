import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatSummary } from '../../../src/cli/format-summary.ts';
import { sampleReport } from '../report/sample-report.ts';

const PATHS = { json: '/p/r/compatibility.json', html: '/p/r/compatibility.html', junit: '/p/r/junit.xml' };

test('an interface with nothing verified reads "not run" in the summary, not 0/N beside PASSED', () => {
  const report = sampleReport();
  // XMLRPC-A is not verifiable on this target, as FLEET and MCP are against `simulate --no-fleet`.
  const xmlrpc = report.interfaces.find((i) => i.id === 'XMLRPC');
  assert.ok(xmlrpc && xmlrpc.counts.pass + xmlrpc.counts.fail === 0 && xmlrpc.score.testable > 0);
  const summary = formatSummary(report, PATHS, '/p');
  assert.match(summary, /^ {2}XMLRPC\s+not run\s+0\s+1\s+0\s+0\s+0$/m);
  assert.doesNotMatch(summary, /XMLRPC\s+0\/\d/);
  assert.match(summary, /^ {2}MON\s+1\/4\s/m);
  assert.match(summary, /^baseline: \/x\/lab-pbx\.yaml$/m);
  assert.match(summary, /^reports: r\/compatibility\.json, r\/compatibility\.html, r\/junit\.xml$/m);
});
