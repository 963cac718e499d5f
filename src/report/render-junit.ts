import { XMLBuilder } from 'fast-xml-parser';
import { type ClauseResult, type CompatibilityReport, type InterfaceResult, sandboxLine } from './model.ts';
import { reproduceCommands } from './reproduce.ts';

/** A testcase's outcome in JUnit terms. */
type JunitOutcome =
  | { kind: 'passed'; output?: string }
  | { kind: 'failure' | 'skipped'; message: string; body?: string };

/** Element trees for fast-xml-parser's builder: attributes `@_name`, text `#text`. */
type XmlNode = { [key: string]: string | XmlNode | XmlNode[] };

/**
 * fast-xml-parser's XMLBuilder escapes `&`, `<`, `>`, `"` and `'` in text and attributes, so the
 * file is well-formed by construction; characters XML 1.0 cannot carry at all are dropped first.
 */
const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  format: true,
  suppressEmptyNode: true,
});

/**
 * reports/junit.xml: one `testsuite` per interface, one `testcase` per clause, from the same model
 * as the other reports, in the shape of the common Jenkins/xunit JUnit schema (checked by
 * test/src/report/render-junit.test.ts against schemas/junit.schema.json). Failures are the clauses
 * that fail the run (unexpected failures and listed gaps that now pass); expected failures,
 * not-verifiable, not-run, not-covered and not-testable clauses are `skipped` with their reason, so
 * CI shows them without turning red.
 */
export function renderJunit(report: CompatibilityReport): string {
  const outcomes = report.interfaces.flatMap((i) => i.clauses.map(junitOutcome));
  const tree: XmlNode = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    testsuites: {
      '@_name': clean(`pbx-conformance ${report.metadata.target}`),
      '@_tests': String(outcomes.length),
      '@_failures': String(count(outcomes, 'failure')),
      '@_errors': '0',
      '@_disabled': '0',
      '@_time': seconds(totalMs(report)),
      testsuite: report.interfaces.map((i) => suiteNode(i, report)),
    },
  };
  return builder.build(tree) as string;
}

function suiteNode(suite: InterfaceResult, report: CompatibilityReport): XmlNode {
  const outcomes = suite.clauses.map(junitOutcome);
  const time = suite.clauses.reduce((sum, clause) => sum + clauseMs(clause), 0);
  return {
    '@_name': clean(suite.id),
    '@_tests': String(suite.clauses.length),
    '@_failures': String(count(outcomes, 'failure')),
    '@_errors': '0',
    '@_skipped': String(count(outcomes, 'skipped')),
    '@_time': seconds(time),
    '@_timestamp': report.metadata.startedAt.replace(/\.\d+Z$|Z$/, ''),
    ...suiteProperties(report),
    testcase: suite.clauses.map((clause, index) =>
      caseNode(clause, outcomes[index] ?? { kind: 'passed' }, report),
    ),
    ...suiteOutput(report),
  };
}

/** certify-plugin: what the certification proved and how sealed its runs were, as suite output. */
function suiteOutput(report: CompatibilityReport): XmlNode {
  const c = report.certification;
  const lines = [
    ...(c
      ? [
          `level: ${c.level}`,
          ...c.notCertified.map((line) => `not certified: ${line}`),
          ...c.warnings.map((line) => `warning: ${line}`),
        ]
      : []),
    ...(report.sandbox ? [sandboxLine(report.sandbox)] : []),
  ];
  return lines.length > 0 ? { 'system-out': [{ '#text': clean(lines.join('\n')) }] } : {};
}

/**
 * certify-plugin: the level and coverage (`certification.level`, `certification.coverage.*`) and
 * the sandbox (`sandbox.sealed`, one per protection) as suite properties.
 */
function suiteProperties(report: CompatibilityReport): XmlNode {
  const property = (name: string, value: string): XmlNode => ({ '@_name': name, '@_value': clean(value) });
  const c = report.certification;
  const sandbox = report.sandbox;
  const properties = [
    ...(c
      ? [
          property('certification.level', c.level),
          ...Object.entries(c.coverage).map(([key, value]) =>
            property(`certification.coverage.${key}`, String(value)),
          ),
        ]
      : []),
    ...(sandbox
      ? [
          property('sandbox.sealed', sandbox.sealed ? 'yes' : 'no'),
          property('sandbox.tool', sandbox.tool ?? 'none'),
          ...(sandbox.reason ? [property('sandbox.reason', sandbox.reason)] : []),
          ...sandbox.protections.map((p) => property(`sandbox.${p.name}`, p.present ? 'present' : 'absent')),
        ]
      : []),
  ];
  return properties.length > 0 ? { properties: { property: properties } } : {};
}

function caseNode(clause: ClauseResult, outcome: JunitOutcome, report: CompatibilityReport): XmlNode {
  const node: XmlNode = {
    '@_name': clean(clause.id),
    '@_classname': clean(clause.interface),
    '@_time': seconds(clauseMs(clause)),
  };
  if (outcome.kind === 'passed') {
    if (outcome.output !== undefined) node['system-out'] = { '#text': clean(outcome.output) };
    return node;
  }
  let body = outcome.body;
  if (outcome.kind === 'failure' && clause.verdict === 'fail') {
    const evidence = clause.scenarios.flatMap((s) => (s.failure ? s.evidence : []));
    const failed = clause.scenarios.flatMap((s) => (s.failure ? [s.name] : []));
    body = `${body ?? ''}\n\nreproduce:\n${reproduceCommands(clause.id, report.metadata, evidence, failed).join('\n')}`;
  }
  const element: XmlNode = { '@_message': clean(outcome.message) };
  if (outcome.kind === 'failure') element['@_type'] = 'conformance';
  if (body !== undefined) element['#text'] = clean(body);
  node[outcome.kind] = element;
  return node;
}

function count(outcomes: readonly JunitOutcome[], kind: JunitOutcome['kind']): number {
  return outcomes.filter((o) => o.kind === kind).length;
}

/** Maps a clause verdict and its baseline status to a JUnit outcome. */
function junitOutcome(clause: ClauseResult): JunitOutcome {
  const baseline = clause.baseline;
  switch (clause.verdict) {
    case 'pass':
      return baseline?.status === 'unexpected-pass'
        ? {
            kind: 'failure',
            message: 'listed as an expected failure but passes: remove it from the expected-failures file',
          }
        : { kind: 'passed' };
    case 'fail': {
      const details = failureDetails(clause);
      if (baseline?.status === 'expected-failure') {
        return { kind: 'skipped', message: `expected failure: ${baseline.reason ?? ''}`, body: details };
      }
      const first = clause.scenarios.find((s) => s.failure)?.failure;
      return {
        kind: 'failure',
        message: first ? `${first.step}: ${firstLine(first.message)}` : 'a scenario failed',
        body: details,
      };
    }
    case 'warn':
      // A broken `should` rule never fails the run; JUnit has no warning, so it passes with the
      // warning in its output.
      return { kind: 'passed', output: `warning: ${failureDetails(clause)}` };
    case 'not-verifiable':
      return { kind: 'skipped', message: `not verifiable: ${clause.reason ?? ''}` };
    case 'not-run':
      return { kind: 'skipped', message: 'not run: its scenarios were not selected in this run' };
    case 'not-covered':
      return { kind: 'skipped', message: 'not covered: no scenario in this run proves this clause' };
    case 'not-testable':
      return { kind: 'skipped', message: 'not testable: reported, never asserted' };
  }
}

function failureDetails(clause: ClauseResult): string {
  const lines = [clause.rule, `${clause.spec} § ${clause.section}`];
  for (const s of clause.scenarios) {
    lines.push('', `${s.status}: ${s.name} (${s.uri}:${s.line})`);
    if (s.failure) lines.push(`  at ${s.failure.step}`, indent(s.failure.message));
    for (const evidence of s.evidence) {
      lines.push(`  evidence: ${evidence.exchange}`);
      if (evidence.request !== undefined) lines.push('  request:', indent(evidence.request));
      if (evidence.response !== undefined) lines.push('  response:', indent(evidence.response));
      if (evidence.details !== undefined) lines.push(`  details: ${JSON.stringify(evidence.details)}`);
    }
  }
  return lines.join('\n');
}

function indent(block: string): string {
  return block
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

function firstLine(message: string): string {
  return message.split('\n', 1)[0] ?? '';
}

function clauseMs(clause: ClauseResult): number {
  return clause.scenarios.reduce((sum, s) => sum + s.durationMs, 0);
}

function totalMs(report: CompatibilityReport): number {
  return Math.max(0, Date.parse(report.metadata.finishedAt) - Date.parse(report.metadata.startedAt)) || 0;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** Characters XML 1.0 cannot carry at all (even escaped) are dropped. */
const INVALID_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

function clean(value: string): string {
  return value.replace(INVALID_XML, '');
}
