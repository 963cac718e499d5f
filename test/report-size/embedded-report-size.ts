/**
 * Issue 29, item 17: the reports of `verify` against the embedded simulator, the whole suite,
 * stay under 1 MB (compatibility.json) and 600 KB (compatibility.html). Reads the reports the
 * feature run of `npm test` has just written (`npm run test:features`, ./reports), so the bound is
 * held on the real run without running the suite twice; `npm run test:report-size` after it.
 * Not a `*.test.ts`: the unit tests run before the features.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from '../../src/core/project-paths.ts';
import type { CompatibilityReport } from '../../src/report/model.ts';

const REPORTS = join(PROJECT_ROOT, 'reports');
const JSON_BOUND = 1_000_000;
const HTML_BOUND = 600_000;

test('the embedded run of the whole suite writes compatibility.json under 1 MB and compatibility.html under 600 KB', () => {
  const json = join(REPORTS, 'compatibility.json');
  const report = JSON.parse(readFileSync(json, 'utf8')) as CompatibilityReport;
  assert.equal(report.metadata.command, 'verify');
  assert.equal(report.metadata.target, 'embedded', 'the report of the embedded simulator');
  assert.equal(report.metadata.tagExpression, null, 'the whole suite, no tag filter');
  assert.ok(report.scenarios.total > 500, `the whole suite (${report.scenarios.total} scenarios)`);
  const jsonBytes = statSync(json).size;
  const htmlBytes = statSync(join(REPORTS, 'compatibility.html')).size;
  console.log(`compatibility.json ${jsonBytes} bytes, compatibility.html ${htmlBytes} bytes`);
  assert.ok(jsonBytes < JSON_BOUND, `compatibility.json is ${jsonBytes} bytes, over ${JSON_BOUND}`);
  assert.ok(htmlBytes < HTML_BOUND, `compatibility.html is ${htmlBytes} bytes, over ${HTML_BOUND}`);
});
