import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  AttentionBook,
  SITE_ITEM_CAP,
} from '../../../../simulators/fleet-controller/model/attention-book.ts';
import { SEVERITIES } from '../../../../simulators/shared/wire/severity.ts';
import { report, T0 } from '../fleet-test-kit.ts';

type Step =
  | { kind: 'report'; site: string; module: string; subject: string; at: number; suppressed: number }
  | { kind: 'ack'; site: string; module: string; subject: string; partner: string };

const site = fc.constantFrom('s1', 's2');
const module = fc.constantFrom('Backup', 'Trunks', 'Backup ');
const subject = fc.constantFrom(
  'disk full',
  'Disk full',
  'disk full ',
  'x'.repeat(201),
  `${'x'.repeat(200)}y`,
);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('report' as const),
    site,
    module,
    subject,
    at: fc.integer({ min: T0, max: T0 + 1_000 }),
    suppressed: fc.nat({ max: 3 }),
  }),
  fc.record({
    kind: fc.constant('ack' as const),
    site,
    module,
    subject,
    partner: fc.constantFrom('p1', 'p2'),
  }),
);

/** The merge key after truncation: subjects equal in their first 200 characters are one subject. */
const keyOf = (s: { site: string; module: string; subject: string }) =>
  JSON.stringify([s.site, s.module, s.subject.slice(0, 200)]);

test('FLEET-ITEM-ID-STABLE, EVENT-REPEAT-MERGED, EVENT-KEY-SITE-MODULE-SUBJECT: one id per site, module and subject across repetitions, acknowledgements and reopenings', () => {
  fc.assert(
    fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
      const book = new AttentionBook();
      const ids = new Map<string, number>();
      const model = new Map<
        string,
        { occurrences: number; suppressed: number; firstAt: number; lastAt: number; acked: Set<string> }
      >();
      for (const s of steps) {
        const key = keyOf(s);
        if (s.kind === 'report') {
          const outcome = book.report(
            s.site,
            report({ module: s.module, subject: s.subject, at: s.at, suppressed: s.suppressed }),
          );
          assert.notEqual(outcome.kind, 'capped');
          if (outcome.kind === 'capped') continue;
          const known = ids.get(key);
          assert.equal(outcome.kind, known === undefined ? 'created' : 'merged');
          if (known !== undefined) assert.equal(outcome.item.id, known, 'id changed for one key');
          ids.set(key, outcome.item.id);
          const m = model.get(key) ?? {
            occurrences: 0,
            suppressed: 0,
            firstAt: s.at,
            lastAt: s.at,
            acked: new Set(),
          };
          m.occurrences++;
          m.suppressed += s.suppressed;
          m.firstAt = Math.min(m.firstAt, s.at);
          m.lastAt = Math.max(m.lastAt, s.at);
          m.acked.clear(); // EVENT-REPORT-REOPENS
          model.set(key, m);
        } else {
          const id = ids.get(key);
          if (id === undefined) continue;
          const item = book.get(id)!;
          const result = book.acknowledge(item, s.partner, T0 + 5_000);
          const m = model.get(key)!;
          assert.equal(result.alreadyAcknowledged, m.acked.has(s.partner));
          m.acked.add(s.partner);
        }
      }
      assert.equal(new Set(ids.values()).size, ids.size, 'distinct keys share an id');
      for (const [key, id] of ids) {
        const item = book.get(id)!;
        const m = model.get(key)!;
        assert.equal(keyOf({ site: item.siteId, module: item.module, subject: item.subject }), key);
        assert.deepEqual(
          {
            occurrences: item.occurrences,
            suppressed: item.suppressed,
            firstAt: item.firstAt,
            lastAt: item.lastAt,
          },
          { occurrences: m.occurrences, suppressed: m.suppressed, firstAt: m.firstAt, lastAt: m.lastAt },
        );
        assert.deepEqual(new Set(item.acks.keys()), m.acked);
      }
    }),
  );
});

test('EVENT-SITE-CAP, EVENT-SITE-CAP-UPDATES: around 200 distinct items a site keeps the first 200, refuses new ones and still updates existing ones', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: SITE_ITEM_CAP - 3, max: SITE_ITEM_CAP + 3 }),
      fc.nat({ max: SITE_ITEM_CAP - 1 }),
      (n, again) => {
        const book = new AttentionBook();
        const outcomes = Array.from(
          { length: n },
          (_, i) => book.report('s1', report({ subject: `subject ${i}`, at: T0 + i })).kind,
        );
        assert.equal(book.countOf('s1'), Math.min(n, SITE_ITEM_CAP));
        assert.equal(outcomes.filter((k) => k === 'created').length, Math.min(n, SITE_ITEM_CAP));
        assert.equal(outcomes.filter((k) => k === 'capped').length, Math.max(0, n - SITE_ITEM_CAP));
        // an existing item still merges on a full site
        const index = again % Math.min(n, SITE_ITEM_CAP);
        const merged = book.report('s1', report({ subject: `subject ${index}`, at: T0 + 99_999 }));
        assert.equal(merged.kind, 'merged');
        if (merged.kind === 'merged') {
          assert.equal(merged.item.occurrences, 2);
          assert.equal(merged.item.lastAt, T0 + 99_999);
        }
        // the cap is per site
        assert.equal(book.report('s2', report({ subject: 'another site' })).kind, 'created');
        assert.equal(book.countOf('s1'), Math.min(n, SITE_ITEM_CAP));
      },
    ),
    { numRuns: 40 },
  );
});

test('EVENT-UNSPEC-CAP-DETAIL: acknowledged items still count towards the cap', () => {
  const book = new AttentionBook();
  for (let i = 0; i < SITE_ITEM_CAP; i++) {
    const out = book.report('s1', report({ subject: `s${i}` }));
    if (out.kind !== 'capped') book.acknowledge(out.item, 'p1', T0);
  }
  assert.equal(book.report('s1', report({ subject: 'one more' })).kind, 'capped');
});

test('EVENT-UNSPEC-CHANGED-FIELDS: severity, description and moduleId follow the latest report; an older one only widens firstAt', () => {
  const book = new AttentionBook();
  book.report('s1', report({ at: T0 + 10, severity: 'WARNING', description: 'first', moduleId: 'm-1' }));
  const newer = book.report('s1', report({ at: T0 + 20, severity: 'CRITICAL' }));
  assert.equal(newer.kind, 'merged');
  const older = book.report('s1', report({ at: T0 + 5, severity: 'INFO', description: 'late arrival' }));
  assert.equal(older.kind, 'merged');
  if (older.kind !== 'merged') return;
  assert.equal(older.item.severity, 'CRITICAL');
  assert.equal(older.item.description, undefined);
  assert.equal(older.item.moduleId, undefined);
  assert.equal(older.item.firstAt, T0 + 5);
  assert.equal(older.item.lastAt, T0 + 20);
  assert.equal(older.item.occurrences, 3);
});

test('FLEET-ITEM-SUBJECT-LIMIT, FLEET-ITEM-DESCRIPTION-LIMIT: the book stores subject and description truncated', () => {
  const out = book1().report(
    's1',
    report({ subject: '😀'.repeat(250), description: 'ä'.repeat(4500), severity: SEVERITIES[0] }),
  );
  assert.notEqual(out.kind, 'capped');
  if (out.kind === 'capped') return;
  assert.equal(out.item.subject, '😀'.repeat(200));
  assert.equal(out.item.description, 'ä'.repeat(4000));
});

function book1() {
  return new AttentionBook();
}

test('a merge says whether it changed more than the counts (the store writes only the counts otherwise, issue 31 §3)', () => {
  const book = new AttentionBook();
  const details = (r: Parameters<AttentionBook['report']>[1]) => {
    const out = book.report('s1', r);
    assert.equal(out.kind, 'merged');
    return out.kind === 'merged' && out.details;
  };
  const first = book.report('s1', report({ at: T0, description: 'voll', moduleId: 'm-1' }));
  assert.equal(first.kind, 'created');
  // Same description and module id; severity, times and counts are counts.
  assert.equal(
    details(
      report({ at: T0 + 1, description: 'voll', moduleId: 'm-1', severity: 'CRITICAL', suppressed: 4 }),
    ),
    false,
  );
  assert.equal(
    details(report({ at: T0 - 5, description: 'älter', moduleId: 'm-2' })),
    false,
    'an older report changes no detail',
  );
  assert.equal(details(report({ at: T0 + 2, description: 'anders', moduleId: 'm-1' })), true);
  assert.equal(details(report({ at: T0 + 3, description: 'anders', moduleId: 'm-2' })), true);
  assert.equal(details(report({ at: T0 + 4, moduleId: 'm-2' })), true, 'the description removed');
  assert.equal(details(report({ at: T0 + 5 })), true, 'the module id removed');
  assert.equal(details(report({ at: T0 + 6 })), false);
  if (first.kind === 'created') book.acknowledge(first.item, 'p1', T0 + 7);
  assert.equal(details(report({ at: T0 + 8 })), true, 'the acknowledgement cleared');
  assert.equal(details(report({ at: T0 + 9 })), false);
});
