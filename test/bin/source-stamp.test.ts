import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
// @ts-expect-error: plain JavaScript of the package's bin/, without type declarations
import { compiledIsCurrent, STAMP_FILE, sourceStamp } from '../../bin/source-stamp.js';

/**
 * Issue 31 §1: in the repository `pbx-conformance` runs the compiled dist/ instead of the
 * TypeScript sources only while dist/ was built from the sources exactly as they are: any source
 * changed, added or removed since the build, or no stamp at all, runs the sources.
 */
function tree(t: { after(fn: () => void): void }): string {
  const root = mkdtempSync(join(tmpdir(), 'source-stamp-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  for (const dir of ['src/cli', 'steps', 'features', 'dist/src/cli'])
    mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'package.json'), '{}');
  writeFileSync(join(root, 'src/cli/main.ts'), 'export {};\n');
  writeFileSync(join(root, 'steps/a.ts'), 'export {};\n');
  writeFileSync(join(root, 'features/a.feature'), 'Feature: a\n');
  writeFileSync(join(root, 'dist/src/cli/main.js'), 'export {};\n');
  return root;
}

const stamp = (root: string) =>
  writeFileSync(join(root, 'dist', STAMP_FILE), JSON.stringify({ sources: sourceStamp(root) }));

test('a dist/ stamped with the sources as they are is current', (t) => {
  const root = tree(t);
  assert.equal(compiledIsCurrent(root), false, 'no stamp: the sources run');
  stamp(root);
  assert.equal(compiledIsCurrent(root), true);
});

test('a source changed, added or removed after the build makes dist/ stale', (t) => {
  const root = tree(t);
  stamp(root);
  const later = new Date(Date.now() + 5_000);
  utimesSync(join(root, 'steps/a.ts'), later, later);
  assert.equal(compiledIsCurrent(root), false, 'a source touched');
  stamp(root);
  writeFileSync(join(root, 'features/b.feature'), 'Feature: b\n');
  assert.equal(compiledIsCurrent(root), false, 'a feature added');
  stamp(root);
  rmSync(join(root, 'features/b.feature'));
  assert.equal(compiledIsCurrent(root), false, 'a feature removed');
  stamp(root);
  writeFileSync(join(root, 'package.json'), '{"x":1}');
  assert.equal(compiledIsCurrent(root), false, 'the package settings changed');
});

test('a stamp without the compiled entry, or an unreadable stamp, is not current', (t) => {
  const root = tree(t);
  stamp(root);
  rmSync(join(root, 'dist/src/cli/main.js'));
  assert.equal(compiledIsCurrent(root), false);
  writeFileSync(join(root, 'dist/src/cli/main.js'), 'export {};\n');
  writeFileSync(join(root, 'dist', STAMP_FILE), 'not json');
  assert.equal(compiledIsCurrent(root), false);
});
