import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway Cucumber project in a temp dir: one feature file and trivial TypeScript steps that
 * import this project's @cucumber/cucumber by URL (the temp dir has no node_modules). Each call
 * makes a new directory, because an ES module already imported in this process is not re-run.
 */
export interface ThrowawaySuite {
  dir: string;
  cleanup(): Promise<void>;
}

const CUCUMBER_URL = import.meta.resolve('@cucumber/cucumber');
const ATTACHMENTS_URL = new URL('../../../src/report/attachments.ts', import.meta.url).href;

export const THROWAWAY_FEATURE = `Feature: throwaway
  @MON-A
  Scenario: passes with evidence
    Given a passing step

  @MON-B
  Scenario: fails
    Given a failing step

  @XMLRPC-A
  Scenario: cannot be verified here
    Given a step that cannot verify its clause
`;

const STEPS = `import { Given } from '${CUCUMBER_URL}';
import { EVIDENCE_MEDIA_TYPE, NOT_VERIFIABLE_MEDIA_TYPE } from '${ATTACHMENTS_URL}';

Given('a passing step', function () {
  this.attach(JSON.stringify({ exchange: 'TCP raw connect', response: 'ok', details: { target: this.parameters.target?.file ?? null } }), EVIDENCE_MEDIA_TYPE);
});
Given('a failing step', function () {
  throw new Error('expected <agent> text');
});
class FixtureError extends Error {}
Given('a step whose fixture cannot be set up', function () {
  throw new FixtureError('found no 2 consecutive free ports');
});
Given('a step that cannot verify its clause', function () {
  this.attach(JSON.stringify({ reason: 'the target has no control plane' }), NOT_VERIFIABLE_MEDIA_TYPE);
  return 'skipped';
});
`;

export const THROWAWAY_CATALOG = `version: 1
clauses:
  - {id: MON-A, spec: s.md, section: "One / A", rule: "Rule A", check: black-box, property: false}
  - {id: MON-B, spec: s.md, section: "One / B", rule: "Rule B", check: control, property: false}
  - {id: MON-INFO, spec: s.md, section: "One", rule: "Informative", check: not-testable, property: false}
  - {id: XMLRPC-A, spec: x.md, section: "Two", rule: "Rule X", check: control, property: false}
unspecified: []
`;

export async function createThrowawaySuite(feature = THROWAWAY_FEATURE): Promise<ThrowawaySuite> {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-suite-'));
  await mkdir(join(dir, 'features'));
  await mkdir(join(dir, 'steps'));
  // Without it, tsx would load the .ts steps as CommonJS.
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  await writeFile(join(dir, 'features', 'throwaway.feature'), feature);
  await writeFile(join(dir, 'steps', 'steps.ts'), STEPS);
  await writeFile(join(dir, 'clauses.yaml'), THROWAWAY_CATALOG);
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
