import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import type { PbxControl } from '../../../../simulators/pbx/control/control-api.ts';
import { controlRoutes } from '../../../../simulators/pbx/control/control-routes.ts';
import { HttpPbxControl } from '../../../../simulators/pbx/control/http-control-client.ts';
import { MONITORING_LIMITS } from '../../../../simulators/pbx/control/monitoring-input.ts';
import { SNAPSHOT_FORMATS } from '../../../../simulators/pbx/monitoring/snapshot.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { FAULTS } from '../../../../simulators/pbx/state/store.ts';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string }[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
}

const document = parse(
  readFileSync(new URL('../../../../schemas/pbx-control.openapi.yaml', import.meta.url), 'utf8'),
) as {
  openapi: string;
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};

function documented(): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) operations.set(`${method.toUpperCase()} ${path}`, operation);
    }
  }
  return operations;
}

test('the document is OpenAPI 3.1', () => {
  assert.match(document.openapi, /^3\.1\.\d+$/);
});

test('every route of the server table is documented and every documented path is served', () => {
  const served = controlRoutes({} as PbxControl)
    .map((r) => `${r.method} ${r.path}`)
    .sort();
  assert.equal(new Set(served).size, served.length, 'no route twice in the table');
  assert.deepEqual([...documented().keys()].sort(), served);
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

test('operation ids are the method names of the TypeScript API', () => {
  const methods = new Set(Object.getOwnPropertyNames(HttpPbxControl.prototype));
  for (const [key, operation] of documented()) {
    // DELETE /faults is `clearFault()` without a name in TypeScript.
    const id = operation.operationId === 'clearFaults' ? 'clearFault' : operation.operationId;
    assert.ok(methods.has(id ?? ''), `${key}: ${operation.operationId} is a PbxControl method`);
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

test('every $ref points at something in the document', () => {
  const text = readFileSync(new URL('../../../../schemas/pbx-control.openapi.yaml', import.meta.url), 'utf8');
  for (const [, ref] of text.matchAll(/\$ref: '#\/([^']+)'/g)) {
    let node: unknown = document;
    for (const part of (ref ?? '').split('/')) node = (node as Record<string, unknown> | undefined)?.[part];
    assert.ok(node, `#/${ref} resolves`);
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
