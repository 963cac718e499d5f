import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import type { Pickle } from '@cucumber/messages';
import { publishSelectedScenarios } from '../../../src/runner/selected-scenarios.ts';
import {
  Certification,
  type CertifyStep,
  certificationCount,
  closeCertifications,
  parseCertifyStep,
} from '../../../steps/certify/support/certification.ts';
import { prefetchCertifications } from '../../../steps/certify/support/prefetch.ts';

/*
 * Issue 31 §1: one certification per spec (plug-ins, expectations, command, scenarios, options,
 * added variables) serves every scenario of features/certify/ with that spec, and the prefetch
 * starts the selected scenarios' certifications before they run.
 */

const PLUGIN = '#!/bin/sh\necho "PBX OK - up | a=1"\n';
const WHEN = 'certify-plugin runs "./check.sh {host} {port}" on the scenario "healthy"';

function whenStep(): CertifyStep {
  const step = parseCertifyStep(WHEN);
  assert.ok(step);
  return step;
}

function pickle(name: string, steps: { text: string; doc?: string }[], tag = '@certify-plugin'): Pickle {
  return {
    id: name,
    uri: 'features/certify/x.feature',
    name,
    language: 'en',
    astNodeIds: [],
    tags: [{ name: tag, astNodeId: '' }],
    steps: steps.map((s, i) => ({
      id: `${name}-${i}`,
      text: s.text,
      astNodeIds: [],
      ...(s.doc === undefined ? {} : { argument: { docString: { content: s.doc } } }),
    })),
  } as Pickle;
}

test('the When step parses as the step definition reads it', () => {
  assert.deepEqual(
    parseCertifyStep(
      'certify-plugin runs "./c.py {host} {port}" on the scenarios "healthy", "large" and "render-error" and 3 generated states with the extra runs',
    ),
    {
      command: './c.py {host} {port}',
      scenarios: ['healthy', 'large', 'render-error'],
      generated: 3,
      extraRuns: true,
    },
  );
  assert.deepEqual(parseCertifyStep(WHEN), {
    command: './check.sh {host} {port}',
    scenarios: ['healthy'],
    generated: 0,
    extraRuns: false,
  });
  assert.deepEqual(
    parseCertifyStep(
      'certify-plugin runs "./c.py {host} {port} {timeout}" on the scenario "healthy" with the extra runs of PLUGIN-OWN-TIMEOUT',
    ),
    {
      command: './c.py {host} {port} {timeout}',
      scenarios: ['healthy'],
      generated: 0,
      extraRuns: ['PLUGIN-OWN-TIMEOUT'],
    },
  );
  assert.equal(parseCertifyStep('certify-plugin runs nothing'), null);
});

test('scenarios with the same spec share one certification; another spec gets its own', async (t) => {
  t.after(closeCertifications);
  const before = certificationCount();
  const a = new Certification();
  a.writePlugin('check.sh', PLUGIN);
  const b = new Certification();
  b.writePlugin('check.sh', PLUGIN);
  await a.run(whenStep());
  await b.run(whenStep());
  assert.equal(certificationCount(), before + 1);
  assert.equal(a.result, b.result);
  assert.equal(a.result?.clauses.find((c) => c.id === 'PLUGIN-EXIT-CODE')?.verdict, 'pass');
  const c = new Certification();
  c.writePlugin('check.sh', PLUGIN.replace('OK', 'WARNING'));
  await c.run(whenStep());
  assert.equal(certificationCount(), before + 2);
  assert.notEqual(c.result, a.result);
  const d = new Certification();
  d.writePlugin('check.sh', PLUGIN);
  d.env['SOME_SECRET'] = 'x';
  assert.notDeepEqual(d.spec(whenStep()), a.spec(whenStep()));
  const dir = a.dir;
  assert.ok(existsSync(dir));
  await closeCertifications();
  assert.equal(existsSync(dir), false, 'the certification folder outlived closeCertifications');
});

test('the prefetch starts the selected certify scenarios whose steps it knows, and the scenario takes that certification', async (t) => {
  t.after(() => publishSelectedScenarios({ pickles: [], embedded: false }));
  t.after(closeCertifications);
  const plain = pickle('plain', [
    { text: 'the plug-in "check.sh":', doc: PLUGIN.replace('up', 'plain') },
    { text: WHEN },
  ]);
  const withSecret = pickle('secret', [
    { text: 'a process of the harness holds the secret "X" in its environment' },
    { text: 'the plug-in "check.sh":', doc: PLUGIN },
    { text: WHEN },
  ]);
  const other = pickle('other feature', [{ text: WHEN }], '@MON-A');
  publishSelectedScenarios({ pickles: [plain, withSecret, other], embedded: false });
  assert.equal(prefetchCertifications('@certify-plugin'), 0, 'prefetched against a target');
  publishSelectedScenarios({ pickles: [plain, withSecret, other], embedded: true });
  const before = certificationCount();
  assert.equal(prefetchCertifications('@certify-plugin'), 1);
  assert.equal(certificationCount(), before + 1);
  const scenario = new Certification();
  scenario.writePlugin('check.sh', PLUGIN.replace('up', 'plain'));
  await scenario.run(whenStep());
  assert.equal(certificationCount(), before + 1, 'the scenario made a certification of its own');
  assert.match(scenario.result?.runs[0]?.evidence?.stdout ?? '', /PBX OK - plain/);
});
