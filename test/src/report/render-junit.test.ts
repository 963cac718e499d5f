import assert from 'node:assert/strict';
import { test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { renderJunit } from '../../../src/report/render-junit.ts';
import { HOSTILE, sampleReport } from './sample-report.ts';

type Node = Record<string, unknown>;

/** The child element `key` of `node`, failing the test when it is absent. */
function child(node: Node | undefined, key: string): Node {
  const value = node?.[key];
  assert.ok(typeof value === 'object' && value !== null, `missing <${key}>`);
  return value as Node;
}

function parse(xml: string): Node {
  assert.equal(XMLValidator.validate(xml), true);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => ['testsuite', 'testcase'].includes(name),
  });
  return parser.parse(xml) as Node;
}

test('the JUnit report is well-formed: one suite per interface, one case per clause', () => {
  const report = sampleReport();
  const doc = parse(renderJunit(report));
  const root = doc['testsuites'] as Node;
  const suites = root['testsuite'] as Node[];
  assert.deepEqual(
    suites.map((s) => s['name']),
    report.interfaces.map((i) => i.id),
  );
  const cases = suites.flatMap((s) => s['testcase'] as Node[]);
  assert.equal(cases.length, report.interfaces.flatMap((i) => i.clauses).length);
  assert.equal(Number(root['tests']), cases.length);
  for (const suite of suites) assert.equal(Number(suite['tests']), (suite['testcase'] as Node[]).length);
});

test('failure and skipped counts match the elements and the model', () => {
  const report = sampleReport();
  const root = parse(renderJunit(report))['testsuites'] as Node;
  const cases = (root['testsuite'] as Node[]).flatMap((s) => s['testcase'] as Node[]);
  const failures = cases.filter((c) => 'failure' in c);
  const skipped = cases.filter((c) => 'skipped' in c);
  assert.equal(Number(root['failures']), failures.length);
  assert.equal(Number(root['skipped']), skipped.length);
  // MON-B fails unexpectedly; MON-C is an expected failure, reported as skipped.
  assert.deepEqual(
    failures.map((c) => c['name']),
    report.baseline.unexpectedFailures,
  );
  const byName = new Map(cases.map((c) => [c['name'], c]));
  assert.match(String(child(byName.get('MON-C'), 'skipped')['message']), /^expected failure: vendor bug/);
  assert.match(String(child(byName.get('XMLRPC-A'), 'skipped')['message']), /^not verifiable: no /);
  assert.equal('failure' in (byName.get('MON-A') ?? {}), false);
  assert.equal('skipped' in (byName.get('MON-A') ?? {}), false);
});

test('hostile text survives as escaped content without invalid XML characters', () => {
  const xml = renderJunit(sampleReport());
  assert.equal(xml.includes('<script>'), false);
  assert.equal(xml.includes('\u0001'), false);
  const root = parse(xml)['testsuites'] as Node;
  const monB = (root['testsuite'] as Node[])
    .flatMap((s) => s['testcase'] as Node[])
    .find((c) => c['name'] === 'MON-B');
  const failure = child(monB, 'failure');
  // The parser decodes the entities: the text round-trips, minus the control character.
  assert.equal(
    String(failure['message']),
    `Then the reply matches: AssertionError: ${HOSTILE.replace('\u0001', '').trimEnd()}`,
  );
  assert.ok(String(failure['#text']).includes('HTTP GET /xml'));
});

test('an unexpected pass is a JUnit failure asking to remove the entry', () => {
  const report = sampleReport();
  const monA = report.interfaces[0]?.clauses.find((c) => c.id === 'MON-A');
  assert.ok(monA);
  monA.baseline = { status: 'unexpected-pass', reason: 'was broken' };
  const root = parse(renderJunit(report))['testsuites'] as Node;
  const monACase = (root['testsuite'] as Node[])
    .flatMap((s) => s['testcase'] as Node[])
    .find((c) => c['name'] === 'MON-A');
  assert.match(String(child(monACase, 'failure')['message']), /remove it from the expected-failures file/);
});
