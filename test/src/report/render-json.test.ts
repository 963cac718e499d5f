import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderJson } from '../../../src/report/render-json.ts';
import { validateReport } from '../../../src/report/validate-report.ts';
import { sampleReport } from './sample-report.ts';

test('the JSON report validates against schemas/compatibility-report.schema.json', () => {
  const json = renderJson(sampleReport());
  const parsed: unknown = JSON.parse(json);
  assert.deepEqual(validateReport(parsed), []);
  assert.deepEqual(parsed, JSON.parse(JSON.stringify(sampleReport())));
});

test('the schema rejects a report that breaks the model', () => {
  const report = sampleReport();
  const broken = structuredClone(report) as unknown as {
    interfaces: Array<{ clauses: Array<Record<string, unknown>> }>;
  };
  const first = broken.interfaces[0]?.clauses[0];
  assert.ok(first);
  first['verdict'] = 'maybe';
  assert.notDeepEqual(validateReport(broken), []);
  const noReason = structuredClone(report);
  const nv = noReason.interfaces.flatMap((i) => i.clauses).find((c) => c.verdict === 'not-verifiable');
  assert.ok(nv);
  delete nv.reason;
  assert.throws(() => renderJson(noReason), /does not match its schema/);
});
