import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';
import { PROJECT_ROOT } from '../../src/core/project-paths.ts';

/** Folders whose TypeScript makes up the product (tests and benches may import anything). */
const PRODUCT_DIRS = ['src', 'simulators', 'steps'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every folder with TypeScript that may import a simulator: the product, its tests and benches. */
const ALL_DIRS = [...PRODUCT_DIRS, 'test', 'bench', 'scripts'];

/** Every relative import (value or type-only, static or dynamic) of every file in `dirs`, by project path. */
function importGraph(dirs: readonly string[] = PRODUCT_DIRS): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap((dir) => tsFiles(join(PROJECT_ROOT, dir)))) {
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

/**
 * The one simulator that stands on others (issue 30 §3): the fleet engine starts PBXs and a fleet
 * controller, through their front doors only. No other simulator imports it.
 */
const ASSEMBLY = 'fleet';

/** Every import from one simulator into another but the shared floor (the fleet engine's front-door imports excepted). */
function simulatorCrossings(imports: Map<string, string[]>): string[] {
  const crossings: string[] = [];
  for (const [from, targets] of imports) {
    const own = simulatorOf(from);
    if (own === null) continue;
    for (const to of targets) {
      const other = simulatorOf(to);
      if (other === null || other === own || other === 'shared') continue;
      if (own === ASSEMBLY && to === `simulators/${other}/index.ts` && other !== 'shared') continue;
      crossings.push(`${from} -> ${to}`);
    }
  }
  return crossings;
}

test('no simulator imports another simulator (the fleet engine only their front doors); shared plumbing lives in simulators/shared/', () => {
  assert.deepEqual(simulatorCrossings(graph), []);
});

test('simulators stand below the harness: nothing in simulators/ imports src/', () => {
  const upward = [...graph].flatMap(([from, targets]) =>
    from.startsWith('simulators/')
      ? targets.filter((to) => to.startsWith('src/')).map((to) => `${from} -> ${to}`)
      : [],
  );
  assert.deepEqual(upward, []);
});

/**
 * The front-door rule. A simulator's `index.ts` exports what the outside may use; no file outside
 * `simulators/<name>/` imports anything else of it. The one exception are the unit tests of a
 * simulator's internals, which mirror its tree under `test/simulators/<name>/` and may import what
 * they test. `simulators/shared/` is the floor, not a simulator: anyone may import it.
 */
test('nothing outside a simulator imports its internals, only its index.ts', () => {
  const trespasses: string[] = [];
  for (const [from, targets] of importGraph(ALL_DIRS)) {
    for (const to of targets) {
      const sim = simulatorOf(to);
      if (sim === null || sim === 'shared' || to === `simulators/${sim}/index.ts`) continue;
      if (from.startsWith(`simulators/${sim}/`) || from.startsWith(`test/simulators/${sim}/`)) continue;
      trespasses.push(`${from} -> ${to}`);
    }
  }
  assert.deepEqual(trespasses, []);
});

/** The folder of a PBX file below `simulators/pbx/` (`state`, `xmlrpc`, …), or null for a file at its top. */
function pbxLayerOf(path: string): string | null {
  const match = /^simulators\/pbx\/([^/]+)\//.exec(path);
  return match?.[1] ?? null;
}

/**
 * The PBX stands on its state. `state/` (the PbxState, its default, the store) is the floor;
 * `snapshot/` (the cached monitoring snapshot and its renderings) reads only the state. Every other
 * folder of simulators/pbx/ is a face (`control/`, `activity/` and `recording/` included) and stands
 * on those two and simulators/shared/, never on another face; the files at the top (`index.ts`,
 * `pbx-control.ts`, `replay.ts`, the scenario loader) put the faces together.
 */
const PBX_FLOOR = ['state', 'snapshot'];

test("the PBX's state/ imports no face, only itself and simulators/shared/", () => {
  const upward = [...graph].flatMap(([from, targets]) =>
    pbxLayerOf(from) === 'state'
      ? targets
          .filter((to) => to.startsWith('simulators/pbx/') && pbxLayerOf(to) !== 'state')
          .map((to) => `${from} -> ${to}`)
      : [],
  );
  assert.deepEqual(upward, []);
});

/** Every import from a folder of simulators/pbx/ into another of its folders but the floor. */
function pbxCrossings(imports: Map<string, string[]>): string[] {
  const crossings: string[] = [];
  for (const [from, targets] of imports) {
    const layer = pbxLayerOf(from);
    if (layer === null || layer === 'state') continue;
    const allowed = layer === 'snapshot' ? PBX_FLOOR : [...PBX_FLOOR, layer];
    for (const to of targets) {
      const other = pbxLayerOf(to);
      if (!to.startsWith('simulators/pbx/') || other === null || allowed.includes(other)) continue;
      crossings.push(`${from} -> ${to}`);
    }
  }
  return crossings;
}

test("the PBX's snapshot/ imports only the state, and no face imports another face", () => {
  assert.deepEqual(pbxCrossings(graph), []);
});

/** The folder of a file below `src/` (`core`, `cli`, `report`, …), or null outside `src/`. */
function srcFolderOf(path: string): string | null {
  const match = /^src\/([^/]+)\//.exec(path);
  return match?.[1] ?? null;
}

test('nothing in src/ but the entry point (src/cli/) imports cli/', () => {
  const upward = [...graph].flatMap(([from, targets]) =>
    srcFolderOf(from) !== null && srcFolderOf(from) !== 'cli'
      ? targets.filter((to) => srcFolderOf(to) === 'cli').map((to) => `${from} -> ${to}`)
      : [],
  );
  assert.deepEqual(upward, []);
});

/**
 * Issue 30 §3: the CLI is a thin skin over engines. Outside src/cli/, nothing imports it but its
 * door, `src/cli/run.ts` (`run(argv, io)`, the command line as a user runs it, in-process); bench,
 * tests and scripts import the engines (a fleet: simulators/fleet/index.ts). The CLI's own unit
 * tests, which mirror it under test/src/cli/, may import what they test.
 */
function intoCli(imports: Map<string, string[]>): string[] {
  const trespasses: string[] = [];
  for (const [from, targets] of imports) {
    if (from.startsWith('src/cli/') || from.startsWith('test/src/cli/')) continue;
    for (const to of targets)
      if (to.startsWith('src/cli/') && to !== 'src/cli/run.ts') trespasses.push(`${from} -> ${to}`);
  }
  return trespasses;
}

test("nothing outside src/cli/ imports src/cli/ but its door run.ts (the CLI's own unit tests excepted)", () => {
  assert.deepEqual(intoCli(importGraph(ALL_DIRS)), []);
});

test('src/core/ is the floor of src/: it imports no other folder of src/', () => {
  const upward = [...graph].flatMap(([from, targets]) =>
    srcFolderOf(from) === 'core'
      ? targets
          .filter((to) => srcFolderOf(to) !== null && srcFolderOf(to) !== 'core')
          .map((to) => `${from} -> ${to}`)
      : [],
  );
  assert.deepEqual(upward, []);
});

test('the folders of src/ import each other without a circle (runner/ and report/ included)', () => {
  const folders = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    const own = srcFolderOf(from);
    if (own === null) continue;
    const next = folders.get(own) ?? new Set<string>();
    folders.set(own, next);
    for (const to of targets) {
      const other = srcFolderOf(to);
      if (other !== null && other !== own) next.add(other);
    }
  }
  const circles: string[] = [];
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
    [...(folders.get(from) ?? [])].some(
      (next) => next === to || (!seen.has(next) && reaches(next, to, seen.add(next))),
    );
  for (const [own, targets] of folders)
    for (const other of targets) if (reaches(other, own)) circles.push(`${own} -> ${other} -> … -> ${own}`);
  assert.deepEqual(circles, []);
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

/** Every call in the TypeScript of `dirs`, with the file it is in. */
function callsIn(
  dirs: readonly string[],
): { file: string; call: ts.CallExpression; source: ts.SourceFile }[] {
  const calls: { file: string; call: ts.CallExpression; source: ts.SourceFile }[] = [];
  for (const path of dirs.flatMap((dir) => tsFiles(join(PROJECT_ROOT, dir)))) {
    const file = relative(PROJECT_ROOT, path);
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) calls.push({ file, call: node, source });
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return calls;
}

/** The product, and the benches and scripts that drive it (tests may probe a plane by hand). */
const calls = callsIn([...PRODUCT_DIRS, 'bench', 'scripts']);
const where = ({ file, call, source }: (typeof calls)[number]) =>
  `${file}:${source.getLineAndCharacterOfPosition(call.getStart()).line + 1}`;

test('one HTTP client stack: the product, benches and scripts send HTTP with undici, never the global fetch', () => {
  const fetches = calls.filter(
    ({ call }) => ts.isIdentifier(call.expression) && call.expression.text === 'fetch',
  );
  assert.deepEqual(fetches.map(where), []);
});

/**
 * Issue 21 §1: a control operation is declared once and reached through the client derived from
 * its declaration (simulators/shared/control/control-client.ts). No other file of the product, a
 * bench or a script sends a request to a control-plane URL (a URL whose expression names
 * `control`) by hand.
 */
test('control planes are reached only through the derived control client', () => {
  const senders = new Set(['fetch', 'request']);
  const byHand = calls.filter(({ file, call, source }) => {
    if (file.startsWith('simulators/shared/control/')) return false;
    const callee = call.expression;
    const name = ts.isIdentifier(callee)
      ? callee.text
      : ts.isPropertyAccessExpression(callee)
        ? callee.name.text
        : '';
    const url = call.arguments[0];
    return senders.has(name) && url !== undefined && /control/i.test(url.getText(source));
  });
  assert.deepEqual(byHand.map(where), []);
});

/**
 * Issue 21 §1: the server's dispatch is derived from the declarations (`serveOperations`), so no
 * product file beyond simulators/shared/ writes a control route (`{ method, path, handle }`) by hand.
 */
test('control routes are derived from declarations, never written by hand', () => {
  const byHand: string[] = [];
  for (const path of PRODUCT_DIRS.flatMap((dir) => tsFiles(join(PROJECT_ROOT, dir)))) {
    const file = relative(PROJECT_ROOT, path);
    if (file.startsWith('simulators/shared/')) continue;
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isObjectLiteralExpression(node)) {
        const names = new Set(
          node.properties.map((p) => (p.name && ts.isIdentifier(p.name) ? p.name.text : '')),
        );
        if (names.has('method') && names.has('path') && names.has('handle'))
          byHand.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  assert.deepEqual(byHand, []);
});

/**
 * Issue 30 §7: simulators/shared/ has a front door like every simulator. The simulators stand on
 * its files directly; the harness, benches and scripts import only simulators/shared/index.ts (the
 * unit tests of shared code under test/simulators/shared/ excepted).
 */
function pastSharedFrontDoor(imports: Map<string, string[]>): string[] {
  const trespasses: string[] = [];
  for (const [from, targets] of imports) {
    if (from.startsWith('simulators/') || from.startsWith('test/')) continue;
    for (const to of targets)
      if (to.startsWith('simulators/shared/') && to !== 'simulators/shared/index.ts')
        trespasses.push(`${from} -> ${to}`);
  }
  return trespasses;
}

test('nothing outside simulators/ imports past simulators/shared/index.ts', () => {
  assert.deepEqual(pastSharedFrontDoor(importGraph(ALL_DIRS)), []);
});

/**
 * Issue 30 §7: HTTP requests go through undici (the derived control clients, and
 * src/clients/http-send.ts where raw header pairs or a body stopped at the answer are needed) and
 * raw bytes through the one TCP exchanger (src/core/tcp-exchange.ts); nothing sends with
 * node:http or node:https, without exception.
 */
/** Files that use `request` or `get` of node:http or node:https (called or handed on). */
function nodeHttpSenders(dirs: readonly string[]): string[] {
  const senders = new Set<string>();
  for (const path of dirs.flatMap((dir) => tsFiles(join(PROJECT_ROOT, dir)))) {
    const file = relative(PROJECT_ROOT, path);
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const names = new Set<string>();
    const namespaces = new Set<string>();
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement)) continue;
      if (!/^(node:)?https?$/.test((statement.moduleSpecifier as ts.StringLiteral).text)) continue;
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements)
          if (/^(request|get)$/.test((element.propertyName ?? element.name).text))
            names.add(element.name.text);
      if (bindings && ts.isNamespaceImport(bindings)) namespaces.add(bindings.name.text);
      if (clause?.name) namespaces.add(clause.name.text);
    }
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node)) return;
      if (ts.isIdentifier(node) && names.has(node.text)) senders.add(file);
      if (
        ts.isPropertyAccessExpression(node) &&
        ts.isIdentifier(node.expression) &&
        namespaces.has(node.expression.text) &&
        /^(request|get)$/.test(node.name.text)
      )
        senders.add(file);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...senders].sort();
}

test('no node:http request outside the derived clients and the one TCP exchanger', () => {
  assert.deepEqual(nodeHttpSenders([...PRODUCT_DIRS, 'bench', 'scripts']), []);
});
