import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import { COMMAND_NAMES } from '../../../../simulators/pbx/maintenance/command-names.ts';
import { PARAMETER_NAMES } from '../../../../simulators/pbx/maintenance/command-parameters.ts';
import { SYSTEM_FUNCTIONS_PATH } from '../../../../simulators/pbx/maintenance/maintenance-api.ts';

const SCHEMAS = new URL('../../../../schemas/', import.meta.url);
const document = parse(readFileSync(new URL('maintenance-api.openapi.yaml', SCHEMAS), 'utf8')) as {
  openapi: string;
  paths: Record<string, Record<string, { parameters?: { name: string; schema?: { enum?: string[] } }[] }>>;
  components: { schemas: { CommandParameters: { properties: Record<string, unknown> } } };
};

function references(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) references(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') found.push(item);
      else references(item, found);
    }
  }
  return found;
}

test('the interface A document is OpenAPI 3.1 and every file reference exists', () => {
  assert.match(document.openapi, /^3\.1\.\d+$/);
  const files = references(document).filter((ref) => !ref.startsWith('#'));
  assert.ok(files.length >= 5);
  for (const ref of files) assert.ok(existsSync(new URL(ref, SCHEMAS)), ref);
});

test('MAINT-BASE-PATH, MAINT-COMMAND-NAMES: the document names the paths and the commands the simulator serves', () => {
  assert.ok(document.paths[SYSTEM_FUNCTIONS_PATH]?.['get']);
  const post = document.paths[`${SYSTEM_FUNCTIONS_PATH}/{command}`]?.['post'];
  assert.deepEqual(post?.parameters?.find((p) => p.name === 'command')?.schema?.enum, [...COMMAND_NAMES]);
  assert.deepEqual(
    Object.keys(document.components.schemas.CommandParameters.properties).sort(),
    [...PARAMETER_NAMES].sort(),
  );
});
