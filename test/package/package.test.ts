/**
 * Issue 13, section 2, and issue 20 (items 3, 10, 11, 12): the package proved the way a user meets it. `npm pack` (which builds dist/
 * through `prepack`), the tarball's file list, an install into a fresh folder outside the
 * repository, and there: `--version`, `simulate --json` with a scenario file of that folder,
 * `verify --target` on a small tag selection, `verify` against the embedded simulator from a
 * sub-folder, `resolver-check` with a provider file of that folder against a small endpoint, and
 * `certify-plugin` with a plug-in and an expectations file of that folder and with the shipped
 * example plug-in, `fuzz` without `--target` (its own simulator, compiled), `endpoint`, every
 * command's `--help`, the README's CI snippet (`simulate … -- verify`) over a stale target file, the
 * project's own baseline in `features/expected-failures/`, every `docs/`, `schemas/` and
 * `examples/` path the README names, and every `npx pbx-conformance` snippet of the README and the
 * shipped docs (issue 29, item 11: `doc-snippet-runs.ts`, about a minute of the test).
 * Every report lands in the user's folder; the installed package is left exactly as installed.
 *
 * Slow by nature (a tsc build and an npm install): one test, bounded by a generous timeout, with no
 * timing assertion. Skipped, with the reason, only when the install itself cannot be done.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { type TestContext, test } from 'node:test';
import { PACKAGE_ROOT } from '../../src/core/project-paths.ts';
import { readEvidenceHeads } from '../../src/report/compact-evidence.ts';
import { docSnippets } from '../docs/doc-snippets.ts';
import { randomPool } from '../simulators/fleet/random-pool.ts';
import { runDocSnippets } from './doc-snippet-runs.ts';
import { childEnv, install, pack, runProcess } from './packed-install.ts';

const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};

/** Scenarios of areas whose resources are found at run time (schemas, MKP Python files, fleet, resolver). */
const TARGET_TAGS = '@FLEET-SITES-NOT-MODIFIED or @MON-AUTH-HOSTS-CIDR or @XMLRPC-AD-MINIMAL';
const EMBEDDED_TAGS = '@MKP-DOWNLOAD or @MAINT-AUTH-401-OTHER-SCHEME or @RESOLVER-AUTH-BEARER';

/** Every file under `dir`, relative, `/`-separated, with a content hash: what "unchanged" compares. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else
        files.set(
          relative(dir, path).split(sep).join('/'),
          createHash('sha256').update(readFileSync(path)).digest('hex'),
        );
    }
  };
  walk(dir);
  return files;
}

/** Repository files under `dir` (relative to the package root) with one of the extensions, leftovers skipped. */
function repoFiles(dir: string, extensions: readonly string[]): string[] {
  return [...snapshot(join(PACKAGE_ROOT, dir)).keys()]
    .filter((file) => extensions.some((ext) => file.endsWith(ext)))
    .filter((file) => !file.split('/').some((part) => part === '__pycache__' || part.startsWith('.')))
    .map((file) => `${dir}/${file}`);
}

/** Asserts the tarball's file list: what a user needs is in it, and nothing of the development. */
function assertFileList(files: readonly string[]): void {
  const list = new Set(files);
  const top = new Set(files.map((file) => file.split('/')[0]));
  assert.deepEqual([...top].sort(), ['README.md', 'bin', 'dist', 'docs', 'examples', 'package.json']);
  assert.deepEqual(
    files.filter((file) => file.startsWith('bin/')),
    ['bin/pbx-conformance.js', 'bin/source-stamp.js'],
  );
  // The stamp of the development tree's sources (bin/source-stamp.js) stays out of the package.
  assert.ok(!list.has('dist/source-stamp.json'));
  // The compiled code: one .js per TypeScript module of src/, simulators/ and steps/, and no TypeScript.
  for (const dir of ['src', 'simulators', 'steps']) {
    for (const source of repoFiles(dir, ['.ts'])) {
      assert.ok(list.has(`dist/${source.replace(/\.ts$/, '.js')}`), `compiled ${source} missing`);
    }
  }
  // Resources the code finds beside itself, and the features and schemas.
  for (const resource of [
    ...repoFiles('features', ['.feature', '.yaml']),
    ...repoFiles('schemas', ['.json', '.yaml']),
    ...repoFiles('simulators/pbx/mkp/package', ['.py']),
    ...repoFiles('simulators/pbx/scenarios', ['.json']),
    ...repoFiles('src/clients/python', ['.py']),
    ...repoFiles('python', ['.py']),
  ]) {
    assert.ok(list.has(`dist/${resource}`), `${resource} missing`);
  }
  assert.ok(list.has('dist/features/clauses.yaml'));
  // The examples a user certifies with (issue 20, item 11).
  for (const example of repoFiles('examples', ['.py', '.yaml'])) assert.ok(list.has(example), example);
  // User documentation, not the contributors' design notes.
  assert.ok(list.has('docs/simulator.md'));
  assert.ok(list.has('docs/reports.md'));
  assert.ok(!list.has('docs/design.md'));
  // The console's bundled assets (issue 32): served from the package, built at pack time.
  for (const asset of ['index.html', 'console.js', 'console.css'])
    assert.ok(list.has(`dist/console-assets/${asset}`), `dist/console-assets/${asset} is packed`);
  for (const file of files) {
    assert.doesNotMatch(file, /(^|\/)(test|bench|node_modules|coverage|reports)\//, file);
    assert.doesNotMatch(file, /\.ts$|\.tsbuildinfo$|__pycache__|\.pyc$|register-tsx\.mjs$/, file);
  }
}

/** Starts `simulate --json` in `cwd` and resolves with the child and its first stdout line. */
function startSimulator(
  bin: string,
  cwd: string,
  args: string[],
): Promise<{ child: ChildProcess; target: string; stderr: () => string }> {
  return startJson(bin, cwd, ['simulate', '--json', ...args]);
}

/** Starts a long-running command with `--json` in `cwd`; resolves with the child and its first stdout line. */
function startJson(
  bin: string,
  cwd: string,
  args: string[],
): Promise<{ child: ChildProcess; target: string; stderr: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd,
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const end = stdout.indexOf('\n');
      if (end !== -1) resolve({ child, target: stdout.slice(0, end), stderr: () => stderr });
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) =>
      reject(new Error(`${args[0]} exited ${code} before its first line: ${stderr}`)),
    );
  });
}

/** A customer endpoint that names every caller "Anna Schmidt". */
async function lookupEndpoint(t: TestContext): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"name":"Anna Schmidt"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Files the README names only as in the source repository. */
const REPOSITORY_ONLY = new Set(['docs/design.md']);

/**
 * Every `docs/…`, `schemas/…` and `examples/…` path the README names resolves in the installed
 * package as `pbx-conformance/<path>` (a folder: exists there), as the README promises.
 */
async function assertReadmePaths(project: string, packageDir: string): Promise<number> {
  const readme = await readFile(join(packageDir, 'README.md'), 'utf8');
  const named = new Set(
    [...readme.matchAll(/`(?:pbx-conformance\/)?((?:docs|schemas|examples)\/[^`\s*<>…]+)`/g)].map(
      (match) => match[1] as string,
    ),
  );
  const files = [...named].filter((path) => !path.endsWith('/') && !REPOSITORY_ONLY.has(path));
  const resolved = await runProcess(
    process.execPath,
    [
      '-e',
      `for (const path of ${JSON.stringify(files)}) {
         try { const file = require.resolve('pbx-conformance/' + path); console.log(require('node:fs').existsSync(file) ? 'ok' : 'missing ' + path); }
         catch (error) { console.log(error.code + ' ' + path); }
       }`,
    ],
    project,
  );
  assert.deepEqual(
    resolved.stdout
      .trim()
      .split('\n')
      .filter((line) => line !== 'ok'),
    [],
    resolved.stderr,
  );
  for (const dir of [...named].filter((path) => path.endsWith('/'))) {
    assert.ok(statSync(join(packageDir, dir)).isDirectory(), dir);
  }
  assert.ok(files.length >= 15, `only ${files.length} paths found in the README`);
  return files.length;
}

/** The README's CI snippet (`simulate … -- verify`), as a shell script. */
async function readmeCiSnippet(packageDir: string): Promise<string> {
  const readme = await readFile(join(packageDir, 'README.md'), 'utf8');
  const snippet =
    /```sh\n(npx pbx-conformance simulate [^\n]*--target-file [^\n]*-- \\\n[^\n]*verify --target [^\n]*)\n```/.exec(
      readme,
    )?.[1];
  assert.ok(snippet, 'the README has the CI snippet');
  return snippet;
}

function assertReports(dir: string): void {
  for (const file of ['compatibility.json', 'compatibility.html', 'junit.xml']) {
    assert.ok(statSync(join(dir, file)).size > 0, `${file} in ${dir}`);
  }
}

test('the packed tarball installs into a fresh folder and runs there, writing only into that folder', {
  timeout: 1_200_000,
}, async (t) => {
  const base = await mkdtemp(join(tmpdir(), 'pbx-conformance-package-'));
  t.after(() => rm(base, { recursive: true, force: true }));
  assert.ok(relative(PACKAGE_ROOT, base).startsWith('..'), 'the temporary folder is outside the repository');

  // 1. npm pack (prepack builds dist/) and the tarball's file list. The build skips its type check:
  // `npm test` type-checks the same tree (`npm run typecheck`), and the JavaScript is the same.
  const packed = await pack(join(base, 'pack'), { typeCheck: false });
  assertFileList(packed.files);
  t.diagnostic(`tarball ${packed.tarball}: ${packed.size} bytes, ${packed.files.length} files`);

  // 2. Install into a fresh project; dependencies come from the npm cache where it has them.
  const installed = await install(packed.tarball, join(base, 'user-project'));
  if ('failed' in installed) {
    t.skip(`npm install of the tarball is impossible here: ${installed.failed}`);
    return;
  }
  t.diagnostic(`install took ${Math.round(installed.installMs)} ms`);
  const { project, packageDir, bin } = installed;
  assert.ok(!existsSync(join(project, 'node_modules', 'tsx')), 'tsx is not installed with the package');
  const before = snapshot(packageDir);

  // 3a. --version: the three versions.
  const version = await runProcess(process.execPath, [bin, '--version'], project);
  assert.equal(version.code, 0, version.stderr);
  assert.match(
    version.stdout,
    new RegExp(
      `^pbx-conformance ${pkg.version.replaceAll('.', '\\.')}\\ncatalog: .* sha256:[0-9a-f]{12}\\nspecs judged:\\n`,
    ),
  );

  // 3b. simulate --json with a scenario file of the user's folder, then verify --target without --reports.
  await copyFile(
    join(packageDir, 'dist/simulators/pbx/scenarios/healthy.json'),
    join(project, 'my-scenario.json'),
  );
  const simulator = await startSimulator(bin, project, [
    '--scenario',
    'my-scenario.json',
    '--port',
    '0',
    '--pbx-count',
    '1',
  ]);
  const closed = new Promise<number | null>((resolve) => simulator.child.on('close', resolve));
  try {
    await writeFile(join(project, 'target.json'), `${simulator.target}\n`);
    // The project's own baseline, in its own folder (issue 20, item 12).
    await mkdir(join(project, 'features', 'expected-failures'), { recursive: true });
    await writeFile(
      join(project, 'features', 'expected-failures', 'simulator.yaml'),
      '- {clause: MON-CACHE-DEFAULT, reason: listed by the project}\n',
    );
    const verified = await runProcess(
      process.execPath,
      [bin, 'verify', '--target', 'target.json', '--tags', TARGET_TAGS, '--quiet'],
      project,
    );
    assert.equal(verified.code, 0, verified.stdout + verified.stderr);
    assert.match(verified.stdout, /reports: reports\/compatibility\.json/);
    assert.match(verified.stdout, /^baseline: features\/expected-failures\/simulator\.yaml$/m);
    assert.match(verified.stdout, /listed in the baseline but not judged in this run: MON-CACHE-DEFAULT/);
  } finally {
    simulator.child.kill('SIGTERM');
  }
  assert.equal(await closed, 0, simulator.stderr());
  assertReports(join(project, 'reports'));
  const report = JSON.parse(await readFile(join(project, 'reports', 'compatibility.json'), 'utf8')) as {
    metadata: { target: string; targetFile: string };
  };
  assert.equal(report.metadata.target, 'simulator');
  assert.equal(report.metadata.targetFile, join(project, 'target.json'));

  // 3c. verify against the embedded simulator from a sub-folder: the reports land there.
  const sub = join(project, 'ci', 'job');
  await mkdir(sub, { recursive: true });
  const embedded = await runProcess(
    process.execPath,
    [bin, 'verify', '--tags', EMBEDDED_TAGS, '--quiet'],
    sub,
  );
  assert.equal(embedded.code, 0, embedded.stdout + embedded.stderr);
  assert.match(embedded.stdout, /^target embedded: [1-9]\d* scenarios/m);
  assertReports(join(sub, 'reports'));

  // 3d. resolver-check with a provider file of the user's folder against a small endpoint.
  const endpoint = await lookupEndpoint(t);
  await writeFile(
    join(project, 'provider.json'),
    JSON.stringify({
      id: 'crm',
      type: 'HTTP',
      url: `${endpoint}/lookup?tel={tel}`,
      parsers: [{ matcher: '"name":"([^"]*)"', formatter: '\\1' }],
    }),
  );
  const resolved = await runProcess(
    process.execPath,
    [bin, 'resolver-check', '--provider', 'provider.json', '--number', '030 1234567', '--json'],
    project,
  );
  assert.equal(resolved.code, 0, resolved.stdout + resolved.stderr);
  // The endpoint's answer is the head of the passing lookup's evidence (packed in evidenceHeads).
  assert.match(JSON.stringify(readEvidenceHeads(JSON.parse(resolved.stdout))), /Anna Schmidt/);

  // 3e. certify-plugin with a plug-in and an expectations file of the user's folder.
  await writeFile(join(project, 'check_ok.sh'), '#!/bin/sh\necho "OK - served | \'seen\'=1;;;0"\nexit 0\n', {
    mode: 0o755,
  });
  await writeFile(join(project, 'expectations.yaml'), 'scenarios:\n  healthy: { state: OK }\n');
  const certified = await runProcess(
    process.execPath,
    [
      bin,
      'certify-plugin',
      '--expectations',
      'expectations.yaml',
      '--scenario',
      'healthy',
      '--reports',
      'certification',
      '--',
      './check_ok.sh',
      '-H',
      '{host}',
      '-p',
      '{port}',
    ],
    project,
  );
  assert.equal(certified.code, 0, certified.stdout + certified.stderr);
  assertReports(join(project, 'certification'));
  // … and an agent-based plug-in folder of the user's project, on the installed stand-in API.
  const family = join(project, 'cmk_addons_plugins', 'demo', 'agent_based');
  await mkdir(family, { recursive: true });
  await writeFile(
    join(family, 'demo.py'),
    [
      'from cmk.agent_based.v2 import AgentSection, CheckPlugin, Result, Service, State',
      'agent_section_pbx_demo = AgentSection(name="pbx", parse_function=lambda string_table: string_table)',
      'def discover(section):',
      '    yield Service()',
      'def check(section):',
      '    yield Result(state=State.OK, summary=f"{len(section)} lines")',
      'check_plugin_pbx_demo = CheckPlugin(name="pbx_demo", sections=["pbx"], service_name="PBX lines", discovery_function=discover, check_function=check)',
      '',
    ].join('\n'),
  );
  const agentBased = await runProcess(
    process.execPath,
    [bin, 'certify-plugin', '--plugin-dir', '.', '--scenario', 'healthy', '--reports', 'certification-mkp'],
    project,
  );
  assert.match(agentBased.stdout, /PLUGIN-KNOWN-WHEN-SERVED/, agentBased.stdout + agentBased.stderr);
  assert.equal(agentBased.code, 0, agentBased.stdout + agentBased.stderr);
  assertReports(join(project, 'certification-mkp'));

  // 3f. The shipped example plug-in certifies with its shipped expectations (issue 20, item 11).
  const example = join('node_modules', 'pbx-conformance', 'examples', 'plugins');
  const exampleRun = await runProcess(
    process.execPath,
    [
      bin,
      'certify-plugin',
      '--expectations',
      join(example, 'check_pbx_backups.yaml'),
      '--scenario',
      'healthy',
      '--scenario',
      'backup-failed',
      '--reports',
      'example-certification',
      '--quiet',
      '--',
      'python3',
      join(example, 'check_pbx_backups.py'),
      '-H',
      '{host}',
      '-p',
      '{port}',
    ],
    project,
  );
  assert.equal(exampleRun.code, 0, exampleRun.stdout + exampleRun.stderr);
  assertReports(join(project, 'example-certification'));

  // 3g. fuzz without --target starts its own simulator from the compiled CLI (issue 20, item 3).
  const fuzzed = await runProcess(
    process.execPath,
    [bin, 'fuzz', '--runs', '3', '--faces', 'data,xmlrpc', '--quiet', '--reports', 'fuzz-reports'],
    project,
  );
  assert.equal(fuzzed.code, 0, fuzzed.stdout + fuzzed.stderr);
  assert.match(fuzzed.stdout, /^fuzz embedded: seed \d+, 3 inputs per face, faces data,xmlrpc$/m);
  assert.match(fuzzed.stdout, /^PASSED$/m);
  assertReports(join(project, 'fuzz-reports'));

  // 3h. endpoint: serves, its control plane answers, SIGTERM stops it cleanly.
  const endpointRun = await startJson(bin, project, ['endpoint', '--json']);
  const endpointClosed = new Promise<number | null>((resolve) => endpointRun.child.on('close', resolve));
  try {
    const { control } = JSON.parse(endpointRun.target) as { control: string };
    const requests = await fetch(`${control}/requests?since=0`);
    assert.equal(requests.status, 200);
    await requests.body?.cancel();
  } finally {
    endpointRun.child.kill('SIGTERM');
  }
  assert.equal(await endpointClosed, 0, endpointRun.stderr());

  // 3i. Every command's --help.
  for (const command of [
    [],
    ['verify'],
    ['simulate'],
    ['fuzz'],
    ['resolver-check'],
    ['endpoint'],
    ['certify-plugin'],
  ]) {
    const help = await runProcess(process.execPath, [bin, ...command, '--help'], project);
    assert.equal(help.code, 0, `${command.join(' ')} --help: ${help.stderr}`);
    assert.match(help.stdout, /^Usage: pbx-conformance/, command.join(' '));
  }

  // 3j. The README's CI snippet, in sh, over a stale target file of an earlier run (issue 20, item 10).
  const ci = join(project, 'ci-snippet');
  await mkdir(ci);
  await writeFile(join(ci, 'target.json'), '{"name":"stale-run","pbx":{"webUrl":"http://127.0.0.1:9"}}\n');
  const snippet = await readmeCiSnippet(packageDir);
  const snippetRun = await runProcess('sh', ['-c', `${snippet} --tags @MON-AUTH-HOSTS-CIDR --quiet`], ci);
  assert.equal(snippetRun.code, 0, snippetRun.stdout + snippetRun.stderr);
  assert.match(snippetRun.stdout, /^target simulator: [1-9]\d* scenarios/m);
  assert.deepEqual(readdirSync(ci).sort(), ['reports'], 'no target file, no temporary file left');

  // 3k. Every docs/, schemas/ and examples/ path the README names is in the package (issue 20, item 11).
  t.diagnostic(`${await assertReadmePaths(project, packageDir)} README paths resolve in the package`);

  // 3l. The exports: the schemas and package.json resolve; there is no JavaScript API to import.
  const resolvedExports = await runProcess(
    process.execPath,
    [
      '-e',
      `for (const id of ['pbx-conformance/schemas/target.schema.json', 'pbx-conformance/package.json', 'pbx-conformance']) {
         try { console.log(require.resolve(id)); } catch (error) { console.log(error.code); }
       }`,
    ],
    project,
  );
  assert.deepEqual(resolvedExports.stdout.trim().split('\n'), [
    join(realpathSync(packageDir), 'dist', 'schemas', 'target.schema.json'),
    join(realpathSync(packageDir), 'package.json'),
    'ERR_PACKAGE_PATH_NOT_EXPORTED',
  ]);

  // 3m. Every `npx pbx-conformance` snippet of the README and the shipped docs, as far as a test
  // can run it (issue 29, item 11; test/package/doc-snippet-runs.ts says what a run bounds).
  const snippetsStarted = performance.now();
  const shardPool = await randomPool(2);
  const outcomes = await runDocSnippets(docSnippets(packageDir), {
    project,
    packageDir,
    bin,
    lookupEndpoint: endpoint,
    shardPool: shardPool
      ? { spec: shardPool.pool.spec, port: shardPool.port, port2: shardPool.port2 }
      : { spec: '127.0.0.1/32', port: 0, port2: 0 },
  });
  t.diagnostic(
    `${outcomes.length} doc snippets ran from the install in ${Math.round(performance.now() - snippetsStarted)} ms`,
  );
  assert.ok(outcomes.length >= 50, `only ${outcomes.length} snippets found`);
  assert.deepEqual(
    outcomes
      .filter((outcome) => outcome.problem !== undefined)
      .map(
        ({ plan, problem }) => `${plan.snippet.file}:${plan.snippet.line} ${plan.args.join(' ')}: ${problem}`,
      ),
    [],
  );

  // 4. Nothing was written into the installed package.
  assert.deepEqual(snapshot(packageDir), before);
  assert.ok(!existsSync(join(packageDir, 'reports')));
});
