import type { Catalog } from '../catalog/catalog.ts';
import { buildReport } from '../report/build-report.ts';
import type { CompatibilityReport, ScenarioResult } from '../report/model.ts';
import type { TaggedScenarioResult } from '../report/scenario-results.ts';
import type { Finding, FindingId, ResolverCheckReport } from './resolver-check-report.ts';

/**
 * The clause each pitfall runs into: the PBX behaves as that clause says, and the endpoint's
 * answer makes the lookup miss under it. Named in the failure message, never turned into a
 * verdict on that clause (the PBX is not what `resolver-check` judges).
 */
export const FINDING_CLAUSES: Record<FindingId, string> = {
  'not-resolved': 'RESOLVER-NO-RESULT',
  'client-error': 'RESOLVER-NON-2XX-FAILED',
  'server-error': 'RESOLVER-NON-2XX-FAILED',
  transport: 'RESOLVER-REACHABILITY',
  'several-records': 'RESOLVER-EVAL-FIRST-MATCH',
  'plus-as-space': 'RESOLVER-URL-PLUS',
  'missing-charset': 'RESOLVER-RESPONSE-CHARSET',
  'unknown-charset': 'RESOLVER-RESPONSE-CHARSET',
  'invalid-encoding': 'RESOLVER-RESPONSE-CHARSET',
  'redirect-chain': 'RESOLVER-REDIRECTS',
  digest: 'RESOLVER-AUTH-DIGEST',
  slow: 'RESOLVER-TIMEOUT-WARNING',
  'java-regex': 'RESOLVER-MATCHER-DOTALL',
  'empty-name': 'RESOLVER-EVAL-FIELD-MAPPINGS',
  'unknown-placeholder': 'RESOLVER-PH-FIELD',
};

/**
 * What `resolver-check` does is the PBX's settings test against the integrator's endpoint
 * (RESOLVER-TRIGGER-SETTINGS-TEST): every scenario of its report proves that clause on that
 * endpoint, and only that one.
 */
const CHECKED_CLAUSE = 'RESOLVER-TRIGGER-SETTINGS-TEST';

/** Where the scenarios of a resolver-check run are reported (the provider's id). */
export function resolverCheckUri(providerId: string): string {
  return `resolver-check/${providerId}`;
}

function findingLine(finding: Finding): string {
  return `${finding.severity} ${finding.id} (${FINDING_CLAUSES[finding.id]}): ${finding.message}`;
}

/**
 * The resolver-check run in the one result model (the same JSON schema, HTML and JUnit as
 * `verify`): a scenario for the provider's configuration and one per number, each tagged with
 * RESOLVER-TRIGGER-SETTINGS-TEST. A number's scenario passes when it resolved without an error
 * finding; the provider's when its parsers have none. Every finding is in the scenario's
 * evidence, with the clause it runs into; the number's full diagnosis is the evidence's details.
 */
export function resolverCheckResult(
  check: ResolverCheckReport,
  catalog: Catalog,
  metadata: { startedAt: string; finishedAt: string },
): CompatibilityReport {
  return buildReport({
    run: {
      command: 'resolver-check',
      target: check.provider.url,
      targetFile: null,
      startedAt: metadata.startedAt,
      finishedAt: metadata.finishedAt,
    },
    catalog,
    results: { scenarios: resolverCheckScenarios(check), catalog },
  });
}

function resolverCheckScenarios(check: ResolverCheckReport): TaggedScenarioResult[] {
  const uri = resolverCheckUri(check.provider.id);
  const tags = [`@${CHECKED_CLAUSE}`];
  const providerFindings = check.findings.filter((f) => f.number === null);
  const scenarios: TaggedScenarioResult[] = [
    {
      tags,
      result: scenario(
        uri,
        1,
        `the parsers of provider ${check.provider.id} run on the PBX`,
        'Then every matcher means the same in Java and here',
        providerFindings,
        { exchange: `provider ${check.provider.id}`, details: { provider: check.provider } },
        0,
      ),
    },
  ];
  check.numbers.forEach((number, index) => {
    const findings = check.findings.filter((f) => f.number === number.input);
    const unresolved = number.outcome === 'resolved' ? [] : [`not resolved: ${number.outcome}`];
    scenarios.push({
      tags,
      result: scenario(
        uri,
        index + 2,
        `number ${number.input} resolves to a name through provider ${check.provider.id}`,
        `Then the settings test resolves ${number.sent ?? number.input}`,
        findings,
        {
          exchange: number.request
            ? `HTTP ${number.request.method} ${number.request.url}`
            : `number ${number.input}`,
          ...(number.response?.bodyExcerpt ? { response: number.response.bodyExcerpt } : {}),
          details: { number },
        },
        number.timing?.totalMs ?? 0,
        unresolved,
      ),
    });
  });
  return scenarios;
}

/**
 * `line`: the scenario's position in the run (the provider first, then the numbers in order);
 * `durationMs`: the lookup's own time (none for the provider's parsers, read without a request).
 */
function scenario(
  uri: string,
  line: number,
  name: string,
  step: string,
  findings: readonly Finding[],
  evidence: ScenarioResult['evidence'][number],
  durationMs: number,
  unresolved: readonly string[] = [],
): ScenarioResult {
  const errors = findings.filter((f) => f.severity === 'error');
  const result: ScenarioResult = {
    name,
    uri,
    line,
    status: errors.length === 0 && unresolved.length === 0 ? 'passed' : 'failed',
    durationMs: Math.max(0, durationMs),
    evidence: [{ ...evidence, details: { ...evidence.details, findings: findings.map(findingLine) } }],
  };
  if (result.status === 'failed')
    result.failure = { step, message: [...unresolved, ...errors.map(findingLine)].join('\n') };
  return result;
}
