import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  compareAttention,
  type Orderable,
} from '../../../../simulators/fleet-controller/model/attention-order.ts';
import { siteList } from '../../../../simulators/fleet-controller/model/caller-view.ts';
import { SEVERITIES } from '../../../../simulators/shared/wire/severity.ts';
import { fleetCore, report, sitesOnly, T0 } from '../fleet-test-kit.ts';

const RANK = { INFO: 0, WARNING: 1, ERROR: 2, CRITICAL: 3 } as const;

function assertOrdered(items: Orderable[]): void {
  for (let i = 1; i < items.length; i++) {
    const a = items[i - 1]!;
    const b = items[i]!;
    const ok =
      RANK[a.severity] > RANK[b.severity] ||
      (RANK[a.severity] === RANK[b.severity] &&
        (a.lastAt > b.lastAt || (a.lastAt === b.lastAt && a.id > b.id)));
    assert.ok(ok, `out of order at ${i}: ${JSON.stringify(a)} before ${JSON.stringify(b)}`);
  }
}

test('FLEET-SITE-ATTENTION-EVENTS-ORDER: the comparator puts the more severe, then the more recent, then the newer item first', () => {
  const item = fc.record({
    id: fc.nat({ max: 50 }),
    severity: fc.constantFrom(...SEVERITIES),
    lastAt: fc.integer({ min: T0, max: T0 + 20 }),
  });
  fc.assert(
    fc.property(fc.uniqueArray(item, { selector: (i) => i.id, maxLength: 40 }), (items) => {
      assertOrdered([...items].sort(compareAttention));
    }),
  );
});

test('FLEET-SITE-ATTENTION-EVENTS-ORDER: attentionEvents of a site follow severity, then lastAt, for generated reports', async () => {
  const { state } = await fleetCore(sitesOnly());
  const reportArb = fc.record({
    subject: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
    severity: fc.constantFrom(...SEVERITIES),
    at: fc.integer({ min: T0, max: T0 + 10_000 }),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(reportArb, { minLength: 1, maxLength: 30 }), async (reports) => {
      await state.load(sitesOnly());
      for (const r of reports) state.attention.report('site-hamburg', report(r));
      const site = siteList(state, 'p-nordlicht').find((s) => s.id === 'site-hamburg')!;
      assert.equal(site.attentionEvents.length, new Set(reports.map((r) => r.subject)).size);
      assertOrdered(site.attentionEvents);
      assert.deepEqual(site.attention.includes('events'), true);
    }),
    { numRuns: 50 },
  );
});
