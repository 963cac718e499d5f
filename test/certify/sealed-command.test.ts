/**
 * `certify-plugin` says whether its runs were sealed (issue 28 §4): in the summary, the JSON
 * (against its schema), the HTML and JUnit; where bubblewrap is missing, "not sealed" with each
 * protection absent, and `--require-sealed` exits 2 before any run.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { BWRAP_VARIABLE } from '../../src/certify/sandbox.ts';
import { validateReport } from '../../src/report/validate-report.ts';
import { certify, sealedOrSkip, tempDir, throwawayPlugin } from './support.ts';

const MISSING = { ...process.env, [BWRAP_VARIABLE]: '/nonexistent/bwrap' };
const OK_PLUGIN = '#!/bin/sh\necho "PBX OK - $1:$2 answers"\n';

test('--require-sealed where bubblewrap is missing: exit 2 with one line naming what is absent, nothing written', async (t) => {
  const dir = await tempDir(t);
  await throwawayPlugin(dir, 'ok.sh', OK_PLUGIN);
  const result = await certify(
    dir,
    [
      '--require-sealed',
      '--reports',
      'reports',
      '--scenario',
      'healthy',
      '--',
      './ok.sh',
      '{host}',
      '{port}',
    ],
    MISSING,
  );
  assert.equal(result.code, 2, result.err);
  assert.equal(result.err.trim().split('\n').length, 1, result.err);
  assert.match(
    result.err,
    /--require-sealed: the plug-in cannot run sealed: bubblewrap \(\/nonexistent\/bwrap\) cannot be run: not found \(absent: read-only-filesystem, fresh-temp-folders, pid-namespace\)/,
  );
  // No run, no report.
  assert.equal(existsSync(join(dir, 'reports', 'compatibility.json')), false);
});

test('without bubblewrap the certification runs and every report says "not sealed" and what is absent', async (t) => {
  const dir = await tempDir(t);
  await throwawayPlugin(dir, 'ok.sh', OK_PLUGIN);
  const result = await certify(
    dir,
    ['--reports', 'reports', '--scenario', 'healthy', '--runs', '0', '--', './ok.sh', '{host}', '{port}'],
    MISSING,
  );
  assert.ok(result.code === 0 || result.code === 1, result.err);
  assert.match(
    result.out,
    /NOT SEALED: bubblewrap \(\/nonexistent\/bwrap\) cannot be run: not found; absent: read-only-filesystem, fresh-temp-folders, pid-namespace/,
  );
  const report = await result.report();
  assert.deepEqual(validateReport(report), []);
  assert.equal(report.sandbox?.sealed, false);
  assert.deepEqual(
    report.sandbox?.protections.map((p) => [p.name, p.present]),
    [
      ['environment', true],
      ['read-only-filesystem', false],
      ['fresh-temp-folders', false],
      ['pid-namespace', false],
      ['no-control-plane', true],
    ],
  );
  const html = await readFile(join(dir, 'reports', 'compatibility.html'), 'utf8');
  assert.match(html, /<div id="sandbox" class="outcome bad">Not sealed: bubblewrap/);
  assert.match(html, /<strong>absent<\/strong>: <code>pid-namespace<\/code>/);
  const junit = await readFile(join(dir, 'reports', 'junit.xml'), 'utf8');
  assert.match(junit, /<property name="sandbox.sealed" value="no"\/>/);
  assert.match(junit, /<property name="sandbox.pid-namespace" value="absent"\/>/);
  assert.match(junit, /NOT SEALED: /);
});

test('with bubblewrap the reports say sealed, with the tool and every protection present', async (t) => {
  if (!(await sealedOrSkip(t))) return;
  const dir = await tempDir(t);
  await throwawayPlugin(dir, 'ok.sh', OK_PLUGIN);
  const result = await certify(dir, [
    '--require-sealed',
    '--reports',
    'reports',
    '--scenario',
    'healthy',
    '--runs',
    '0',
    '--',
    './ok.sh',
    '{host}',
    '{port}',
  ]);
  assert.ok(result.code === 0 || result.code === 1, result.err);
  assert.match(
    result.out,
    /sealed \(bubblewrap [\d.]+\): environment, read-only-filesystem, fresh-temp-folders, pid-namespace, no-control-plane/,
  );
  const report = await result.report();
  assert.deepEqual(validateReport(report), []);
  assert.equal(report.sandbox?.sealed, true);
  assert.ok(report.sandbox?.protections.every((p) => p.present));
  const junit = await readFile(join(dir, 'reports', 'junit.xml'), 'utf8');
  assert.match(junit, /<property name="sandbox.sealed" value="yes"\/>/);
});
