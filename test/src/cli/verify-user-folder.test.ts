/**
 * Issue 20, items 4 and 12: what `verify` writes and reads in the user's folder.
 * - On a colour terminal node:assert colours its diff; none of the three reports carries the
 *   escape codes (`[32m+ actual` in the HTML, `[32m` in the JUnit, `\u001b` in the JSON).
 * - A project's own `features/expected-failures/<target>.yaml` is read from the working directory,
 *   not from inside the installed tool.
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { verifyCommand } from '../../../src/cli/verify-command.ts';
import { listeningPort, sampleTarget } from '../runner/loopback-ports.ts';
import { createThrowawaySuite } from '../runner/throwaway-suite.ts';
import { captureIo } from './capture-io.ts';

const COLOUR_FEATURE = `Feature: colour
  @MON-B
  Scenario: fails with a coloured diff
    Given a step whose assertion diff is coloured
`;

const COLOUR_STEPS = `import assert from 'node:assert/strict';
import { Given } from '${import.meta.resolve('@cucumber/cucumber')}';
Given('a step whose assertion diff is coloured', function () {
  assert.deepEqual({ sections: ['<<<pbx_sip>>>'] }, { sections: ['<<<pbx_trunks>>>'] });
});
`;

/** Makes this process's stderr look like a colour terminal, as `verify` sees it in a shell. */
function colourTerminal(): () => void {
  const stderr = process.stderr as unknown as { isTTY: boolean; hasColors?: () => boolean };
  const saved = { isTTY: stderr.isTTY, hasColors: stderr.hasColors, force: process.env['FORCE_COLOR'] };
  stderr.isTTY = true;
  stderr.hasColors = () => true;
  process.env['FORCE_COLOR'] = '1';
  return () => {
    stderr.isTTY = saved.isTTY;
    if (saved.hasColors === undefined) delete stderr.hasColors;
    else stderr.hasColors = saved.hasColors;
    if (saved.force === undefined) delete process.env['FORCE_COLOR'];
    else process.env['FORCE_COLOR'] = saved.force;
  };
}

test('on a colour terminal no report carries ANSI escape codes, and the message stays readable', async () => {
  const suite = await createThrowawaySuite(COLOUR_FEATURE);
  await writeFile(join(suite.dir, 'steps', 'colour.ts'), COLOUR_STEPS);
  const restore = colourTerminal();
  try {
    // The premise: assertion messages made now are coloured.
    assert.throws(
      () => assert.deepEqual({ a: 1 }, { a: 2 }),
      (error: Error) => error.message.includes('\u001b['),
    );
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
    assert.equal(code, 1, io.out() + io.err());
    for (const file of ['compatibility.json', 'compatibility.html', 'junit.xml']) {
      const text = await readFile(join(suite.dir, 'out', file), 'utf8');
      assert.ok(!text.includes('\u001b'), `${file} holds an ESC byte`);
      assert.ok(!/\\u001b|\[3\d?m|\[39m/i.test(text), `${file} holds an escaped colour code`);
      assert.match(text, /\+ actual - expected/, `${file} keeps the diff's legend`);
      assert.match(text, /pbx_trunks/, `${file} keeps the diff`);
    }
  } finally {
    restore();
    await suite.cleanup();
  }
});

test("a project's own features/expected-failures/<target>.yaml is read from the working directory", async () => {
  const suite = await createThrowawaySuite();
  const web = await listeningPort();
  const monitoring = await listeningPort();
  try {
    await mkdir(join(suite.dir, 'features', 'expected-failures'), { recursive: true });
    await writeFile(
      join(suite.dir, 'features', 'expected-failures', 'lab.yaml'),
      '- {clause: MON-B, reason: known vendor gap}\n',
    );
    await writeFile(
      join(suite.dir, 'target.json'),
      JSON.stringify(sampleTarget({ web: web.port, monitoring: monitoring.port })),
    );
    const io = captureIo(suite.dir);
    const code = await verifyCommand(
      {
        target: 'target.json',
        tags: 'not @XMLRPC-A',
        reports: 'out',
        quiet: true,
        catalogPath: join(suite.dir, 'clauses.yaml'),
        suite: { cwd: suite.dir },
        credentials: async () => [],
      },
      io,
    );
    assert.equal(code, 0, io.out() + io.err());
    assert.match(io.out(), /expected failures \(1\): MON-B/);
    assert.match(io.out(), /baseline: features\/expected-failures\/lab\.yaml/);
    const report = JSON.parse(await readFile(join(suite.dir, 'out', 'compatibility.json'), 'utf8')) as {
      baseline: { file: string; present: boolean };
    };
    assert.equal(report.baseline.file, join(suite.dir, 'features', 'expected-failures', 'lab.yaml'));
    assert.equal(report.baseline.present, true);
  } finally {
    await web.close();
    await monitoring.close();
    await suite.cleanup();
  }
});
