import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { request } from 'undici';
import { parse } from 'yaml';
import { CONTROL_DOCUMENTS } from '../../../../scripts/control-documents.ts';
import {
  controlDocument,
  controlDocumentText,
  GENERATED_HEAD,
} from '../../../../simulators/shared/control/openapi-document.ts';
import { startControlServer } from '../../../../simulators/shared/index.ts';

const SCHEMAS = new URL('../../../../schemas/', import.meta.url);

for (const head of CONTROL_DOCUMENTS) {
  test(`schemas/${head.file} is what its declarations generate (npm run generate:openapi)`, () => {
    const committed = readFileSync(new URL(head.file, SCHEMAS), 'utf8');
    assert.ok(committed.startsWith(GENERATED_HEAD.join('\n')), 'the head says the file is generated');
    // The parsed documents first: their difference reads better than a text diff.
    assert.deepEqual(parse(committed), controlDocument(head), `schemas/${head.file} is stale`);
    assert.equal(committed, controlDocumentText(head), `schemas/${head.file} is stale`);
  });
}

test('the check fails on a stale document: one changed summary is a difference', () => {
  const head = CONTROL_DOCUMENTS[0];
  assert.ok(head);
  const [name, operation] = Object.entries(head.operations)[0] ?? [];
  assert.ok(name && operation);
  const changed = { ...head, operations: { ...head.operations, [name]: { ...operation, summary: 'x' } } };
  assert.notEqual(controlDocumentText(changed), controlDocumentText(head));
});

test('every operation of every plane is in its document once, under its name', () => {
  for (const head of CONTROL_DOCUMENTS) {
    const document = controlDocument(head) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${op.operationId} ${method.toUpperCase()} ${path}`),
    );
    const declared = Object.entries(head.operations).map(([name, o]) => `${name} ${o.method} ${o.path}`);
    assert.deepEqual(documented.sort(), declared.sort(), head.file);
  }
});

/** The codes the control listener itself answers with, before any operation runs, as a client gets them. */
async function listenerCodes(): Promise<string[]> {
  const server = await startControlServer([], { host: '127.0.0.1', port: 0, token: 'x'.repeat(32) });
  try {
    const noToken = await request(`${server.url}/state`);
    const forged = await request(`${server.url}/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${'x'.repeat(32)}`, origin: 'http://evil.example' },
    });
    const codes: string[] = [];
    for (const [answer, status] of [
      [noToken, 401],
      [forged, 403],
    ] as const) {
      assert.equal(answer.statusCode, status);
      codes.push(((await answer.body.json()) as { error: string }).error);
    }
    return codes;
  } finally {
    await server.close();
  }
}

test('every document names the codes its listener answers with itself: 401 unauthorized, 403 cross_site_request (CSRF)', async () => {
  const codes = await listenerCodes();
  assert.deepEqual(codes, ['unauthorized', 'cross_site_request']);
  for (const head of CONTROL_DOCUMENTS) {
    const committed = parse(readFileSync(new URL(head.file, SCHEMAS), 'utf8')) as {
      components: { schemas: { Error: { properties: { error: { enum?: string[]; examples?: string[] } } } } };
    };
    const error = committed.components.schemas.Error.properties.error;
    const named = error.enum ?? error.examples ?? [];
    for (const code of codes) assert.ok(named.includes(code), `${head.file}: Error.error names ${code}`);
  }
});
