import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { checkCatalog } from '../../../src/catalog/check-catalog.ts';
import { runCatalogCheck } from '../../../src/catalog/run-catalog-check.ts';
import { scanCitations } from '../../../src/catalog/scan-citations.ts';
import { scanFeatureTags } from '../../../src/catalog/scan-feature-tags.ts';
import { testCatalog } from '../report/test-catalog.ts';

const CATALOG_YAML = `version: 1
clauses:
  - {id: MON-A, spec: s.md, section: S, rule: R, check: black-box, property: false}
  - {id: MON-B, spec: s.md, section: S, rule: R, check: control, property: false}
  - {id: MON-INFO, spec: s.md, section: S, rule: R, check: not-testable, property: false}
  - {id: XMLRPC-A, spec: x.md, section: S, rule: R, check: black-box, property: false}
unspecified:
  - {id: MON-UNSPEC-Z, spec: s.md, what: "Not shown: z"}
`;

async function withFeatures(
  files: Record<string, string>,
  body: (dir: string) => Promise<void>,
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-catalog-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      await mkdir(join(dir, 'features', name, '..'), { recursive: true });
      await writeFile(join(dir, 'features', name), text);
    }
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

const GOOD = `@MON
Feature: good
  @MON-A
  Scenario: proves A
    Given something
`;

test('inherited tags count, and a well-tagged suite has no problems', async () => {
  await withFeatures({ 'mon/good.feature': GOOD }, async (dir) => {
    const scan = await scanFeatureTags(join(dir, 'features'));
    assert.deepEqual(scan.scenarios, [
      { name: 'proves A', uri: 'mon/good.feature', line: 4, tags: ['@MON', '@MON-A'] },
    ]);
    const result = checkCatalog({ catalog: testCatalog(), scan, coverageGoals: [] });
    assert.deepEqual(result.problems, []);
    const mon = result.coverage.find((c) => c.prefix === 'MON');
    assert.deepEqual(mon && [mon.covered, mon.testable], [1, 4]);
    assert.deepEqual(mon?.uncovered, ['MON-B', 'MON-C', 'MON-D']);
  });
});

test('reports an unknown clause tag, an untagged scenario and a tag naming an unspecified place', async () => {
  const bad = `Feature: bad
  @MON-NOPE
  Scenario: unknown tag
    Given x

  @wip
  Scenario: no clause tag
    Given x

  @MON-UNSPEC-Z @MON-A
  Scenario: asserts the unspecified
    Given x

  @MON-INFO
  Scenario: asserts the informative
    Given x
`;
  await withFeatures({ 'bad.feature': bad }, async (dir) => {
    const scan = await scanFeatureTags(join(dir, 'features'));
    const result = checkCatalog({ catalog: testCatalog(), scan, coverageGoals: [] });
    const kinds = result.problems.map((p) => p.kind);
    assert.deepEqual(kinds, [
      'unknown-tag',
      'untagged-scenario',
      'untagged-scenario',
      'unspecified-tag',
      'not-testable-tag',
      'untagged-scenario',
    ]);
    assert.match(
      result.problems[0]?.message ?? '',
      /^bad\.feature:3 "unknown tag": @MON-NOPE is not a catalog clause id/,
    );
    assert.match(result.problems[1]?.message ?? '', /^bad\.feature:3 .*cites no testable/);
    assert.match(result.problems[2]?.message ?? '', /^bad\.feature:7 "no clause tag"/);
  });
});

test('coverage goals fail on uncovered testable clauses and on unknown prefixes', async () => {
  await withFeatures({ 'good.feature': GOOD }, async (dir) => {
    const scan = await scanFeatureTags(join(dir, 'features'));
    const result = checkCatalog({ catalog: testCatalog(), scan, coverageGoals: ['MON', 'NOPE'] });
    assert.deepEqual(
      result.problems.map((p) => p.kind),
      ['unknown-goal-prefix', 'goal-not-met'],
    );
    assert.match(
      result.problems[1]?.message ?? '',
      /MON must be fully covered; no scenario proves MON-B, MON-C, MON-D/,
    );
  });
});

test('a catalog that differs from the shared copy is reported', () => {
  const scan = { scenarios: [], errors: [] };
  const same = checkCatalog({
    catalog: testCatalog(),
    scan,
    coverageGoals: [],
    catalogText: 'a',
    sharedCatalogText: 'a',
  });
  assert.deepEqual(same.problems, []);
  const absent = checkCatalog({
    catalog: testCatalog(),
    scan,
    coverageGoals: [],
    catalogText: 'a',
    sharedCatalogText: null,
  });
  assert.deepEqual(absent.problems, []);
  const drift = checkCatalog({
    catalog: testCatalog(),
    scan,
    coverageGoals: [],
    catalogText: 'a',
    sharedCatalogText: 'b',
  });
  assert.deepEqual(
    drift.problems.map((p) => p.kind),
    ['catalog-drift'],
  );
});

test('runCatalogCheck prints coverage and exits 1 on problems, 0 when clean, 2 when it cannot run', async () => {
  await withFeatures({ 'good.feature': GOOD }, async (dir) => {
    const catalogPath = join(dir, 'clauses.yaml');
    await writeFile(catalogPath, CATALOG_YAML);
    const goalsPath = join(dir, 'goals.yaml');
    await writeFile(goalsPath, 'prefixes: []\n');
    const base = {
      catalogPath,
      featuresDir: join(dir, 'features'),
      coverageGoalsPath: goalsPath,
      sharedCatalogPath: null,
      sourceRoot: null,
    };

    const clean = capture();
    assert.equal(await runCatalogCheck({ ...base, stdout: clean.stream, stderr: clean.stream }), 0);
    assert.match(clean.text(), /MON\s+1\/2 covered/);
    assert.match(clean.text(), /XMLRPC \(1\):\n\s+XMLRPC-A/);
    assert.match(clean.text(), /catalog check passed/);

    await writeFile(goalsPath, 'prefixes: [XMLRPC]\n');
    const goal = capture();
    assert.equal(await runCatalogCheck({ ...base, stdout: goal.stream, stderr: goal.stream }), 1);
    assert.match(goal.text(), /XMLRPC must be fully covered/);

    await writeFile(goalsPath, 'prefixes: []\n');
    const shared = join(dir, 'shared.yaml');
    await writeFile(shared, `${CATALOG_YAML}# changed\n`);
    const drift = capture();
    assert.equal(
      await runCatalogCheck({
        ...base,
        sharedCatalogPath: shared,
        stdout: drift.stream,
        stderr: drift.stream,
      }),
      1,
    );
    assert.match(drift.text(), /differs from \.\.\/shared\/specs\/clauses\.yaml/);

    const broken = capture();
    const missing = { ...base, catalogPath: join(dir, 'missing.yaml') };
    assert.equal(await runCatalogCheck({ ...missing, stdout: broken.stream, stderr: broken.stream }), 2);
    assert.match(broken.text(), /^catalog check: .*ENOENT/);
  });
});

test('a feature that does not parse is a problem', async () => {
  await withFeatures(
    { 'broken.feature': 'Feature: x\n  Scenario: y\n    Given z\n  not gherkin at all\n' },
    async (dir) => {
      const scan = await scanFeatureTags(join(dir, 'features'));
      const result = checkCatalog({ catalog: testCatalog(), scan, coverageGoals: [] });
      assert.equal(result.problems[0]?.kind, 'parse-error');
    },
  );
});

test('a testable clause no simulator source cites in full is a problem; abbreviations are flagged', async () => {
  const root = await mkdtemp(join(tmpdir(), 'pbx-citations-'));
  try {
    await mkdir(join(root, 'simulators', 'pbx'), { recursive: true });
    await mkdir(join(root, 'steps'), { recursive: true });
    await writeFile(
      join(root, 'simulators', 'pbx', 'a.ts'),
      [
        '/** Implements MON-A and XMLRPC-A; MON-INFO is not testable. */',
        'export const x = 1;',
        '/** The rest of them (MON-*). */',
        'export const y = /-SESS$/;',
      ].join('\n'),
    );
    await writeFile(join(root, 'steps', 'b.ts'), '// checks MON-A, -B\n');
    const citations = await scanCitations({ root, prefixes: ['MON', 'XMLRPC'] });
    assert.deepEqual([...citations.cited].sort(), ['MON-A', 'MON-INFO', 'XMLRPC-A']);
    assert.deepEqual(
      citations.abbreviations.map((a) => `${a.where} ${a.text}`),
      ['simulators/pbx/a.ts:3 MON-*', 'steps/b.ts:1 , -B'],
      'only comment lines count: a regular expression in code is no citation',
    );
    await withFeatures({ 'good.feature': GOOD }, async (dir) => {
      const scan = await scanFeatureTags(join(dir, 'features'));
      const result = checkCatalog({ catalog: testCatalog(), scan, coverageGoals: [], citations });
      const uncited = result.problems.filter((p) => p.kind === 'uncited-clause').map((p) => p.message);
      assert.deepEqual(uncited, ['MON: no simulator source cites MON-B, MON-C, MON-D']);
      assert.equal(result.problems.filter((p) => p.kind === 'abbreviated-citation').length, 2);
      assert.deepEqual(result.coverage.find((c) => c.prefix === 'XMLRPC')?.uncited, []);
    });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('a plugin clause counts as cited only where certify-plugin judges it (src/certify)', async () => {
  const root = await mkdtemp(join(tmpdir(), 'pbx-citations-'));
  try {
    await mkdir(join(root, 'simulators'), { recursive: true });
    await mkdir(join(root, 'src', 'certify'), { recursive: true });
    await writeFile(join(root, 'simulators', 'a.ts'), '/** PLUGIN-A, PLUGIN-B */\nexport const x = 1;\n');
    await writeFile(join(root, 'src', 'certify', 'b.ts'), '/** PLUGIN-B */\nexport const y = 1;\n');
    const citations = await scanCitations({ root, prefixes: ['PLUGIN'] });
    const plugin = (id: string) => ({
      id,
      spec: 'p.md',
      section: 'A run',
      rule: 'R',
      check: 'plugin' as const,
      property: false,
      level: 'must' as const,
    });
    const catalog = {
      version: 1,
      fingerprint: 'sha256:0123456789ab',
      clauses: [plugin('PLUGIN-A'), plugin('PLUGIN-B')],
      unspecified: [],
    };
    const result = checkCatalog({
      catalog,
      scan: { scenarios: [], errors: [] },
      coverageGoals: [],
      citations,
    });
    assert.deepEqual(result.coverage.find((c) => c.prefix === 'PLUGIN')?.uncited, ['PLUGIN-A']);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
