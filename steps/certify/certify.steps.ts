/**
 * Steps of features/certify/: each scenario writes a small check plug-in (its source is the
 * scenario's doc string), certifies it in-process with `certifyPlugin` (src/certify/certify.ts) on
 * the catalog scenarios it names, and asserts one PLUGIN clause's verdict, the finding that says
 * why, and the outcome of the certification as a whole (src/certify/certify-report.ts). These
 * scenarios prove certify-plugin itself: they never touch a `verify --target` (certify-hooks.ts).
 */
import assert from 'node:assert/strict';
import { AfterAll, Before, BeforeAll, Given, Then, When } from '@cucumber/cucumber';
import type { ClauseOutcome } from '../../src/certify/certify.ts';
import { localeInstalled } from '../../src/certify/certify.ts';
import { FixtureError } from '../support/fixture-error.ts';
import { memoryKey } from '../support/scenario-memory.ts';
import type { PbxWorld } from '../support/world.ts';
import { CERTIFY_STEP, Certification, certifyStepOf, closeCertifications } from './support/certification.ts';
import { prefetchCertifications } from './support/prefetch.ts';

const CERTIFICATION = memoryKey<Certification>('certification');
/** The must clauses the scenario's Then steps found broken: the failed certification must name them. */
const FAILED_CLAUSES = memoryKey<string[]>('certifyFailedClauses');

/** The tag of every certify feature (features/certify/*.feature). */
export const CERTIFY_TAG = '@certify-plugin';

BeforeAll(() => {
  prefetchCertifications(CERTIFY_TAG);
});

AfterAll(async () => {
  await closeCertifications();
});

Before({ tags: CERTIFY_TAG }, function (this: PbxWorld) {
  if (this.parameters.target !== undefined)
    return this.notVerifiable(
      'PLUGIN clauses judge a check plug-in under certify-plugin, not the target: these scenarios prove certify-plugin itself and run without --target (certify a plug-in with pbx-conformance certify-plugin)',
    );
  this.memory.set(CERTIFICATION, new Certification());
  return undefined;
});

function certification(world: PbxWorld): Certification {
  return world.memory.require(CERTIFICATION);
}

Given('the plug-in {string}:', function (this: PbxWorld, name: string, source: string) {
  certification(this).writePlugin(name, source);
});

Given('the expectations file:', async function (this: PbxWorld, yaml: string) {
  await certification(this).setExpectations(yaml);
});

Given('this machine has the locale {string}', function (this: PbxWorld, name: string) {
  if (!localeInstalled(name))
    throw new FixtureError(
      `the locale ${name} is not installed on this machine (locale -a does not list it)`,
    );
});

When(
  CERTIFY_STEP,
  async function (
    this: PbxWorld,
    command: string,
    names: string,
    generated: string | null,
    extra: string | null,
  ) {
    const step = certifyStepOf([command, names, generated, extra]);
    const run = certification(this);
    await run.run(step);
    const result = run.result;
    assert.ok(result, 'certify-plugin gave no result');
    this.evidence({
      exchange: 'certify-plugin',
      request: `certify-plugin ${step.scenarios.map((s) => `--scenario ${s}`).join(' ')} --runs ${step.generated} -- ${step.command}`,
      details: {
        runs: result.runs.map((r) => ({
          run: r.run,
          exitCode: r.evidence?.exitCode ?? null,
          state: r.evidence?.state ?? null,
          timedOut: r.evidence?.timedOut ?? false,
          stdout: (r.evidence?.stdout ?? '').slice(0, 400),
          stderr: (r.evidence?.stderr ?? '').slice(0, 400),
          findings: r.findings,
        })),
        clauses: result.clauses.map((c) => `${c.id} ${c.verdict}`),
      },
    });
  },
);

function outcome(world: PbxWorld, id: string): ClauseOutcome {
  const result = certification(world).result;
  assert.ok(result, 'no certification ran: a When step must run certify-plugin first');
  const clause = result.clauses.find((c) => c.id === id);
  assert.ok(clause, `certify-plugin gave no verdict for ${id}`);
  world.evidence({ exchange: `verdict on ${id}`, details: { ...clause } });
  return clause;
}

function describe(clause: ClauseOutcome): string {
  const why = clause.findings.map((f) => `${f.run}: ${f.message}`).join('; ') || clause.reason || '';
  return `${clause.id} is ${clause.verdict}${why ? ` (${why})` : ''}`;
}

Then(
  /^(PLUGIN-[A-Z-]+) passes, judged on the runs? ((?:"[^"]*"(?:, | and )?)+)$/,
  function (this: PbxWorld, id: string, names: string) {
    const clause = outcome(this, id);
    assert.equal(clause.verdict, 'pass', describe(clause));
    for (const [, run] of names.matchAll(/"([^"]*)"/g))
      assert.ok(
        clause.runs.includes(run as string),
        `${id} was not judged on the run ${run} (judged on: ${clause.runs.join(', ') || 'none'})`,
      );
  },
);

Then(
  /^(PLUGIN-[A-Z-]+) (fails|warns) on the run "([^"]*)" because "([^"]*)"$/,
  function (this: PbxWorld, id: string, verb: 'fails' | 'warns', run: string, because: string) {
    const clause = outcome(this, id);
    const [verdict, level] = verb === 'fails' ? (['fail', 'must'] as const) : (['warn', 'should'] as const);
    assert.equal(
      clause.level,
      level,
      `${id} is a ${clause.level} rule: a broken one ${verb === 'fails' ? 'warns' : 'fails'}`,
    );
    assert.equal(clause.verdict, verdict, describe(clause));
    const finding = clause.findings.find((f) => f.run === run && f.message.includes(because));
    assert.ok(finding, `no finding on the run ${run} that says "${because}": ${describe(clause)}`);
    if (verb === 'fails') this.memory.set(FAILED_CLAUSES, [...(this.memory.get(FAILED_CLAUSES) ?? []), id]);
  },
);

Then('the certification as a whole passes', function (this: PbxWorld) {
  const report = certification(this).report;
  assert.ok(report, 'no certification ran');
  const failing = report.interfaces.flatMap((i) => i.clauses).filter((c) => c.verdict === 'fail');
  assert.deepEqual(
    failing.map((c) => c.id),
    [],
    `must rules broken: ${report.outcome.reasons.join('; ')}`,
  );
  assert.equal(report.outcome.passed, true, report.outcome.reasons.join('; '));
});

Then('the certification as a whole fails', function (this: PbxWorld) {
  const report = certification(this).report;
  assert.ok(report, 'no certification ran');
  assert.equal(report.outcome.passed, false, 'the certification passed');
  for (const id of this.memory.get(FAILED_CLAUSES) ?? [])
    assert.ok(
      report.outcome.reasons.some((r) => r.startsWith(`${id} (must)`)),
      `the outcome does not name ${id}: ${report.outcome.reasons.join('; ')}`,
    );
});

Then('the certification as a whole passes: a broken should-rule only warns', function (this: PbxWorld) {
  const report = certification(this).report;
  assert.ok(report, 'no certification ran');
  const clauses = report.interfaces.flatMap((i) => i.clauses);
  assert.ok(
    clauses.some((c) => c.verdict === 'warn'),
    'no clause warns: the scenario must break a should-rule',
  );
  assert.deepEqual(
    clauses.filter((c) => c.verdict === 'fail').map((c) => c.id),
    [],
    `must rules broken: ${report.outcome.reasons.join('; ')}`,
  );
  assert.equal(report.outcome.passed, true, report.outcome.reasons.join('; '));
});

Then(/^(PLUGIN-[A-Z-]+) passes on the run "([^"]*)"$/, function (this: PbxWorld, id: string, run: string) {
  const clause = outcome(this, id);
  assert.ok(clause.runs.includes(run), `${id} was not judged on the run ${run}`);
  const broken = clause.findings.filter((f) => f.run === run);
  assert.deepEqual(broken, [], `${id} broken on the run ${run}`);
});
