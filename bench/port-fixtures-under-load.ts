/**
 * Proof for issue 11 §1: runs the port-fallback features (MON-STATE-PORT-FALLBACK,
 * MON-STATE-BOTH-PORTS-BUSY) `RUNS` times in a row (default 20), each as a real `verify` process,
 * while bench/socket-churn.ts keeps the machine's ports busy beside them. Counts, per run, the
 * verdicts of the two clauses and the exit code. A harness fault is any verdict other than `pass`
 * or any exit code other than 0 (the simulator is conformant, so only the harness can cause one).
 *
 *   node --import tsx bench/port-fixtures-under-load.ts [runs]
 *
 * Prints one line per run and a summary; exits 1 when any run had a harness fault.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../src/core/project-paths.ts';

const CLAUSES = ['MON-STATE-PORT-FALLBACK', 'MON-STATE-BOTH-PORTS-BUSY'];
const runs = Number(process.argv[2] ?? 20);

function waitForLine(child: ReturnType<typeof spawn>): Promise<void> {
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`socket churn exited with ${code}`)));
  });
}

function verify(reports: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/cli/main.ts',
        'verify',
        '--quiet',
        '--tags',
        CLAUSES.map((id) => `@${id}`).join(' or '),
        '--reports',
        reports,
      ],
      { cwd: PROJECT_ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

const churn = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'bench/socket-churn.ts')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
await waitForLine(churn);
const dir = await mkdtemp(join(tmpdir(), 'port-fixtures-'));
const tally = { pass: 0, fail: 0, 'not-verifiable': 0, other: 0 };
let faults = 0;
try {
  for (let run = 1; run <= runs; run++) {
    const { code, stderr } = await verify(dir);
    const report = JSON.parse(await readFile(join(dir, 'compatibility.json'), 'utf8')) as {
      interfaces: Array<{ clauses: Array<{ id: string; verdict: string; reason?: string }> }>;
    };
    const verdicts = report.interfaces
      .flatMap((i) => i.clauses)
      .filter((c) => CLAUSES.includes(c.id))
      .map((c) => {
        const key = c.verdict in tally ? (c.verdict as keyof typeof tally) : 'other';
        tally[key] += 1;
        return `${c.id}=${c.verdict}${c.reason ? ` (${c.reason})` : ''}`;
      });
    const fault = code !== 0 || verdicts.some((v) => !v.includes('=pass'));
    if (fault) faults += 1;
    console.log(
      `run ${run}/${runs}: exit ${code} ${verdicts.join(' ')}${stderr ? ` stderr: ${stderr.trim()}` : ''}`,
    );
  }
} finally {
  churn.kill();
  await rm(dir, { recursive: true, force: true });
}
console.log(
  `${runs} runs under socket churn: ${faults} with a harness fault; clause verdicts: ${tally.pass} pass, ${tally.fail} fail, ${tally['not-verifiable']} not verifiable, ${tally.other} other`,
);
process.exitCode = faults === 0 ? 0 : 1;
