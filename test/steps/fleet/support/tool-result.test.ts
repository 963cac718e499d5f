import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SiteView } from '../../../../steps/fleet/support/fleet-context.ts';
import {
  entryOf,
  eventsMatchProblem,
  mcpSiteEntries,
  sameDataProblem,
} from '../../../../steps/fleet/support/tool-result.ts';

const ITEM = {
  id: 7,
  module: 'Sicherung',
  subject: 'voll',
  severity: 'ERROR',
  firstAt: 1,
  lastAt: 2,
  occurrences: 3,
  suppressed: 0,
};
const REST: SiteView[] = [
  { id: 'a', displayName: 'A', attention: ['events'], attentionEvents: [ITEM] },
  { id: 'b', displayName: 'B', attention: ['trunks'], attentionEvents: [] },
  { id: 'c', displayName: 'C', attention: [] },
];
const EVENT = {
  attentionId: 7,
  module: 'Sicherung',
  subject: 'voll',
  description: null,
  severity: 'ERROR',
  firstAt: 1,
  lastAt: 2,
  occurrences: 3,
};

test('MCP-UNSPEC-SITE-FIELDS: site entries are found by their events list, wherever the list sits', () => {
  const value = {
    result: {
      sites: [
        { site: 'a', events: [EVENT] },
        { site: 'b', events: [] },
      ],
    },
  };
  const entries = mcpSiteEntries(value);
  assert.equal(entries.length, 2);
  assert.equal(entryOf(entries, REST[1] as SiteView)?.['site'], 'b');
  assert.deepEqual(mcpSiteEntries({ sites: [] }), []);
});

test('MCP-SAME-DATA-AS-REST: the same sites and messages pass', () => {
  const entries = mcpSiteEntries({
    sites: [
      { siteId: 'a', events: [EVENT] },
      { siteId: 'b', events: [] },
    ],
  });
  assert.equal(sameDataProblem(entries, REST), null);
});

test('MCP-SAME-DATA-AS-REST: a missing site, an extra site or a differing field is reported', () => {
  const only = mcpSiteEntries({ sites: [{ siteId: 'a', events: [EVENT] }] });
  assert.match(sameDataProblem(only, REST) ?? '', /does not list b/);
  const extra = mcpSiteEntries({
    sites: [
      { siteId: 'a', events: [EVENT] },
      { siteId: 'b', events: [] },
      { siteId: 'c', events: [] },
    ],
  });
  assert.match(sameDataProblem(extra, REST) ?? '', /does not show with findings/);
  const other = mcpSiteEntries({
    sites: [
      { siteId: 'a', events: [{ ...EVENT, occurrences: 4 }] },
      { siteId: 'b', events: [] },
    ],
  });
  assert.match(sameDataProblem(other, REST) ?? '', /occurrences is 4 over MCP and 3 over REST/);
});

test('MCP-ATTENTION-EVENTS: every event must be an open REST item of its site, field by field', () => {
  const entries = (events: unknown[], siteId = 'a') => mcpSiteEntries({ sites: [{ siteId, events }] });
  assert.equal(eventsMatchProblem(entries([EVENT]), REST), null);
  const { description: _, ...withoutDescription } = EVENT;
  assert.equal(eventsMatchProblem(entries([withoutDescription]), REST), null, 'MCP-UNSPEC-SITE-FIELDS');
  assert.match(eventsMatchProblem(entries([{ ...EVENT, lastAt: 3 }]), REST) ?? '', /lastAt is 3 over MCP/);
  assert.match(eventsMatchProblem(entries([{ ...EVENT, attentionId: 8 }]), REST) ?? '', /no open REST item/);
  assert.match(eventsMatchProblem(entries([EVENT], 'b'), REST) ?? '', /no open REST item/, 'another site');
  assert.match(eventsMatchProblem(entries([EVENT], 'x'), REST) ?? '', /no site of the REST list/);
  const { occurrences: __, ...withoutOccurrences } = EVENT;
  assert.match(eventsMatchProblem(entries([withoutOccurrences]), REST) ?? '', /has no occurrences/);
  assert.match(eventsMatchProblem(entries([]), REST) ?? '', /no open message/);
  const described: SiteView[] = [{ ...REST[0]!, attentionEvents: [{ ...ITEM, description: 'NAS voll' }] }];
  assert.match(eventsMatchProblem(entries([EVENT]), described) ?? '', /description differs/);
  assert.match(eventsMatchProblem(entries([withoutDescription]), described) ?? '', /has no description/);
});
