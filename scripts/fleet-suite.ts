/**
 * `npm run test:fleet-suite -- [--pbx-count N] [--pbx I] [--tags EXPR] [simulate options…]` (issue 22): the whole
 * conformance suite against one PBX inside a pooled fleet of N PBXs (default 1,000), unchanged.
 *
 * Starts `simulate --pbx-count N --clock frozen --target-file …`, waits for the target file, points
 * its `pbx` section at PBX I of the fleet (default: the one in the middle; its address, ports and
 * control plane follow from `fleet.pool`: the pool's I-th address, the same ports, the control URL
 * pattern with its site), runs `verify --target` on that file, then stops the fleet. Exits with
 * verify's code (0 passed, 1 conformance failure, 2 harness error). Reports go to
 * reports/in-a-fleet/ unless `--reports` is given. Other options (`--address-pool`, `--port`,
 * `--web-port`) go to simulate; with the defaults the fleet is on 127.64.0.0/10 on the real ports
 * 6556 and 8080. Too long for `npm test` (minutes); CI does not run it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type PooledTarget, pbxOfPool } from '../simulators/fleet/index.ts';

const argv = process.argv.slice(2);
/** Takes `--name value` out of argv. */
function take(name: string): string | undefined {
  const at = argv.indexOf(name);
  if (at === -1) return undefined;
  const [, value] = argv.splice(at, 2);
  return value;
}
const count = Number(take('--pbx-count') ?? 1000);
const reports = take('--reports') ?? 'reports/in-a-fleet';
const pick = take('--pbx');
const tags = take('--tags');
if (!Number.isInteger(count) || count < 2) fail('--pbx-count: expected 2 or more PBXs');

function fail(reason: string): never {
  process.stderr.write(`fleet-suite: ${reason}\n`);
  process.exit(2);
}

type TargetFile = PooledTarget & { name?: string };

function exited(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code, signal) => resolve(code ?? (signal ? 2 : 0)));
  });
}

const cli = [process.execPath, '--import', 'tsx', 'src/cli/main.ts'];
const dir = await mkdtemp(join(tmpdir(), 'pbx-fleet-suite-'));
const fleetFile = join(dir, 'fleet-target.json');
const simulate = spawn(
  cli[0]!,
  [
    ...cli.slice(1),
    'simulate',
    '--pbx-count',
    String(count),
    '--clock',
    'frozen',
    '--target-file',
    fleetFile,
    ...argv,
  ],
  { stdio: ['ignore', 'ignore', 'inherit'] },
);
let code = 2;
try {
  let text: string | undefined;
  while (text === undefined) {
    if (simulate.exitCode !== null)
      fail(`simulate ended with exit code ${simulate.exitCode} before the fleet was up`);
    text = await readFile(fleetFile, 'utf8').catch(() => undefined);
    if (text === undefined) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const fleetTarget = JSON.parse(text) as TargetFile;
  const index = pick === undefined ? Math.ceil(count / 2) : Number(pick);
  let target: TargetFile;
  try {
    target = pbxOfPool(fleetTarget, index);
  } catch (error) {
    fail((error as Error).message);
  }
  const siteFile = join(dir, `pbx-${index}.json`);
  await writeFile(siteFile, `${JSON.stringify(target, null, 2)}\n`, { mode: 0o600 });
  process.stderr.write(
    `fleet-suite: ${count} PBXs up; the suite runs against PBX ${index} (${target.pbx.webUrl}, control plane ${target.pbx.controlUrl})\n`,
  );
  const verify = spawn(
    cli[0]!,
    [
      ...cli.slice(1),
      'verify',
      '--quiet',
      '--target',
      siteFile,
      '--reports',
      reports,
      ...(tags === undefined ? [] : ['--tags', tags]),
    ],
    {
      stdio: 'inherit',
    },
  );
  code = await exited(verify);
} finally {
  simulate.kill('SIGINT');
  await exited(simulate);
  await rm(dir, { recursive: true, force: true });
}
process.exit(code);
