import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadCatalog } from '../../src/catalog/load-catalog.ts';
import {
  certifyPlugin,
  EXTRA_RUN_CLAUSES,
  localeInstalled,
  localeMadeTheDifference,
} from '../../src/certify/certify.ts';
import { planRuns } from '../../src/certify/certify-plan.ts';
import { scenarioCatalog } from '../../src/certify/scenario-catalog.ts';
import { tempDir, throwawayPlugin } from './support.ts';

/*
 * PLUGIN-NO-CRASH and PLUGIN-OUTPUT-SIZE hold on every run, the extra runs included: a plug-in
 * that lets its own timeout end in a traceback (the held-back answer), or that crashes only under
 * LC_ALL=de_DE.UTF-8, crashed; before, only PLUGIN-OWN-TIMEOUT (a should rule) was judged there and
 * the certification passed.
 */

async function certifyExtra(dir: string, source: string) {
  const plugin = await throwawayPlugin(dir, 'check.py', source);
  const catalog = await loadCatalog();
  return certifyPlugin({
    argv: [plugin, '{host}', '{port}', '{timeout}'],
    expectations: null,
    scenarios: scenarioCatalog().filter((s) => s.name === 'healthy'),
    runs: 0,
    timeoutMs: 15_000,
    cwd: dir,
    env: process.env,
    levels: new Map(catalog.clauses.flatMap((c) => (c.level ? [[c.id, c.level] as const] : []))),
    reportsDir: dir,
    replayCommand: (file) => file,
  });
}

const HEAD = `#!/usr/bin/env python3
import locale, socket, sys
if sys.argv[1:2] in (['--help'], ['--version']):
    print('check 1.0')
    sys.exit(3)
host, port, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
`;

test('a traceback on the held-back answer breaks PLUGIN-NO-CRASH, not only PLUGIN-OWN-TIMEOUT', async (t) => {
  const result = await certifyExtra(
    await tempDir(t),
    `${HEAD}with socket.create_connection((host, port), timeout=timeout) as s:
    text = b''.join(iter(lambda: s.recv(65536), b'')).decode()
print('PBX OK - %d lines' % len(text.splitlines()))
`,
  );
  const noCrash = result.clauses.find((c) => c.id === 'PLUGIN-NO-CRASH');
  assert.equal(noCrash?.verdict, 'fail', JSON.stringify(noCrash));
  assert.deepEqual(noCrash?.findings, [
    { run: 'held-back answer', message: 'a Python traceback in its output' },
  ]);
  assert.equal(result.clauses.find((c) => c.id === 'PLUGIN-OWN-TIMEOUT')?.verdict, 'warn');
});

test('a traceback only under LC_ALL=de_DE.UTF-8 breaks PLUGIN-NO-CRASH on the locale run', async (t) => {
  if (!localeInstalled('de_DE.UTF-8')) return t.skip('the locale de_DE.UTF-8 is not installed here');
  const result = await certifyExtra(
    await tempDir(t),
    `${HEAD}locale.setlocale(locale.LC_ALL, '')
if locale.getlocale()[0] == 'de_DE':
    raise RuntimeError('no German texts yet')
print('PBX OK - answering')
`,
  );
  const noCrash = result.clauses.find((c) => c.id === 'PLUGIN-NO-CRASH');
  assert.equal(noCrash?.verdict, 'fail', JSON.stringify(noCrash));
  assert.deepEqual(noCrash?.findings, [
    {
      run: 'healthy (LC_ALL=de_DE.UTF-8)',
      message: 'under LC_ALL=de_DE.UTF-8: a Python traceback in its output',
    },
  ]);
});

test('a plug-in that handles its timeout and its locale breaks neither on the extra runs', async (t) => {
  const result = await certifyExtra(
    await tempDir(t),
    `${HEAD}try:
    with socket.create_connection((host, port), timeout=timeout) as s:
        text = b''.join(iter(lambda: s.recv(65536), b'')).decode()
except OSError as error:
    print('PBX UNKNOWN - no answer within %g s: %s' % (timeout, error))
    sys.exit(3)
print('PBX OK - %d lines' % len(text.splitlines()))
`,
  );
  const verdicts = Object.fromEntries(result.clauses.map((c) => [c.id, c.verdict]));
  assert.equal(verdicts['PLUGIN-NO-CRASH'], 'pass');
  assert.equal(verdicts['PLUGIN-OWN-TIMEOUT'], 'pass');
  const noCrash = result.clauses.find((c) => c.id === 'PLUGIN-NO-CRASH');
  assert.ok(noCrash?.runs.includes('held-back answer'), JSON.stringify(noCrash?.runs));
});

test('the locale explains a difference of separators, units or served figures; not a measured duration', () => {
  // A duration the plug-in measures itself differs from run to run: no evidence against it.
  assert.equal(
    localeMadeTheDifference({ value: '0.154260', uom: 's' }, { value: '0.161718', uom: 's' }),
    false,
  );
  assert.equal(localeMadeTheDifference({ value: '12', uom: 'ms' }, { value: '15', uom: 'ms' }), false);
  // Thousands grouped with `.` under de_DE: the same digits, another number.
  assert.equal(localeMadeTheDifference({ value: '1234', uom: 's' }, { value: '1.234', uom: 's' }), true);
  assert.equal(localeMadeTheDifference({ value: '1234', uom: '' }, { value: '1.234', uom: '' }), true);
  // A count or size that is not a duration must not change with the locale.
  assert.equal(localeMadeTheDifference({ value: '3.2', uom: '' }, { value: '3', uom: '' }), true);
  assert.equal(localeMadeTheDifference({ value: '0.15', uom: 's' }, { value: '1.5', uom: 's' }), false);
  assert.equal(localeMadeTheDifference({ value: '1.5', uom: 's' }, { value: '1.5', uom: 'ms' }), true);
});

test('a plug-in that prints its own response time is locale-independent; one that groups thousands under de_DE is not', async (t) => {
  if (!localeInstalled('de_DE.UTF-8')) return t.skip('the locale de_DE.UTF-8 is not installed here');
  const timed = await certifyExtra(
    await tempDir(t),
    `${HEAD}import time
start = time.monotonic()
with socket.create_connection((host, port), timeout=timeout) as s:
    text = b''.join(iter(lambda: s.recv(65536), b'')).decode()
locale.setlocale(locale.LC_ALL, '')
print('PBX OK - %s lines | time=%.6fs;;;0 lines=%d' % (locale.format_string('%d', len(text.splitlines()), grouping=True), time.monotonic() - start, len(text.splitlines())))
`,
  );
  const kept = timed.clauses.find((c) => c.id === 'PLUGIN-LOCALE-INDEPENDENT');
  assert.equal(kept?.verdict, 'pass', JSON.stringify(kept));
  const grouped = await certifyExtra(
    await tempDir(t),
    `${HEAD}locale.setlocale(locale.LC_ALL, '')
print('PBX OK - database | database_pages=%s' % locale.format_string('%d', 4096, grouping=True))
`,
  );
  const broken = grouped.clauses.find((c) => c.id === 'PLUGIN-LOCALE-INDEPENDENT');
  assert.equal(broken?.verdict, 'warn', JSON.stringify(broken));
  assert.match(
    broken?.findings[0]?.message ?? '',
    /'database_pages' is 4\.096 under LC_ALL=de_DE\.UTF-8, 4096 under LC_ALL=C/,
  );
});

test('a certification asked for the extra runs of one clause makes only those; the others are not verifiable, and say why', async () => {
  const catalog = await loadCatalog();
  const input = {
    argv: ['./check.py', '{host}', '{port}', '{timeout}'],
    expectations: null,
    scenarios: scenarioCatalog().filter((s) => s.name === 'healthy'),
    runs: 0,
    timeoutMs: 15_000,
    cwd: '.',
    env: process.env,
    levels: new Map(catalog.clauses.flatMap((c) => (c.level ? [[c.id, c.level] as const] : []))),
    reportsDir: '.',
    replayCommand: (file: string) => file,
  };
  const locale = localeInstalled('de_DE.UTF-8');
  assert.deepEqual(planRuns(input).extra, { helpAndVersion: true, locale, heldBack: true });
  assert.deepEqual(planRuns({ ...input, extraRuns: false }).extra, {
    helpAndVersion: false,
    locale: false,
    heldBack: false,
  });
  for (const [clause, extra] of [
    ['PLUGIN-HELP-VERSION', { helpAndVersion: true, locale: false, heldBack: false }],
    ['PLUGIN-LOCALE-INDEPENDENT', { helpAndVersion: false, locale, heldBack: false }],
    ['PLUGIN-OWN-TIMEOUT', { helpAndVersion: false, locale: false, heldBack: true }],
  ] as const) {
    const plan = planRuns({ ...input, extraRuns: [clause] });
    assert.deepEqual(plan.extra, extra, clause);
    for (const other of EXTRA_RUN_CLAUSES.filter((c) => c !== clause))
      assert.equal(
        plan.notVerifiable.get(other),
        `its extra runs were not asked for: this certification makes only those of ${clause}`,
      );
    assert.equal(plan.notVerifiable.has(clause), clause === 'PLUGIN-LOCALE-INDEPENDENT' && !locale);
  }
});
