import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

// Issue 32 (review): the console's views draw their tables through one component
// (console/src/data-table.tsx), so a header row, its scopes and the row keys are written once.

const SOURCES = new URL('../../console/src/', import.meta.url);

test('every table of the console is drawn by DataTable: no view writes a <table> of its own', () => {
  const views = readdirSync(SOURCES).filter((name) => name.endsWith('.tsx') && name !== 'data-table.tsx');
  assert.ok(views.length >= 4, `${views.length} view files`);
  const own = views.filter((name) => /<table\b/.test(readFileSync(new URL(name, SOURCES), 'utf8')));
  assert.deepEqual(own, []);
  const using = views.filter((name) => /<DataTable\b/.test(readFileSync(new URL(name, SOURCES), 'utf8')));
  assert.deepEqual(using.sort(), ['fleet-view.tsx', 'pbx-view.tsx', 'recording-view.tsx']);
});
