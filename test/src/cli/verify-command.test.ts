import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { XMLValidator } from 'fast-xml-parser';
import { run } from '../../../src/cli/run.ts';
import { verifyCommand } from '../../../src/cli/verify-command.ts';
import { validateReport } from '../../../src/report/validate-report.ts';
import { closedPort, listeningPort, sampleTarget } from '../runner/loopback-ports.ts';
import { createThrowawaySuite } from '../runner/throwaway-suite.ts';
import { captureIo } from './capture-io.ts';

test('verify writes three consistent reports and passes when the only failure is listed', async () => {
  const suite = await createThrowawaySuite();
  const web = await listeningPort();
  const monitoring = await listeningPort();
  try {
    await writeFile(join(suite.dir, 'lab.yaml'), '- {clause: MON-B, reason: known vendor gap}\n');
    await writeFile(
      join(suite.dir, 'target.json'),
      JSON.stringify(sampleTarget({ web: web.port, monitoring: monitoring.port })),
    );
    const io = captureIo(suite.dir);
    const code = await verifyCommand(
      {
        target: 'target.json',
        // XMLRPC-A is not verifiable on this target: run alone it would fail the named-interface gate.
        tags: 'not @XMLRPC-A',
        reports: 'out',
        quiet: true,
        catalogPath: join(suite.dir, 'clauses.yaml'),
        expectedFailuresDir: suite.dir,
        suite: { cwd: suite.dir },
        credentials: async () => [],
      },
      io,
    );
    assert.equal(code, 0, io.out() + io.err());
    const summary = io.out();
    assert.match(summary, /^target lab: 2 scenarios \(1 passed, 1 failed, 0 skipped\)/);
    assert.match(summary, /MON\s+1\/2\s+1\s+0\s+0\s+0\s+1/);
    assert.match(summary, /expected failures \(1\): MON-B/);
    assert.match(summary, /PASSED/);
    assert.match(summary, /reports: out\/compatibility\.json, out\/compatibility\.html, out\/junit\.xml/);

    const json: unknown = JSON.parse(await readFile(join(suite.dir, 'out', 'compatibility.json'), 'utf8'));
    assert.deepEqual(validateReport(json), []);
    const report = json as {
      metadata: { target: string; targetFile: string };
      baseline: { expectedFailures: string[] };
    };
    assert.equal(report.metadata.target, 'lab');
    assert.equal(report.metadata.targetFile, join(suite.dir, 'target.json'));
    assert.deepEqual(report.baseline.expectedFailures, ['MON-B']);
    const html = await readFile(join(suite.dir, 'out', 'compatibility.html'), 'utf8');
    assert.ok(html.includes('expected &lt;agent&gt; text'));
    const junit = await readFile(join(suite.dir, 'out', 'junit.xml'), 'utf8');
    assert.equal(XMLValidator.validate(junit), true);
    assert.match(junit, /failures="0"/);
    assert.equal(io.err(), '');
  } finally {
    await web.close();
    await monitoring.close();
    await suite.cleanup();
  }
});

test('verify fails on an unlisted failure and on a listed clause that now passes', async () => {
  const suite = await createThrowawaySuite();
  try {
    await writeFile(join(suite.dir, 'embedded.yaml'), '- {clause: MON-A, reason: used to fail}\n');
    const io = captureIo(suite.dir);
    const code = await verifyCommand(
      {
        reports: 'out',
        quiet: true,
        catalogPath: join(suite.dir, 'clauses.yaml'),
        expectedFailuresDir: suite.dir,
        suite: { cwd: suite.dir },
      },
      io,
    );
    assert.equal(code, 1);
    assert.match(
      io.out(),
      /FAILED: 1 clause\(s\) failed that .*embedded\.yaml does not list as expected failures: MON-B/,
    );
    assert.match(
      io.out(),
      /FAILED: 1 clause\(s\) listed as expected failures now pass; remove them from .*: MON-A/,
    );
  } finally {
    await suite.cleanup();
  }
});

test('verify fails when no scenario ran; a bad tag expression and a malformed baseline are harness errors', async () => {
  const suite = await createThrowawaySuite();
  try {
    const options = {
      reports: 'out',
      quiet: true,
      catalogPath: join(suite.dir, 'clauses.yaml'),
      expectedFailuresDir: suite.dir,
      suite: { cwd: suite.dir },
    };
    const io = captureIo(suite.dir);
    assert.equal(await verifyCommand({ ...options, tags: '@NO-SUCH-TAG' }, io), 1);
    assert.match(io.out(), /FAILED: no scenario ran/);

    await assert.rejects(
      verifyCommand({ ...options, tags: '@a and (' }, captureIo(suite.dir)),
      /could not be parsed/,
    );

    await writeFile(join(suite.dir, 'embedded.yaml'), '- {clause: MON-NOPE, reason: r}\n');
    await assert.rejects(
      verifyCommand(options, captureIo(suite.dir)),
      (error: Error & { exitCode?: number }) => {
        assert.equal(error.exitCode, 2);
        assert.match(error.message, /MON-NOPE is not a catalog clause id/);
        return true;
      },
    );
  } finally {
    await suite.cleanup();
  }
});

function assertOneErrorLine(text: string, pattern: RegExp): void {
  const lines = text.split('\n').filter((line) => line.length > 0);
  assert.equal(lines.length, 1, text);
  assert.match(lines[0] ?? '', /^pbx-conformance: /);
  assert.match(lines[0] ?? '', pattern);
}

test('a target file that does not match the schema is a harness error: exit 2, one line, no scenario', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-verify-'));
  try {
    const target = sampleTarget({ web: 8080, monitoring: 6556 });
    (target['pbx'] as Record<string, unknown>)['webUrl'] = 'ftp://pbx.example';
    await writeFile(join(dir, 'target.json'), JSON.stringify(target));
    const io = captureIo(dir);
    assert.equal(await run(['verify', '--target', 'target.json'], io), 2);
    assertOneErrorLine(
      io.err(),
      /target file .*target\.json: does not match schemas\/target\.schema\.json: \/pbx\/webUrl must match pattern/,
    );
    assert.equal(io.out(), '');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a target where nothing answers is a harness error: exit 2, one line, no scenario', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-verify-'));
  try {
    const web = await closedPort();
    const monitoring = await closedPort();
    await writeFile(join(dir, 'target.json'), JSON.stringify(sampleTarget({ web, monitoring })));
    const io = captureIo(dir);
    assert.equal(await run(['verify', '--target', 'target.json', '--reports', 'out'], io), 2);
    assertOneErrorLine(
      io.err(),
      new RegExp(
        `target unreachable: pbx\\.webUrl 127\\.0\\.0\\.1:${web} does not answer: ECONNREFUSED, pbx\\.monitoring 127\\.0\\.0\\.1:${monitoring} does not answer`,
      ),
    );
    assert.equal(io.out(), '');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a partly reachable target warns once per silent endpoint and still runs the suite', async () => {
  const suite = await createThrowawaySuite();
  const web = await listeningPort();
  try {
    const monitoring = await closedPort();
    const control = await closedPort();
    await writeFile(
      join(suite.dir, 'target.json'),
      JSON.stringify(sampleTarget({ web: web.port, monitoring, control })),
    );
    const io = captureIo(suite.dir);
    const code = await verifyCommand(
      {
        target: 'target.json',
        reports: 'out',
        quiet: true,
        catalogPath: join(suite.dir, 'clauses.yaml'),
        expectedFailuresDir: suite.dir,
        suite: { cwd: suite.dir },
      },
      io,
    );
    // The throwaway suite's unlisted failure decides the verdict: the run happened.
    assert.equal(code, 1);
    assert.match(io.out(), /^target lab: 3 scenarios/);
    const warnings = io
      .err()
      .split('\n')
      .filter((line) => line.length > 0);
    assert.deepEqual(warnings, [
      `pbx-conformance: warning: pbx.monitoring 127.0.0.1:${monitoring} does not answer: ECONNREFUSED (a data endpoint may be closed on purpose)`,
      `pbx-conformance: warning: pbx.controlUrl 127.0.0.1:${control} does not answer: ECONNREFUSED`,
    ]);
  } finally {
    await web.close();
    await suite.cleanup();
  }
});

test('the typo target exits 2 with the suggestion, before anything else', async () => {
  const suite = await createThrowawaySuite();
  try {
    const target = { ...sampleTarget({ web: 1, monitoring: 1 }), maintainance: { token: 'x' } };
    await writeFile(join(suite.dir, 'typo.json'), JSON.stringify(target));
    const io = captureIo(suite.dir);
    const code = await run(['verify', '--target', 'typo.json', '--reports', 'out', '--quiet'], io);
    assert.equal(code, 2);
    assert.match(io.err(), /unknown key "maintainance" at \/ \(did you mean "maintenance"\?\)/);
    assert.equal(io.err().trim().split('\n').length, 1);
    assert.equal(io.out(), '');
  } finally {
    await suite.cleanup();
  }
});

test('an unwritable reports folder exits 2 before the first scenario (no endless mkdir below /proc)', async () => {
  const suite = await createThrowawaySuite();
  try {
    const io = captureIo(suite.dir);
    const code = await verifyCommand(
      {
        reports: '/proc/nope',
        quiet: true,
        catalogPath: join(suite.dir, 'clauses.yaml'),
        expectedFailuresDir: suite.dir,
        suite: { cwd: suite.dir },
      },
      io,
    ).catch((error: { exitCode?: number; message: string }) => {
      assert.match(error.message, /reports folder \/proc\/nope cannot be created/);
      return error.exitCode;
    });
    assert.equal(code, 2);
    assert.equal(io.out(), '');
  } finally {
    await suite.cleanup();
  }
});

test('a rejected credential stops the run: one line per credential, exit 2, no scenario', async () => {
  const suite = await createThrowawaySuite();
  const web = await listeningPort();
  try {
    await writeFile(
      join(suite.dir, 'target.json'),
      JSON.stringify(sampleTarget({ web: web.port, monitoring: web.port })),
    );
    const io = captureIo(suite.dir);
    const error = await verifyCommand(
      {
        target: 'target.json',
        reports: 'out',
        quiet: true,
        catalogPath: join(suite.dir, 'clauses.yaml'),
        expectedFailuresDir: suite.dir,
        suite: { cwd: suite.dir },
        credentials: async () => [
          { credential: 'XML-RPC login "admin"', outcome: 'rejected', detail: 'fault 1' },
          { credential: 'maintenance token', outcome: 'rejected', detail: 'HTTP 401' },
          { credential: 'fleet account partner', outcome: 'accepted', detail: 'HTTP 200' },
        ],
      },
      io,
    ).then(
      () => assert.fail('expected a harness error'),
      (e: { exitCode: number; message: string }) => e,
    );
    assert.equal(error.exitCode, 2);
    assert.equal(
      io.err(),
      'pbx-conformance: credential rejected: XML-RPC login "admin" (fault 1)\n' +
        'pbx-conformance: credential rejected: maintenance token (HTTP 401)\n',
    );
    assert.equal(io.out(), '');
  } finally {
    await web.close();
    await suite.cleanup();
  }
});

test('coverage gates: a named interface with zero verified clauses, --require and --fail-under fail the run', async () => {
  const suite = await createThrowawaySuite();
  const web = await listeningPort();
  try {
    await writeFile(
      join(suite.dir, 'target.json'),
      JSON.stringify(sampleTarget({ web: web.port, monitoring: web.port })),
    );
    await writeFile(join(suite.dir, 'gaps.yaml'), '- {clause: MON-B, reason: known gap}\n');
    const io = captureIo(suite.dir);
    const code = await verifyCommand(
      {
        target: 'target.json',
        baseline: 'gaps.yaml',
        require: ['MON'],
        failUnder: 50,
        reports: 'out',
        quiet: true,
        catalogPath: join(suite.dir, 'clauses.yaml'),
        suite: { cwd: suite.dir },
        credentials: async () => [],
      },
      io,
    );
    assert.equal(code, 1);
    const out = io.out();
    assert.match(
      out,
      /FAILED: interface XMLRPC, which the target names, has zero verified clauses \(1 not verifiable: the target has no control plane\)/,
    );
    assert.match(
      out,
      /FAILED: coverage 33\.3 % \(1 of 3 testable clauses of MON, XMLRPC pass\) is under --fail-under 50 %/,
    );
    assert.doesNotMatch(out, /--require MON/, 'MON-A passed and MON-B failed: both verified');
    assert.match(out, /expected failures \(1\): MON-B/, 'listed in the --baseline file');
    assert.doesNotMatch(out, /does not list/);
  } finally {
    await web.close();
    await suite.cleanup();
  }
});

test('a fixture the harness cannot set up is not verifiable, never a failure; for the whole run it is exit 2', async () => {
  const mixed = await createThrowawaySuite(`Feature: fixtures
  @MON-A
  Scenario: passes
    Given a passing step

  @MON-B
  Scenario: its ports cannot be found
    Given a step whose fixture cannot be set up
`);
  try {
    const io = captureIo(mixed.dir);
    const options = {
      reports: 'out',
      quiet: true,
      catalogPath: join(mixed.dir, 'clauses.yaml'),
      expectedFailuresDir: mixed.dir,
      suite: { cwd: mixed.dir },
    };
    assert.equal(await verifyCommand(options, io), 0, io.out());
    const json = JSON.parse(await readFile(join(mixed.dir, 'out', 'compatibility.json'), 'utf8')) as {
      interfaces: Array<{ clauses: Array<{ id: string; verdict: string; reason?: string }> }>;
    };
    const monB = json.interfaces.flatMap((i) => i.clauses).find((c) => c.id === 'MON-B');
    assert.equal(monB?.verdict, 'not-verifiable');
    assert.equal(monB?.reason, 'harness fixture: found no 2 consecutive free ports');
  } finally {
    await mixed.cleanup();
  }
  const only = await createThrowawaySuite(`Feature: fixtures
  @MON-B
  Scenario: its ports cannot be found
    Given a step whose fixture cannot be set up
`);
  try {
    await assert.rejects(
      verifyCommand(
        {
          reports: 'out',
          quiet: true,
          catalogPath: join(only.dir, 'clauses.yaml'),
          expectedFailuresDir: only.dir,
          suite: { cwd: only.dir },
        },
        captureIo(only.dir),
      ),
      (error: { exitCode?: number; message: string }) =>
        error.exitCode === 2 &&
        error.message ===
          'the harness could not set up its fixtures for any scenario: found no 2 consecutive free ports',
    );
  } finally {
    await only.cleanup();
  }
});

test('--repeat runs the same steps every round: a stable suite is stable, not flaky', async () => {
  const suite = await createThrowawaySuite();
  try {
    await writeFile(join(suite.dir, 'lab.yaml'), '- {clause: MON-B, reason: known vendor gap}\n');
    const io = captureIo(suite.dir);
    const code = await verifyCommand(
      {
        tags: '@MON-A or @MON-B',
        reports: 'out',
        quiet: true,
        repeat: 3,
        catalogPath: join(suite.dir, 'clauses.yaml'),
        expectedFailuresDir: suite.dir,
        baseline: join(suite.dir, 'lab.yaml'),
        suite: { cwd: suite.dir },
      },
      io,
    );
    // Each round runs both scenarios with their steps defined: 3 passes and 3 listed failures.
    assert.doesNotMatch(io.out(), /flaky/, io.out());
    assert.match(io.out(), /6 scenarios \(3 passed, 3 failed, 0 skipped\)/, io.out());
    assert.equal(code, 0, io.out() + io.err());
  } finally {
    await suite.cleanup();
  }
});

test('a step without a step definition is a harness error (exit 2), never a failure of the target', async () => {
  const suite = await createThrowawaySuite(
    `Feature: throwaway\n  @MON-A\n  Scenario: a step the harness lacks\n    Given a passing step\n    And a step nobody defined\n`,
  );
  try {
    await assert.rejects(
      verifyCommand(
        {
          reports: 'out',
          quiet: true,
          catalogPath: join(suite.dir, 'clauses.yaml'),
          expectedFailuresDir: suite.dir,
          suite: { cwd: suite.dir },
        },
        captureIo(suite.dir),
      ),
      (error: Error & { exitCode?: number }) => {
        assert.equal(error.exitCode, 2);
        assert.equal(
          error.message,
          'the harness has no single step definition for "a step nobody defined" (features/throwaway.feature): undefined',
        );
        return true;
      },
    );
  } finally {
    await suite.cleanup();
  }
});
