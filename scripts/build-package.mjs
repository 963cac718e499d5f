#!/usr/bin/env node
// `npm run build` (run by `prepack`): compiles the TypeScript sources to dist/ and copies beside
// them every file the compiled code finds through its own location (`new URL('../x', import.meta.url)`),
// so dist/ mirrors the repository: dist/src, dist/simulators, dist/steps (JavaScript, plus their
// JSON scenarios and Python files), dist/features, dist/schemas and dist/python, and the console's
// bundled browser assets in dist/console-assets (scripts/build-console.mjs). Tests and benches are not built.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STAMP_FILE, sourceStamp } from '../bin/source-stamp.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');

/** Copied whole (python/: the cmk.agent_based.v2 stand-in and the runner of certify-plugin --mkp). */
const RESOURCE_DIRS = ['features', 'schemas', 'python'];
/** Searched for files that are not TypeScript (scenario JSON, the MKP's and the XML-RPC client's Python). */
const CODE_DIRS = ['src', 'simulators', 'steps'];
/** Development-only files among them: tsx's registration for Cucumber in the repository. */
const SKIPPED = new Set(['steps/support/register-tsx.mjs']);

// PBX_BUILD_NO_TYPECHECK=1: emit without the type check (`tsc --noCheck`), for a caller that checks
// the same tree itself (the package test, inside `npm test` after `npm run typecheck`). Each module
// compiles on its own (isolatedModules), so the JavaScript is the same byte for byte; the check
// is two thirds of the build's CPU. A switch: `1` skips the check, `0` or unset (or empty) keeps
// it; any other value is refused before anything is removed or built.
const noCheckSwitch = process.env.PBX_BUILD_NO_TYPECHECK ?? '';
if (!['', '0', '1'].includes(noCheckSwitch)) {
  process.stderr.write(
    `build: PBX_BUILD_NO_TYPECHECK is a switch: 1 skips the type check, 0 or unset keeps it (got ${JSON.stringify(noCheckSwitch.slice(0, 40))})\n`,
  );
  process.exit(2);
}
const noCheck = noCheckSwitch === '1' ? ['--noCheck'] : [];

// The sources' stamp as the build begins (bin/source-stamp.js): a file changed during the build
// leaves dist/ stale, never stamped as current.
const stampAtStart = sourceStamp(root);
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), ...noCheck], {
  cwd: root,
  stdio: 'inherit',
});
if (compiled.status !== 0) {
  process.stderr.write('build: tsc failed\n');
  process.exit(1);
}

for (const dir of RESOURCE_DIRS)
  cpSync(join(root, dir), join(dist, dir), { recursive: true, filter: wanted });
let copied = 0;
for (const dir of CODE_DIRS) {
  for (const file of walk(join(root, dir))) {
    const path = relative(root, file).split('\\').join('/');
    if (path.endsWith('.ts') || SKIPPED.has(path)) continue;
    cpSync(file, join(dist, path));
    copied += 1;
  }
}
// The console's browser assets (issue 32), bundled by esbuild; the control plane serves them from here.
const { buildConsole } = await import('./build-console.mjs');
const consoleDir = join(dist, 'console-assets');
mkdirSync(consoleDir, { recursive: true });
for (const [name, bytes] of await buildConsole()) writeFileSync(join(consoleDir, name), bytes);
// Stamped last, with the sources as they were when the build began: bin/pbx-conformance.js runs
// this dist/ in the repository only while the sources still match it.
writeFileSync(join(dist, STAMP_FILE), `${JSON.stringify({ sources: stampAtStart })}\n`);
process.stderr.write(
  `build: dist/ written (${copied} resource files beside the JavaScript, console assets)\n`,
);

/** Leftovers of local runs (Python caches, editor and OS files) never go into the package. */
function wanted(source) {
  const name = source.split(/[\\/]/).pop() ?? '';
  return name !== '__pycache__' && !name.startsWith('.') && !name.endsWith('.pyc');
}

function* walk(dir) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (!wanted(path)) continue;
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}
