import assert from 'node:assert/strict';
import { test } from 'node:test';
import { catalogPrefixes, clausePrefix } from '../../../src/catalog/catalog.ts';
import { loadCatalog, parseCatalog } from '../../../src/catalog/load-catalog.ts';

test('loads the project catalog with typed clauses and unspecified places', async () => {
  const catalog = await loadCatalog();
  assert.equal(catalog.version, 1);
  assert.ok(catalog.clauses.length > 0);
  assert.ok(catalog.unspecified.length > 0);
  for (const clause of catalog.clauses) {
    assert.match(clause.id, /^[A-Z]+(-[A-Z0-9]+)+$/);
    assert.ok(['black-box', 'control', 'client', 'plugin', 'not-testable'].includes(clause.check), clause.id);
    assert.equal(
      clause.level !== undefined,
      clause.check === 'plugin',
      `${clause.id}: level exactly on plugin clauses`,
    );
  }
  assert.ok(catalogPrefixes(catalog).includes('MON'));
  assert.ok(catalogPrefixes(catalog).includes('XMLRPC'));
});

test('refuses duplicate ids, unknown check kinds and missing fields', () => {
  const clause = (id: string, check = 'black-box') =>
    `  - {id: ${id}, spec: s.md, section: S, rule: R, check: ${check}, property: false}\n`;
  assert.throws(
    () => parseCatalog(`version: 1\nclauses:\n${clause('A-B')}${clause('A-B')}`),
    /duplicate id A-B/,
  );
  assert.throws(() => parseCatalog(`version: 1\nclauses:\n${clause('A-B', 'manual')}`), /unknown check/);
  assert.throws(
    () => parseCatalog('version: 1\nclauses:\n  - {id: A-B, spec: s.md}\n'),
    /A-B: .* is missing/,
  );
  assert.throws(() => parseCatalog('clauses: []\n'), /version/);
});

test('a plugin clause needs level must or should, and only a plugin clause may have one', () => {
  const base = '  - {id: PLUGIN-A, spec: p.md, section: S, rule: R, check: plugin, property: false';
  assert.equal(parseCatalog(`version: 1\nclauses:\n${base}, level: should}\n`).clauses[0]?.level, 'should');
  assert.throws(() => parseCatalog(`version: 1\nclauses:\n${base}}\n`), /PLUGIN-A: a plugin clause needs/);
  assert.throws(() => parseCatalog(`version: 1\nclauses:\n${base}, level: may}\n`), /needs/);
  assert.throws(
    () =>
      parseCatalog(
        'version: 1\nclauses:\n  - {id: MON-A, spec: s.md, section: S, rule: R, check: black-box, level: must}\n',
      ),
    /MON-A: `level` is for plugin clauses only/,
  );
});

test('the prefix of an id is the part before the first dash', () => {
  assert.equal(clausePrefix('XMLRPC-AUTH-PARAM'), 'XMLRPC');
  assert.equal(clausePrefix('MON'), 'MON');
});
