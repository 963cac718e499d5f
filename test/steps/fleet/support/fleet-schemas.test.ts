import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fleetSchemaErrors } from '../../../../steps/fleet/support/fleet-schemas.ts';

const ITEM = {
  id: 1,
  module: 'M',
  subject: 's',
  severity: 'ERROR',
  firstAt: 1,
  lastAt: 2,
  occurrences: 1,
  suppressed: 0,
};

test('FLEET-SITE-SCHEMA: a site list with items validates through the referenced item schema', () => {
  const list = [{ id: 'a', displayName: 'A', attention: ['events'], attentionEvents: [ITEM] }];
  assert.equal(fleetSchemaErrors('site list', list), null);
  const broken = [
    { id: 'a', displayName: 'A', attention: ['events'], attentionEvents: [{ ...ITEM, severity: 'FATAL' }] },
  ];
  assert.match(fleetSchemaErrors('site list', broken) ?? '', /attentionEvents\/0\/severity/);
});

test('FLEET-HISTORY-SCHEMA: history entries of kind ATTENTION_ACK need every field', () => {
  const entry = {
    kind: 'ATTENTION_ACK',
    actor: 'Anna',
    own: true,
    channel: 'console',
    createdAt: 1,
    siteName: 'A',
    attention: { id: 1, module: 'M', subject: 's', severity: 'ERROR', comment: null },
    tool: null,
    state: null,
    outcome: null,
    completedAt: null,
  };
  assert.equal(fleetSchemaErrors('history list', [entry]), null);
  const { tool: _t, ...withoutTool } = entry;
  assert.notEqual(fleetSchemaErrors('history list', [withoutTool]), null);
});
