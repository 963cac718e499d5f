import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import { assertSchema } from './fleet-test-kit.ts';

const SCHEMAS = new URL('../../../schemas/', import.meta.url);
type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components?: unknown;
};
const load = (name: string) => parse(readFileSync(new URL(name, SCHEMAS), 'utf8')) as Doc;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

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

function resolvesInternally(doc: unknown, ref: string): boolean {
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    if (!node || typeof node !== 'object' || !(part in node)) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return true;
}

for (const name of ['fleet-api.openapi.yaml', 'fleet-control.openapi.yaml']) {
  test(`${name} is OpenAPI 3.1 and every reference resolves`, () => {
    const doc = load(name);
    assert.match(doc.openapi, /^3\.1\.\d+$/);
    for (const ref of references(doc)) {
      if (ref.startsWith('#')) assert.ok(resolvesInternally(doc, ref), ref);
      else assert.ok(existsSync(new URL(ref, SCHEMAS)), ref);
    }
  });
}

test('FLEET-BASE-PATH: the interface B document names exactly the endpoints the simulator serves', () => {
  const doc = load('fleet-api.openapi.yaml');
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => METHODS.includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
  assert.deepEqual(operations.sort(), [
    'GET /api/v1/sites',
    'GET /api/v1/sites/{siteId}/history',
    'POST /api/v1/sites/{siteId}/attention/{attentionId}/acknowledge',
    'POST /mcp',
  ]);
});

test('the examples of the interface B document validate against the wire schemas', () => {
  const doc = load('fleet-api.openapi.yaml') as unknown as {
    paths: Record<
      string,
      Record<
        string,
        {
          responses: Record<
            string,
            { content?: Record<string, { schema: { $ref?: string }; example?: unknown }> }
          >;
        }
      >
    >;
  };
  let checked = 0;
  for (const ops of Object.values(doc.paths)) {
    for (const op of Object.values(ops)) {
      for (const response of Object.values(op.responses ?? {})) {
        const media = response.content?.['application/json'];
        const ref = media?.schema?.$ref;
        if (!media || media.example === undefined || !ref?.startsWith('./fleet/')) continue;
        assertSchema(ref.slice('./fleet/'.length, -'.schema.json'.length), media.example);
        checked++;
      }
    }
  }
  assert.ok(checked >= 5, `checked ${checked} examples`);
});

test('the control-plane document holds no PBX route: those are in schemas/pbx-control.openapi.yaml', () => {
  const doc = load('fleet-control.openapi.yaml');
  const paths = Object.keys(doc.paths);
  assert.ok(paths.includes('/pbx') && paths.includes('/sites/{siteId}/inventory'));
  assert.deepEqual(
    paths.filter((path) => path.startsWith('/events/') || path.startsWith('/pbx/')),
    [],
  );
});
