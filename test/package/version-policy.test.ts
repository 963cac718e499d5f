import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { DEFAULT_CATALOG_PATH, PACKAGE_ROOT, SHARED_CATALOG_PATH } from '../../src/core/project-paths.ts';
import { fingerprint, versionInfo, versionText } from '../../src/core/tool-version.ts';

const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  private?: boolean;
  specRevisions: Record<string, string>;
};
const SPECS_DIR = join(SHARED_CATALOG_PATH, '..');

test('the CLI version is semver and the package is publishable', () => {
  assert.match(pkg.version, /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/);
  assert.equal(pkg.private, undefined);
});

test('specRevisions names exactly the spec files the catalog cites', () => {
  const catalog = parse(readFileSync(DEFAULT_CATALOG_PATH, 'utf8')) as { clauses: { spec: string }[] };
  const cited = [...new Set(catalog.clauses.map((clause) => clause.spec))].sort();
  assert.deepEqual(Object.keys(pkg.specRevisions).sort(), cited);
  for (const revision of Object.values(pkg.specRevisions)) assert.match(revision, /^sha256:[0-9a-f]{12}$/);
});

test('specRevisions are the fingerprints of the spec repository files', {
  skip: existsSync(SPECS_DIR) ? false : `no spec repository at ${SPECS_DIR}`,
}, () => {
  for (const [spec, revision] of Object.entries(pkg.specRevisions)) {
    assert.equal(
      fingerprint(readFileSync(join(SPECS_DIR, spec))),
      revision,
      `${spec} changed: update package.json specRevisions`,
    );
  }
});

test('--version text carries the three versions', () => {
  const info = versionInfo();
  assert.equal(info.tool, pkg.version);
  assert.equal(
    info.catalog.format,
    (parse(readFileSync(DEFAULT_CATALOG_PATH, 'utf8')) as { version: number }).version,
  );
  assert.equal(info.catalog.fingerprint, fingerprint(readFileSync(DEFAULT_CATALOG_PATH)));
  assert.deepEqual(info.specRevisions, pkg.specRevisions);
  const text = versionText({
    tool: '1.2.3',
    catalog: { format: 1, fingerprint: 'sha256:0123456789ab' },
    specRevisions: { 'a.md': 'sha256:aaaaaaaaaaaa' },
  });
  assert.equal(
    text,
    'pbx-conformance 1.2.3\ncatalog: features/clauses.yaml format 1 sha256:0123456789ab\nspecs judged:\n  a.md sha256:aaaaaaaaaaaa',
  );
});
