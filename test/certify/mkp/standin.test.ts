import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { pythonProblem } from '../../../src/certify/mkp/run-agent-plugins.ts';

const TESTS = fileURLToPath(new URL('./python/', import.meta.url));
const noPython = pythonProblem() ?? false;

test('the cmk.agent_based.v2 stand-in passes its Python tests (API reference examples, the docs plug-in example)', {
  skip: noPython,
}, () => {
  const run = spawnSync(
    'python3',
    ['-I', '-B', '-m', 'unittest', 'discover', '-s', TESTS, '-t', TESTS, '-v'],
    {
      encoding: 'utf8',
      timeout: 120_000,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8' },
    },
  );
  assert.equal(run.status, 0, run.stderr);
  const ran = /Ran (\d+) tests?/.exec(run.stderr);
  assert.ok(ran && Number(ran[1]) >= 25, `too few Python tests ran: ${run.stderr.slice(-500)}`);
});
