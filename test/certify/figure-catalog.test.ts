import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import Ajv from 'ajv';
import { FIGURE_CATALOG, figureCatalogDocument } from '../../src/certify/figure-catalog.ts';
import { certify, EXAMPLES, tempDir } from './support.ts';

/* The figure catalog (issue 28 §2): published as schemas/figure-catalog.json and by --list-figures. */

const SCHEMAS = join(import.meta.dirname, '..', '..', 'schemas');

test('schemas/figure-catalog.json is the catalog of the code, valid against its schema, names unique', async () => {
  const published = JSON.parse(await readFile(join(SCHEMAS, 'figure-catalog.json'), 'utf8'));
  assert.deepEqual(published, figureCatalogDocument(), 'stale: regenerate schemas/figure-catalog.json');
  const schema = JSON.parse(await readFile(join(SCHEMAS, 'figure-catalog.schema.json'), 'utf8'));
  const validate = new Ajv.default({ allErrors: true, strict: false }).compile(schema);
  assert.ok(validate(published), JSON.stringify(validate.errors));
  const names = FIGURE_CATALOG.map((f) => f.name);
  assert.equal(new Set(names).size, names.length);
});

test('--list-figures prints every figure with its unit; a measure naming no figure is exit 2 with the closest names', async (t) => {
  const dir = await tempDir(t);
  const listed = await certify(dir, ['--list-figures']);
  assert.equal(listed.code, 0);
  for (const f of FIGURE_CATALOG)
    assert.match(
      listed.out,
      new RegExp(`^${f.name.replace(/\./g, '\\.')} +${f.unit.replace('%', '%')} `, 'm'),
    );
  await writeFile(join(dir, 'x.yaml'), 'measures:\n  online: phones.onlin\n');
  const typo = await certify(dir, [
    '--expectations',
    'x.yaml',
    '--',
    join(EXAMPLES, 'check_pbx_phones.py'),
    '-H',
    '{host}',
  ]);
  assert.equal(typo.code, 2);
  assert.match(typo.err, /no figure 'phones.onlin' in the figure catalog \(closest: phones.online, /);
  assert.doesNotMatch(typo.err, /\n\s+at /, 'no stack trace');
});

test('a watches pattern that matches no service in any run is a usage error (exit 2) naming the closest services', async (t) => {
  const dir = await tempDir(t);
  await writeFile(join(dir, 'x.yaml'), "watches: ['PBX All Phones Ofline']\n");
  const run = await certify(dir, [
    '--expectations',
    'x.yaml',
    '--scenario',
    'healthy',
    '--runs',
    '0',
    '--',
    join(EXAMPLES, 'check_pbx_phones.py'),
    '-H',
    '{host}',
    '-p',
    '{port}',
  ]);
  assert.equal(run.code, 2, run.out + run.err);
  assert.match(
    run.err,
    /'PBX All Phones Ofline' matches no service in any run \(closest services: 'PBX All Phones Offline'/,
  );
});
