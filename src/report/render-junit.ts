import type { ClauseResult, CompatibilityReport, InterfaceResult } from './model.ts';

/** A testcase's outcome in JUnit terms. */
type JunitOutcome = { kind: 'passed' } | { kind: 'failure' | 'skipped'; message: string; body?: string };

/**
 * reports/junit.xml: one `testsuite` per interface, one `testcase` per clause, from the same model
 * as the other reports. Failures are the clauses that fail the run (unexpected failures and listed
 * gaps that now pass); expected failures, not-verifiable, not-covered and not-testable clauses are
 * `skipped` with their reason, so CI shows them without turning red.
 */
export function renderJunit(report: CompatibilityReport): string {
  const suites = report.interfaces.map((i) => renderSuite(i, report.metadata.startedAt));
  const outcomes = report.interfaces.flatMap((i) => i.clauses.map(junitOutcome));
  const failures = outcomes.filter((o) => o.kind === 'failure').length;
  const skipped = outcomes.filter((o) => o.kind === 'skipped').length;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="${attr(`pbx-conformance ${report.metadata.target}`)}" tests="${outcomes.length}" ` +
    `failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(totalMs(report))}" ` +
    `timestamp="${attr(report.metadata.startedAt)}">\n${suites.join('')}</testsuites>\n`
  );
}

function renderSuite(suite: InterfaceResult, timestamp: string): string {
  const outcomes = suite.clauses.map(junitOutcome);
  const failures = outcomes.filter((o) => o.kind === 'failure').length;
  const skipped = outcomes.filter((o) => o.kind === 'skipped').length;
  const time = suite.clauses.reduce((sum, clause) => sum + clauseMs(clause), 0);
  const cases = suite.clauses.map((clause, index) =>
    renderCase(clause, outcomes[index] ?? { kind: 'passed' }),
  );
  return (
    `  <testsuite name="${attr(suite.id)}" tests="${suite.clauses.length}" failures="${failures}" errors="0" ` +
    `skipped="${skipped}" time="${seconds(time)}" timestamp="${attr(timestamp)}">\n${cases.join('')}  </testsuite>\n`
  );
}

function renderCase(clause: ClauseResult, outcome: JunitOutcome): string {
  const open = `    <testcase classname="${attr(clause.interface)}" name="${attr(clause.id)}" time="${seconds(clauseMs(clause))}"`;
  if (outcome.kind === 'passed') return `${open}/>\n`;
  const body = outcome.body === undefined ? '' : text(outcome.body);
  return `${open}>\n      <${outcome.kind} message="${attr(outcome.message)}">${body}</${outcome.kind}>\n    </testcase>\n`;
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

function text(value: string): string {
  return value.replace(INVALID_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(value: string): string {
  return text(value)
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}
