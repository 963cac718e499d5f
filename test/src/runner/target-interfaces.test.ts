import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TargetFile } from '../../../src/core/target-file.ts';
import { targetInterfaces } from '../../../src/runner/target-interfaces.ts';

const ALL = ['MAINT', 'MCP', 'FLEET', 'EVENT', 'MON', 'XMLRPC', 'MKP', 'RESOLVER', 'FIELD'];
const PBX = { pbx: {} } as unknown as TargetFile;

test('the sections of a target file name its interfaces; no file names them all', () => {
  assert.deepEqual(targetInterfaces(undefined, ALL), ALL);
  assert.deepEqual(targetInterfaces({ ...PBX, name: 'x' }, ALL), ['MON', 'XMLRPC', 'MKP', 'FIELD']);
  assert.deepEqual(
    targetInterfaces(
      { ...PBX, name: 'x', maintenance: {}, fleet: { mcpUrl: 'http://x/mcp' }, resolver: {} },
      ALL,
    ),
    ALL,
  );
  assert.deepEqual(targetInterfaces({ ...PBX, name: 'x', fleet: {} }, ALL), [
    'FLEET',
    'EVENT',
    'MON',
    'XMLRPC',
    'MKP',
    'FIELD',
  ]);
  assert.equal(
    targetInterfaces({ ...PBX, name: 'x', resolver: { trigger: 'none' } }, ALL).includes('RESOLVER'),
    false,
  );
});
