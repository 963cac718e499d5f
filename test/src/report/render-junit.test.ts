import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { PROJECT_ROOT } from '../../../src/core/project-paths.ts';
import { strictValidator } from '../../../src/core/strict-schema.ts';
import { renderJunit } from '../../../src/report/render-junit.ts';

const JUNIT_SCHEMA = join(PROJECT_ROOT, 'schemas', 'junit.schema.json');

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
  // The xunit schema has no `skipped` on <testsuites>: the suites carry it.
  const suiteSkipped = (root['testsuite'] as Node[]).reduce((sum, s) => sum + Number(s['skipped']), 0);
  assert.equal(suiteSkipped, skipped.length);
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

test('the JUnit report validates against the Jenkins/xunit JUnit rules (schemas/junit.schema.json)', () => {
  const validator = strictValidator(JUNIT_SCHEMA);
  const tree = (xml: string) =>
    new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
      parseAttributeValue: false,
      parseTagValue: false,
      isArray: (name) =>
        ['testsuite', 'testcase', 'failure', 'error', 'system-out', 'system-err'].includes(name),
    }).parse(xml) as unknown;
  const verdict = validator.validate(tree(renderJunit(sampleReport())));
  assert.deepEqual(verdict, { ok: true });
  // The check can fail: a case without a name, a suite with an unknown attribute, a bad time.
  const broken = renderJunit(sampleReport())
    .replace('<testcase name="MON-A"', '<testcase ')
    .replace('<testsuite name="MON"', '<testsuite flavour="x" name="MON"')
    .replace(/time="[0-9.]+"/, 'time="soon"');
  const bad = validator.validate(tree(broken));
  assert.equal(bad.ok, false);
  const problems = bad.ok ? [] : bad.problems.join('\n');
  assert.match(String(problems), /required property '@_name'/);
  assert.match(String(problems), /unknown key "@_flavour"/);
  assert.match(String(problems), /@_time must match pattern/);
});

test('a failure carries the command that reproduces it', () => {
  const root = parse(renderJunit(sampleReport()))['testsuites'] as Node;
  const monB = (root['testsuite'] as Node[])
    .flatMap((s) => s['testcase'] as Node[])
    .find((c) => c['name'] === 'MON-B');
  assert.match(
    String(child(monB, 'failure')['#text']),
    /reproduce:\nnpx pbx-conformance verify --target '\/etc\/lab.json' --tags @MON-B/,
  );
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
