import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { STATE_OPERATIONS } from '../../../../simulators/pbx/control/state-operations.ts';
import { RESOLVER_OPERATIONS } from '../../../../simulators/pbx/resolver/resolver-operations.ts';
import { FAULTS } from '../../../../simulators/pbx/state/store.ts';

const guide = readFileSync(new URL('../../../../docs/control-plane.md', import.meta.url), 'utf8');

test('the guide describes every fault the store knows', () => {
  for (const fault of FAULTS) assert.match(guide, new RegExp(`^\\| \`${fault}\` +\\|`, 'm'), fault);
});

test('the guide lists every route of the core and resolver tables', () => {
  for (const route of [...Object.values(STATE_OPERATIONS), ...Object.values(RESOLVER_OPERATIONS)]) {
    assert.ok(guide.includes(`| \`${route.method} ${route.path}`), `${route.method} ${route.path}`);
  }
});
