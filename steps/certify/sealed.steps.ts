/**
 * Steps of features/certify/plugin-sealed.feature: hostile plug-ins certified in a sealed run
 * (issue 28 §4; src/certify/sandbox.ts). Each asserts what the plug-in could not do, from its own
 * output and from the host after the run (no file left, no process left, the PBX as the scenario
 * set it); the clause verdicts are the Then steps of certify.steps.ts.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { After, Given, Then } from '@cucumber/cucumber';
import type { RunRecord } from '../../src/certify/certify.ts';
import { probeSandbox } from '../../src/certify/sandbox.ts';
import { watchedState } from '../../src/certify/watched-services.ts';
import { FixtureError } from '../support/fixture-error.ts';
import { memoryKey } from '../support/scenario-memory.ts';
import type { PbxWorld } from '../support/world.ts';
import type { Certification } from './support/certification.ts';
import { processesWith } from './support/host-processes.ts';

const CERTIFICATION = memoryKey<Certification>('certification');
/** The secret a process of the harness holds, and that process. */
const SECRET = memoryKey<{ name: string; value: string; holder: ChildProcess }>('sealedSecret');

/** The variables a sealed run may see (sandbox.ts, `runEnvironment`), and those the shell sets itself. */
const ALLOWED =
  /^(PATH|LANG|LANGUAGE|LC_[A-Z_]+|TZ|HOME|TMPDIR|TMP|TEMP|XDG_CACHE_HOME|XDG_STATE_HOME|PWD|SHLVL|_)$/;

function certification(world: PbxWorld): Certification {
  return world.memory.require(CERTIFICATION);
}

/** The plug-in's runs on a PBX: every run but `--help` and `--version`. */
function pluginRuns(world: PbxWorld): RunRecord[] {
  const result = certification(world).result;
  assert.ok(result, 'no certification ran: a When step must run certify-plugin first');
  return result.runs.filter((run) => run.run !== '--help' && run.run !== '--version');
}

Given('this machine can seal a plug-in run', async function (this: PbxWorld) {
  const sandbox = await probeSandbox(certification(this).harnessEnv);
  if (sandbox.report.sealed) return;
  const reason = `this machine cannot seal a plug-in run: ${sandbox.report.reason}`;
  if (process.env['PBX_REQUIRE_SEALED'] === '1') assert.fail(`PBX_REQUIRE_SEALED=1 but ${reason}`);
  throw new FixtureError(reason);
});

Given(
  'a process of the harness holds the secret {string} in its environment',
  async function (this: PbxWorld, name: string) {
    const value = `fake-ci-secret-${process.pid}-${Date.now().toString(36)}`;
    // A sleeping child with the secret in its environment, as a CI job's processes hold theirs:
    // readable through /proc/<pid>/environ by any process of the same user that shares its /proc.
    const holder = spawn('sleep', ['300'], {
      env: { PATH: process.env['PATH'], [name]: value },
      stdio: 'ignore',
    });
    await new Promise<void>((resolve, reject) => {
      holder.once('spawn', resolve);
      holder.once('error', (error) =>
        reject(new FixtureError(`the harness cannot start a process: ${error.message}`)),
      );
    });
    this.memory.set(SECRET, { name, value, holder });
    certification(this).env[name] = value;
  },
);

After({ tags: '@sealed-run' }, function (this: PbxWorld) {
  this.memory.get(SECRET)?.holder.kill('SIGKILL');
});

Then('every run of the plug-in on a PBX printed {string}', function (this: PbxWorld, text: string) {
  for (const run of pluginRuns(this))
    assert.ok(
      run.evidence?.stdout.includes(text),
      `the run ${run.run} printed: ${run.evidence?.stdout ?? '(no run)'}`,
    );
});

Then("no run of the plug-in printed the secret's value", function (this: PbxWorld) {
  const secret = this.memory.require(SECRET);
  for (const run of certification(this).result?.runs ?? []) {
    const printed = `${run.evidence?.stdout ?? ''}${run.evidence?.stderr ?? ''}`;
    assert.ok(!printed.includes(secret.value), `the run ${run.run} printed the value of ${secret.name}`);
  }
});

Then(
  'every run of the plug-in on a PBX saw only PATH, the locale variables, TZ, HOME and its own temp folders',
  function (this: PbxWorld) {
    for (const run of pluginRuns(this)) {
      const line = /^variables: (.*)$/m.exec(run.evidence?.stdout ?? '');
      assert.ok(line, `the run ${run.run} printed no variables line: ${run.evidence?.stdout}`);
      const seen = (line[1] as string).split(' ').filter(Boolean);
      const other = seen.filter((name) => !ALLOWED.test(name));
      assert.deepEqual(other, [], `the run ${run.run} saw variables of the harness`);
      assert.ok(seen.includes('PATH') && seen.includes('HOME'), `the run ${run.run} saw ${seen.join(' ')}`);
    }
  },
);

Then(
  'the run {string} of the plug-in printed {string}',
  function (this: PbxWorld, name: string, text: string) {
    const run = pluginRuns(this).find((r) => r.run === name);
    assert.ok(run, `no run ${name}`);
    assert.ok(run.evidence?.stdout.includes(text), `the run ${name} printed: ${run.evidence?.stdout}`);
  },
);

Then(
  /^after the run the PBX still gives "([^"]*)" the state (OK|WARNING|CRITICAL|UNKNOWN)$/,
  function (this: PbxWorld, pattern: string, state: string) {
    for (const run of pluginRuns(this)) {
      const served = run.evidence?.servedText;
      assert.ok(typeof served === 'string', `the run ${run.run} has no served agent text`);
      const watched = watchedState(served, [pattern]);
      assert.ok(watched, `the served text of ${run.run} has no service ${pattern}`);
      assert.equal(
        watched.worst,
        state,
        `after the run ${run.run} the PBX gives ${pattern} ${watched.worst}`,
      );
    }
  },
);

Then(
  'no file the plug-in kept is left in the project folder, the home folder or \\/var\\/tmp',
  function (this: PbxWorld) {
    const name = 'pbx-certify-sealed-kept-answer.txt';
    const places = [join(certification(this).dir, name), join(homedir(), `.${name}`), join('/var/tmp', name)];
    for (const place of places) assert.equal(existsSync(place), false, `${place} outlived the run`);
  },
);

Then('no run of the plug-in took more than {int} seconds', function (this: PbxWorld, seconds: number) {
  for (const run of pluginRuns(this))
    assert.ok(
      (run.evidence?.durationMs ?? Number.POSITIVE_INFINITY) <= seconds * 1000,
      `the run ${run.run} took ${run.evidence?.durationMs} ms`,
    );
});

Then('no process the plug-in started is still running', async function (this: PbxWorld) {
  const marker = join(certification(this).dir, 'left-behind');
  // The kernel ends a PID namespace's processes when it ends; give it a moment to reap them.
  for (let i = 0; i < 20 && processesWith(marker).length > 0; i++)
    await new Promise((r) => setTimeout(r, 50));
  const left = processesWith(marker);
  for (const pid of left) process.kill(pid, 'SIGKILL');
  assert.deepEqual(
    left,
    [],
    `processes the plug-in started outlived its run (now ended): ${left.join(', ')}`,
  );
});
