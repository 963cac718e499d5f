/**
 * The README's and the shipped docs' `npx pbx-conformance` snippets, run from a packed install
 * (issue 29, item 11). Each snippet runs as `node_modules/.bin/pbx-conformance <words>` (what
 * `npx pbx-conformance` resolves to in a project) in a prepared user folder, in the order the
 * documents give them, so a snippet that writes a file (`record --out lab-pbx.json`) serves the
 * later ones that read it.
 *
 * What a run changes, each time saying so in its plan (`bounded`), so that the run stays short and
 * touches nothing beyond loopback:
 * - fixed ports (`--port 16556`, `tcp://127.0.0.1:7070`, …) become free ones, the same number
 *   the same port throughout; `--host 0.0.0.0` becomes 127.0.0.1; the resolver's sample URL on
 *   127.0.0.1:8080 points at the test's own lookup endpoint;
 * - `verify` without `--tags` runs one clause's scenarios; `fuzz --runs` 3; `record --repeat` 2
 *   every 1 s; `certify-plugin` without a scenario runs `healthy` alone; `--pbx-count` above 3
 *   becomes 3 (6 for a fleet of shards), a shard takes a loopback block and ports of its own;
 * - a command that runs until stopped (`simulate`, `endpoint`) is stopped with SIGTERM once it
 *   says it runs, and must then exit 0; `simulate … -- <command>` runs the command and ends.
 *
 * A snippet passes when it exits 0 (1 for `record diff`, which reports differences that way), or
 * exits 2 with one line naming a file of the snippet that only the user has (a vendor's `.mkp`,
 * a plug-in of their own, a shard report from another machine): that file is absent from the
 * folder, and the line says so, not that an option or command is unknown.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, copyFile, cp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { DocSnippet } from '../docs/doc-snippets.ts';
import { childEnv } from './packed-install.ts';

export interface SnippetPlan {
  snippet: DocSnippet;
  /** The arguments run after the bin. */
  args: string[];
  /** Runs until stopped: wait for its banner, then SIGTERM. */
  serve: boolean;
  /** What the run changed of the snippet, and why. */
  bounded: string[];
  /** Exit codes that count as success besides 0. */
  alsoOk: number[];
}

export interface SnippetOutcome {
  plan: SnippetPlan;
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Why it does not count as passed; `undefined` when it passed. */
  problem?: string;
}

/** The scenarios a `verify` without `--tags` runs here: one clause's. */
const VERIFY_TAGS = '@MON-RAW-MODE';
const PORT_OPTIONS = new Set(['--port', '--web-port', '--control-port', '--ingest-port']);
const PBX_COUNT_CAP = 3;
/** A fleet of shards: enough PBXs that each of up to three shards has two. */
const SHARDED_PBX_COUNT = 6;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface PlanContext {
  /** The user's folder the snippets run in. */
  project: string;
  /** `http://127.0.0.1:<port>` of a lookup endpoint answering `{"name":…}`. */
  lookupEndpoint: string;
  /** A loopback block and two free ports for a shard's PBXs, e.g. `127.201.7.0/24`. */
  shardPool: { spec: string; port: number; port2: number };
}

/**
 * How each snippet runs (see the file's comment). A `simulate … --` whose command is the next
 * snippet of the same line (`simulate … -- npx pbx-conformance verify …`) takes that command, and
 * the next snippet is not run on its own.
 */
export async function planSnippets(
  snippets: readonly DocSnippet[],
  context: PlanContext,
): Promise<SnippetPlan[]> {
  const ports = new Map<string, number>();
  const portFor = async (fixed: string) => {
    let port = ports.get(fixed);
    if (port === undefined) {
      port = await freePort();
      ports.set(fixed, port);
    }
    return String(port);
  };
  const plans: SnippetPlan[] = [];
  for (let i = 0; i < snippets.length; i++) {
    const snippet = snippets[i]!;
    const bounded: string[] = [];
    let words = [...snippet.words];
    const next = snippets[i + 1];
    const wrapsNext =
      words[0] === 'simulate' &&
      words.at(-1) === '--' &&
      next?.file === snippet.file &&
      next.line === snippet.line;
    if (wrapsNext) {
      words = [...words, process.execPath, '<bin>', ...bound(next.words, bounded)];
      i++;
    }
    words = bound(words, bounded, wrapsNext ? words.indexOf('--') : words.length);
    const out: string[] = [];
    for (let w = 0; w < words.length; w++) {
      const word = words[w]!;
      const previous = out.at(-1);
      if (previous !== undefined && PORT_OPTIONS.has(previous) && /^\d+$/.test(word) && word !== '0') {
        out.push(await portFor(word));
        note(bounded, `fixed port ${word} → a free one`);
      } else if (previous === '--host' && word === '0.0.0.0') {
        out.push('127.0.0.1');
        note(bounded, '--host 0.0.0.0 → 127.0.0.1 (tests listen on loopback only)');
      } else if (/^tcp:\/\/127\.0\.0\.1:\d+$/.test(word)) {
        out.push(`tcp://127.0.0.1:${await portFor(word.split(':').at(-1)!)}`);
        note(bounded, `${word} → the free port that stands for it`);
      } else if (word.startsWith('http://127.0.0.1:8080/')) {
        out.push(word.replace('http://127.0.0.1:8080', context.lookupEndpoint));
        note(bounded, "127.0.0.1:8080 → the test's lookup endpoint");
      } else if (word.includes('$RUNNER_TEMP')) {
        out.push(word.replaceAll('$RUNNER_TEMP', context.project));
        note(bounded, '$RUNNER_TEMP → the user folder');
      } else out.push(word);
    }
    if (out[0] === 'simulate' && out.includes('--shard')) {
      out.push('--address-pool', context.shardPool.spec, '--port', String(context.shardPool.port));
      out.push('--web-port', String(context.shardPool.port2));
      note(bounded, 'the shard takes a loopback block and ports of its own');
    }
    const serve = (out[0] === 'simulate' && !wrapsNext) || out[0] === 'endpoint';
    plans.push({
      snippet,
      args: out,
      serve,
      bounded,
      alsoOk: out[0] === 'record' && out[1] === 'diff' ? [1] : [],
    });
  }
  return plans;
}

function note(bounded: string[], what: string): void {
  if (!bounded.includes(what)) bounded.push(what);
}

/** The bounding options of one command's words, inserted right after the command (before any `--`). */
function bound(words: readonly string[], bounded: string[], end = words.length): string[] {
  const own = words.slice(0, end);
  const rest = words.slice(end);
  const command = own[0];
  const has = (option: string) => own.includes(option);
  const insert: string[] = [];
  const set = (option: string, value: string, why: string) => {
    const at = own.indexOf(option);
    if (at >= 0) own[at + 1] = value;
    else insert.push(option, value);
    note(bounded, why);
  };
  if (command === 'verify' && !has('--tags')) set('--tags', VERIFY_TAGS, `verify runs ${VERIFY_TAGS} only`);
  if (command === 'fuzz' && has('--runs')) set('--runs', '3', 'fuzz --runs 3');
  if (command === 'record' && has('--repeat')) {
    set('--repeat', '2', 'record --repeat 2 --every 1s');
    set('--every', '1s', 'record --repeat 2 --every 1s');
  }
  if (
    command === 'certify-plugin' &&
    !['--scenario', '--scenario-file', '--list-scenarios', '--list-figures', '--mkp', '--recording'].some(has)
  )
    set('--scenario', 'healthy', 'certify-plugin runs the healthy scenario only');
  const count = own.indexOf('--pbx-count');
  if (command === 'simulate' && count >= 0) {
    const sharded = has('--fleet-only') || has('--shard');
    const cap = sharded ? SHARDED_PBX_COUNT : PBX_COUNT_CAP;
    if (Number(own[count + 1]) > cap) set('--pbx-count', String(cap), `--pbx-count ${cap}`);
  }
  return [own[0] ?? '', ...insert, ...own.slice(1), ...rest].filter((word, i) => i > 0 || word !== '');
}

/** Runs one plan in `cwd`; a served command is stopped once it says it runs. */
export function runPlan(
  plan: SnippetPlan,
  bin: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<SnippetOutcome> {
  const started = performance.now();
  const args = plan.args.map((arg) => (arg === '<bin>' ? bin : arg));
  const child: ChildProcess = spawn(process.execPath, [bin, ...args], {
    cwd,
    env: { ...childEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  return new Promise((resolve) => {
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      child.kill('SIGTERM');
    };
    const ready = () =>
      plan.serve && (/Press Ctrl-C|Ctrl-C stops/.test(stdout + stderr) || /^\{.*\}\n/.test(stdout));
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (ready()) stop();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      if (ready()) stop();
    });
    const limit = setTimeout(() => {
      child.kill('SIGKILL');
    }, 60_000);
    child.on('close', (code) => {
      clearTimeout(limit);
      const outcome: SnippetOutcome = { plan, code, stdout, stderr, ms: performance.now() - started };
      const problem = judge(outcome, cwd, stopped);
      if (problem !== undefined) outcome.problem = problem;
      resolve(outcome);
    });
  });
}

/**
 * Files only a user has, which the docs name as examples of their own (a vendor's MKP, their own
 * plug-in or rule file, a shrunk scenario of an earlier run, another machine's shard reports): a
 * snippet naming one may exit 2 with one line naming it.
 */
export const USER_ONLY_FILES = [
  'my_pbx_checks.mkp',
  'pbx_monitoring.mkp',
  'my.mkp',
  './src',
  './my_package',
  './check_pbx_xmlrpc',
  './check_pbx',
  'out/shrunk-seed-4242.json',
  'redaction.json',
  '/usr/lib/check_mk/local/check_pbx_backups.py',
  'shard-*/compatibility.json',
];

function judge(outcome: SnippetOutcome, cwd: string, stopped: boolean): string | undefined {
  const { plan, code, stderr } = outcome;
  if (stopped) return code === 0 ? undefined : `stopped with SIGTERM, it exited ${code}: ${stderr.trim()}`;
  if (code === 0 || (code !== null && plan.alsoOk.includes(code))) return undefined;
  const lines = stderr.trim().split('\n');
  if (code === 2 && lines.length === 1) {
    const named = USER_ONLY_FILES.filter(
      (file) =>
        plan.args.includes(file) &&
        !existsSync(join(cwd, file)) &&
        stderr.includes(file.replace(/^\.\//, '')),
    );
    if (named.length > 0) return undefined;
  }
  const said = stderr.trim() || outcome.stdout.trim().split('\n').slice(-3).join(' | ');
  return plan.serve ? `exited ${code} before it said it runs: ${said}` : `exit ${code}: ${said}`;
}

/** The target files the docs name; each snippet finds them as written (a `--target-file` run removes its own at the stop). */
const TARGET_NAMES = ['target.json', 'lab.json', 'customer-pbx.json'];

/** Writes what the snippets expect beside them into `dir`. */
async function prepare(dir: string, packageDir: string, linkModules: boolean): Promise<void> {
  const plugins = join(packageDir, 'examples', 'plugins');
  await mkdir(dir, { recursive: true });
  if (linkModules) await symlink(join(packageDir, '..'), join(dir, 'node_modules'), 'dir');
  await cp(join(packageDir, 'examples'), join(dir, 'examples'), { recursive: true });
  for (const file of ['check_pbx_backups.py', 'check_pbx_backups.yaml', 'check_pbx_phones.py'])
    await copyFile(join(plugins, file), join(dir, file));
  for (const file of ['check_pbx_backups.py', 'check_pbx_phones.py']) await chmod(join(dir, file), 0o755);
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  await writeFile(join(dir, 'vendor-key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  await writeFile(join(dir, 'vendor-pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
  await writeFile(join(dir, 'redaction.key'), randomBytes(32));
  await writeFile(join(dir, 'key.bin'), randomBytes(32));
  // The README's answers.json (its `cat > answers.json` heredoc).
  await writeFile(
    join(dir, 'answers.json'),
    JSON.stringify({
      routes: {
        '/lookup': { lookup: { param: 'tel', records: { '0049301234567': '{"name":"Erika Mustermann"}' } } },
      },
    }),
  );
}

/** `simulate --json --no-fleet` in `dir`: its target line, and how to stop it. */
async function startTarget(bin: string, dir: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [bin, 'simulate', '--json', '--no-fleet', '--port', '0'], {
    cwd: dir,
    env: { ...childEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const closed = new Promise((resolve) => child.once('close', resolve));
  const stop = async () => {
    child.kill('SIGTERM');
    await closed;
  };
  try {
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const end = out.indexOf('\n');
        if (end >= 0) resolve(out.slice(0, end));
      });
      child.once('close', (code) => reject(new Error(`simulate --json exited ${code}`)));
    });
    return { line, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Runs every snippet of the README and the shipped docs from the install in `project` (its
 * `node_modules`), in three lanes side by side: the README up to its first `record`, the rest of it with
 * docs/recording.md, and the other docs. Each lane runs its snippets in order in a folder of its own (the last one in `project`),
 * prepared as the snippets expect (the shipped example plug-ins and expectations beside them and
 * as `examples/` for the recipes run from a checkout, an Ed25519 key pair, redaction keys, the
 * README's `answers.json`) with a `simulate --json --no-fleet` of its own behind `target.json`
 * (and the other target names the docs use).
 */
export async function runDocSnippets(
  snippets: readonly DocSnippet[],
  options: {
    project: string;
    packageDir: string;
    bin: string;
    lookupEndpoint: string;
    shardPool: PlanContext['shardPool'];
  },
): Promise<SnippetOutcome[]> {
  const { project, packageDir, bin } = options;
  const env = { PBX_CONFORMANCE_FLEET_SECRET: randomBytes(32).toString('hex'), RUNNER_TEMP: '' };
  const readme = snippets.filter((s) => s.file === 'README.md');
  // The README's recording part reads what its first `record` writes, and docs/recording.md what
  // the README's `record … --out v26.8.json` writes: they share a lane.
  const split = readme.findIndex((s) => s.words[0] === 'record');
  const lanes = [
    readme.slice(0, split),
    [...readme.slice(split), ...snippets.filter((s) => s.file === 'docs/recording.md')],
    snippets.filter((s) => s.file !== 'README.md' && s.file !== 'docs/recording.md'),
  ];
  const results = await Promise.all(
    lanes.map(async (lane, index) => {
      // The last lane runs in the project itself: docs/certify-plugin.md names
      // node_modules/pbx-conformance/… paths, which a sealed plug-in run must see as real folders.
      const dir = index === lanes.length - 1 ? project : join(project, 'doc-snippets', `lane-${index + 1}`);
      await prepare(dir, packageDir, dir !== project);
      for (const name of TARGET_NAMES) await rm(join(dir, name), { force: true });
      const laneEnv = { ...env, RUNNER_TEMP: dir };
      const target = await startTarget(bin, dir, laneEnv);
      try {
        const plans = await planSnippets(lane, {
          project: dir,
          lookupEndpoint: options.lookupEndpoint,
          shardPool: options.shardPool,
        });
        const outcomes: SnippetOutcome[] = [];
        for (const plan of plans) {
          for (const name of TARGET_NAMES)
            if (!existsSync(join(dir, name))) await writeFile(join(dir, name), `${target.line}\n`);
          outcomes.push(await runPlan(plan, bin, dir, laneEnv));
        }
        return outcomes;
      } finally {
        await target.stop();
      }
    }),
  );
  return results.flat();
}
