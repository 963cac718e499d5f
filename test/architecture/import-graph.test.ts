import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { PROJECT_ROOT } from '../../src/catalog/project-paths.ts';

/** Folders whose TypeScript makes up the product (tests and benches may import anything). */
const PRODUCT_DIRS = ['src', 'simulators', 'steps'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import (value or type-only, static or dynamic) of every product file, by project path. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of PRODUCT_DIRS.flatMap((dir) => tsFiles(join(PROJECT_ROOT, dir)))) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((ref) => ref.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(PROJECT_ROOT, resolve(dirname(file), name)));
    graph.set(relative(PROJECT_ROOT, file), targets);
  }
  return graph;
}

const graph = importGraph();

/** The simulator a project path belongs to (`pbx`, `fleet-controller`, …), or null outside `simulators/`. */
function simulatorOf(path: string): string | null {
  const match = /^simulators\/([^/]+)\//.exec(path);
  return match?.[1] ?? null;
}

test('no simulator imports another simulator; shared plumbing lives in simulators/shared/', () => {
  const crossings: string[] = [];
  for (const [from, targets] of graph) {
    const own = simulatorOf(from);
    if (own === null) continue;
    for (const to of targets) {
      const other = simulatorOf(to);
      if (other !== null && other !== own && other !== 'shared') crossings.push(`${from} -> ${to}`);
      if (own === 'shared' && other !== null && other !== 'shared') crossings.push(`${from} -> ${to}`);
    }
  }
  assert.deepEqual(crossings, []);
});

test('no import runs from src/ or simulators/ into steps/', () => {
  const backwards = [...graph].flatMap(([from, targets]) =>
    /^(src|simulators)\//.test(from)
      ? targets.filter((to) => to.startsWith('steps/')).map((to) => `${from} -> ${to}`)
      : [],
  );
  assert.deepEqual(backwards, []);
});

test('the import graph of the product has no cycle, type-only imports included', () => {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      const seen = state.get(next);
      if (seen === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
      else if (seen === undefined) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  assert.deepEqual(cycles, []);
});
