/**
 * Issue 20, item 5: the reproduce lines of a `certify-plugin` report (HTML and JUnit) are
 * `npx pbx-conformance certify-plugin …` lines that run and reproduce the failure, never
 * `verify --target <expectations file>` (which exits 2).
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodeHTML } from 'entities';
import { splitCommandLine } from '../../src/certify/command-line.ts';
import { certify, tempDir, throwawayPlugin } from './support.ts';

/** The reproduce lines of the HTML (`<pre class="cmd">`) and of the JUnit (after `reproduce:`). */
async function reproduceLines(reports: string): Promise<{ html: string[]; junit: string[] }> {
  const html = await readFile(join(reports, 'compatibility.html'), 'utf8');
  const junit = await readFile(join(reports, 'junit.xml'), 'utf8');
  return {
    html: [...html.matchAll(/<pre class="cmd">([^<]*)<\/pre>/g)].flatMap((m) =>
      decodeHTML(m[1] ?? '').split('\n'),
    ),
    junit: [...junit.matchAll(/reproduce:\n([^<]*)/g)].flatMap((m) =>
      decodeHTML(m[1] ?? '')
        .trim()
        .split('\n'),
    ),
  };
}

test('certify-plugin reports reproduce a failure with a certify-plugin line that runs', async (t) => {
  const dir = await tempDir(t);
  await throwawayPlugin(dir, 'check_warn.sh', '#!/bin/sh\necho "WARNING - always"\nexit 1\n');
  await writeFile(join(dir, 'expect.yaml'), 'scenarios:\n  healthy: { state: OK }\n');
  const first = await certify(dir, [
    '--expectations',
    'expect.yaml',
    '--scenario',
    'healthy',
    '--reports',
    'first',
    '--',
    './check_warn.sh',
    '-H',
    '{host}',
  ]);
  assert.equal(first.code, 1, first.out + first.err);
  const lines = await reproduceLines(join(dir, 'first'));
  assert.ok(lines.html.length > 0 && lines.junit.length > 0, JSON.stringify(lines));
  assert.deepEqual(lines.html, lines.junit);
  const [line = ''] = lines.html;
  assert.equal(
    line,
    'npx pbx-conformance certify-plugin --expectations expect.yaml --scenario healthy -- ./check_warn.sh -H {host}',
  );
  for (const each of [...lines.html, ...lines.junit]) assert.doesNotMatch(each, /\bverify\b/);

  // The line runs (as the CLI, words split as a shell splits them) and fails the same way.
  const words = splitCommandLine(line);
  assert.deepEqual(words.slice(0, 3), ['npx', 'pbx-conformance', 'certify-plugin']);
  const again = await certify(dir, [...words.slice(3), '--reports', 'again']);
  assert.equal(again.code, 1, again.out + again.err);
  assert.match(again.out, /FAIL\s+PLUGIN-STATE-AGREES-WITH-PBX\s+must\s*: healthy: state WARNING/);
  assert.match(again.out, /broke\s+healthy\s+WARNING/);
});
