import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { addressAt } from '../../../simulators/fleet/address-pool.ts';
import { poolOptions, randomPool } from './random-pool.ts';

/** One scenario group per face of the PBX under test, the resolver's trust store among them, and the fleet's. */
const CLAUSES = [
  'MON-GET-CHECKMK',
  'XMLRPC-PHONE-STATUS',
  'MAINT-GET-COMMANDS',
  'RESOLVER-TLS-TRUST-STORE',
  'FLEET-SITES-NOT-MODIFIED',
];

interface Report {
  metadata: { webUrl: string };
  scenarios: { total: number; passed: number; failed: number };
  interfaces: { clauses: { id: string; verdict: string }[] }[];
}

test('npm run test:fleet-suite: the suite runs against a PBX in the middle of a pooled fleet, not its first, and passes', async (t) => {
  const count = 8;
  const picked = await randomPool(count);
  if (!picked) return t.skip('no spare loopback block on this system');
  const dir = await mkdtemp(join(tmpdir(), 'pbx-suite-in-fleet-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const reports = join(dir, 'reports');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/fleet-suite.ts',
      '--pbx-count',
      String(count),
      '--pbx',
      '6',
      '--tags',
      CLAUSES.map((id) => `@${id}`).join(' or '),
      '--reports',
      reports,
      ...poolOptions(picked),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(code, 0, stderr.slice(-2000));
  const report = JSON.parse(await readFile(join(reports, 'compatibility.json'), 'utf8')) as Report;
  assert.equal(
    report.metadata.webUrl,
    `http://${addressAt(picked.pool, 5)}:${picked.port2}`,
    'PBX 6 was the target',
  );
  assert.equal(report.scenarios.failed, 0);
  const verdicts = new Map(report.interfaces.flatMap((i) => i.clauses.map((c) => [c.id, c.verdict])));
  for (const id of CLAUSES) assert.equal(verdicts.get(id), 'pass', id);
  assert.match(stderr, /the suite runs against PBX 6 \(/);
});
