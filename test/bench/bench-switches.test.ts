import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BenchUsageError, cpuProfDir, wholeNumbers } from '../../bench/bench-usage.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VARIABLE = 'BENCH_FLEET_SCALE_CPU_PROF';

test('BENCH_FLEET_SCALE_CPU_PROF names a directory: unset or empty is off, a new one is created, a switch word or an unwritable path is refused', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cpu-prof-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  assert.equal(cpuProfDir(undefined, VARIABLE), undefined);
  assert.equal(cpuProfDir('', VARIABLE), undefined);
  const fresh = join(dir, 'a', 'b');
  assert.equal(cpuProfDir(fresh, VARIABLE), fresh);
  assert.ok(statSync(fresh).isDirectory());
  for (const word of ['1', 'true', 'ON', 'no', '0']) {
    assert.throws(
      () => cpuProfDir(word, VARIABLE),
      (error: unknown) =>
        error instanceof BenchUsageError &&
        error.message.startsWith(
          `${VARIABLE} names the directory the --cpu-prof files go to, not a switch`,
        ) &&
        !error.message.includes('\n'),
    );
    assert.ok(!existsSync(join(ROOT, word)), 'no directory made of a switch word');
  }
  const file = join(dir, 'file');
  writeFileSync(file, '');
  assert.throws(
    () => cpuProfDir(join(file, 'profiles'), VARIABLE),
    (error: unknown) =>
      error instanceof BenchUsageError && /: cannot write profiles there \(ENOTDIR\)$/.test(error.message),
  );
});

test('npm run bench -- fleet-scale with a bad BENCH_FLEET_SCALE_CPU_PROF exits 2 with one line before any fleet starts', () => {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'bench/run.ts', 'fleet-scale', '--pbx-count', '10'],
    {
      cwd: ROOT,
      env: { ...process.env, [VARIABLE]: '1', BENCH_FLEET_SCALE_WINDOW_MS: '1000' },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  assert.equal(run.status, 2, `${run.stdout}\n${run.stderr}`);
  assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
  assert.match(
    run.stderr,
    /^bench: BENCH_FLEET_SCALE_CPU_PROF names the directory the --cpu-prof files go to, not a switch \(got "1"\)/,
  );
  assert.ok(!run.stdout.includes('Fleet at field scale'), run.stdout);
});

test('the fleet-scale counts and durations take whole numbers: anything else is refused with one line naming the variable', () => {
  assert.equal(wholeNumbers(undefined, 'X', { min: 1 }), undefined);
  assert.deepEqual(wholeNumbers('100,1000', 'X', { min: 1, list: true }), [100, 1000]);
  assert.deepEqual(wholeNumbers('0', 'X', { min: 0 }), [0]);
  for (const [raw, min, list] of [
    ['ten', 1, false],
    ['1e5', 1, false],
    ['-1', 0, false],
    ['0', 1, false],
    ['', 1, false],
    ['100,,1000', 1, true],
    ['100,x', 1, true],
  ] as const) {
    assert.throws(
      () => wholeNumbers(raw, 'BENCH_FLEET_SCALE_COUNTS', { min, list }),
      (error: Error) =>
        error instanceof BenchUsageError &&
        error.message.startsWith('BENCH_FLEET_SCALE_COUNTS takes') &&
        error.message.includes(JSON.stringify(raw)),
      raw,
    );
  }
});

test('npm run bench -- fleet-scale with a count that is not a whole number exits 2 with one line before any fleet starts', () => {
  for (const [args, env, expected] of [
    [['--pbx-count', 'many'], {}, /^bench: --pbx-count takes a whole number of at least 1 \(got "many"\)$/],
    [['--pbx-count'], {}, /^bench: --pbx-count takes a whole number of at least 1 \(got ""\)$/],
    [[], { BENCH_FLEET_SCALE_COUNTS: '100,lots' }, /^bench: BENCH_FLEET_SCALE_COUNTS takes comma-separated/],
  ] as const) {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', 'fleet-scale', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, BENCH_FLEET_SCALE_WINDOW_MS: '1000' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 2, `${run.stdout}\n${run.stderr}`);
    assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    assert.match(run.stderr.trim(), expected);
    assert.ok(!run.stdout.includes('Fleet at field scale'), run.stdout);
  }
});
