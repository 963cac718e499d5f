import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { request } from 'undici';
import { parse } from 'yaml';
import { MONITORING_LIMITS } from '../../../../simulators/pbx/control/monitoring-input.ts';
import { start } from '../../../../simulators/pbx/index.ts';
import { partsOf } from '../../../../simulators/pbx/pbx-parts.ts';
import { Resolver } from '../../../../simulators/pbx/resolver/resolver.ts';
import { SNAPSHOT_FORMATS } from '../../../../simulators/pbx/snapshot/snapshot.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { FAULTS } from '../../../../simulators/pbx/state/store.ts';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
const SCHEMAS = new URL('../../../../schemas/', import.meta.url);

interface Operation {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string }[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
}

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

const load = (name: string) => parse(readFileSync(new URL(name, SCHEMAS), 'utf8')) as OpenApiDocument;
const document = load('pbx-control.openapi.yaml');

/** `METHOD /path` → operation, for the operations of `doc` that `keep` selects. */
function operationsOf(
  doc: OpenApiDocument,
  keep: (operation: Operation) => boolean = () => true,
): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation && keep(operation)) operations.set(`${method.toUpperCase()} ${path}`, operation);
    }
  }
  return operations;
}

function documented(): Map<string, Operation> {
  return operationsOf(document);
}

/** Every PBX control-plane operation the document describes (all groups of every face). */
function documentedPbxControlPlane(): string[] {
  return [...operationsOf(document).keys()].sort();
}

const isResolverPath = (key: string) => key.split(' ')[1]?.startsWith('/resolver/') ?? false;

test('the document is OpenAPI 3.1', () => {
  assert.match(document.openapi, /^3\.1\.\d+$/);
});

test('every control route a started PBX serves, from every group, is documented, and nothing more', async (t) => {
  const pbx = await start({ monitoringPort: 0, clock: { mode: 'frozen' } });
  t.after(() => pbx.close());
  const served = partsOf(pbx)
    .controlRoutes.map((r) => `${r.method} ${r.path}`)
    .sort();
  assert.equal(new Set(served).size, served.length, 'no route twice in the table');
  assert.ok(
    served.some((key) => key.startsWith('GET /resolver/')),
    'the resolver group is wired',
  );
  assert.deepEqual(served, documentedPbxControlPlane());

  // The table is what the listener dispatches: each documented path answers an unlisted method
  // with 405 and exactly the documented methods of every template that matches the concrete path.
  const byPath = new Map<string, Set<string>>();
  for (const key of served) {
    const [method = '', path = ''] = key.split(' ');
    byPath.set(path, (byPath.get(path) ?? new Set()).add(method));
  }
  const matches = (template: string, path: string) =>
    new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`).test(path);
  for (const template of byPath.keys()) {
    const path = template.replace(/\{\w+\}/g, 'x');
    const answer = await request(`${pbx.urls.control}${path}`, { method: 'OPTIONS' });
    await answer.body.dump();
    assert.equal(answer.statusCode, 405, `OPTIONS ${path}`);
    const expected = new Set<string>();
    for (const [other, methods] of byPath) if (matches(other, path)) for (const m of methods) expected.add(m);
    const allow = String(answer.headers['allow'] ?? '').split(', ');
    assert.deepEqual(allow.sort(), [...expected].sort(), `allow of ${path}`);
  }
});

test('every operation has an id, a summary, a description and its error answers', () => {
  const ids = new Set<string>();
  for (const [key, operation] of documented()) {
    assert.ok(operation.operationId, `${key} operationId`);
    assert.ok(!ids.has(operation.operationId), `${key} operationId unique`);
    ids.add(operation.operationId);
    assert.ok(operation.summary && operation.description, `${key} summary and description`);
    const codes = Object.keys(operation.responses ?? {});
    assert.ok(
      codes.some((c) => c.startsWith('2')),
      `${key} success answer`,
    );
    assert.ok(codes.includes('500'), `${key} documents 500`);
    if (operation.requestBody)
      assert.ok(codes.includes('400') && codes.includes('413'), `${key} documents 400 and 413`);
  }
});

test('resolver operation ids are the method names of the Resolver class', () => {
  const resolverMethods = new Set(Object.getOwnPropertyNames(Resolver.prototype));
  for (const [key, operation] of documented()) {
    if (!isResolverPath(key)) continue;
    const id = operation.operationId ?? '';
    // `resolver` + the method of the Resolver class: resolverSetProviders is setProviders().
    const method = id.replace(/^resolver(\w)/, (_, first: string) => first.toLowerCase());
    assert.ok(id !== method && resolverMethods.has(method), `${key}: ${id} names a Resolver method`);
  }
});

test('path parameters are declared', () => {
  for (const [key, operation] of documented()) {
    for (const [, name] of key.matchAll(/\{(\w+)\}/g)) {
      assert.ok(
        operation.parameters?.some((p) => p.in === 'path' && p.name === name),
        `${key} declares path parameter ${name}`,
      );
    }
  }
});

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

test('every $ref points at something in the document or at a schema file', () => {
  const refs = references(document);
  assert.ok(refs.length > 100, `found ${refs.length} references`);
  for (const ref of refs) {
    if (!ref.startsWith('#/')) {
      assert.ok(existsSync(new URL(ref, SCHEMAS)), `${ref} exists`);
      continue;
    }
    let node: unknown = document;
    for (const part of ref.slice(2).split('/')) node = (node as Record<string, unknown> | undefined)?.[part];
    assert.ok(node, `${ref} resolves`);
  }
});

test('enumerations and ranges in the document match the code', () => {
  const schemas = document.components.schemas;
  assert.deepEqual(schemas['FaultName']?.['enum'], [...FAULTS]);
  assert.deepEqual(schemas['SnapshotFormat']?.['enum'], [...SNAPSHOT_FORMATS]);
  const monitoring = schemas['MonitoringSettings']?.['properties'] as Record<string, Record<string, unknown>>;
  assert.equal(monitoring['port']?.['maximum'], MONITORING_LIMITS.port.max);
  assert.equal(monitoring['cacheLifetimeMs']?.['maximum'], MONITORING_LIMITS.cacheLifetimeMs.max);
  assert.equal(monitoring['rawGraceMs']?.['maximum'], MONITORING_LIMITS.rawGraceMs.max);
  assert.equal(monitoring['instanceName']?.['pattern'], MONITORING_LIMITS.instanceName.source);
});

test('the state schemas name exactly the fields of the state', () => {
  const state = defaultState(0);
  const schema = (name: string) => document.components.schemas[name] ?? {};
  const fields = Object.keys(state).sort();
  assert.deepEqual([...(schema('PublicState')['required'] as string[])].sort(), fields);
  assert.deepEqual(Object.keys(schema('PublicState')['properties'] as object).sort(), fields);
  assert.deepEqual(Object.keys(schema('StateOverlay')['properties'] as object).sort(), fields);
  assert.deepEqual(
    [...(schema('MonitoringSettings')['required'] as string[])].sort(),
    Object.keys(state.monitoring).sort(),
  );
});
