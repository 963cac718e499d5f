import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { open } from 'lmdb';
import { partsOf } from '../../../../simulators/fleet-controller/controller-parts.ts';
import { start } from '../../../../simulators/fleet-controller/index.ts';
import { FleetState } from '../../../../simulators/fleet-controller/model/fleet-state.ts';
import type { AttentionItem } from '../../../../simulators/fleet-controller/model/types.ts';
import {
  DataFormatError,
  openFleetDatabase,
} from '../../../../simulators/fleet-controller/persistence/fleet-database.ts';
import { TABLE_NAMES } from '../../../../simulators/fleet-controller/persistence/lmdb-journal.ts';
import { fromStoredItem } from '../../../../simulators/fleet-controller/persistence/stored-item.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';
import { SEVERITIES } from '../../../../simulators/shared/wire/severity.ts';
import { FAST_SCRYPT, report, sitesOnly, T0 } from '../fleet-test-kit.ts';

/**
 * Store format 2 (issue 31 §3) writes an item's details only when a change touched them, and its
 * counts on every merge. Whatever mix of reports (batched or one by one, late, with and without
 * description and module id) and acknowledgements a controller saw, a restart must give back
 * exactly the items it held.
 */

type Step =
  | { kind: 'batch'; reports: ReportStep[] }
  | { kind: 'single'; report: ReportStep }
  | { kind: 'ack'; pick: number; partner: number };

interface ReportStep {
  site: number;
  module: string;
  subject: string;
  severity: (typeof SEVERITIES)[number];
  description: string | undefined;
  moduleId: string | undefined;
  at: number;
  suppressed: number;
}

const reportStep: fc.Arbitrary<ReportStep> = fc.record({
  site: fc.nat(3),
  module: fc.constantFrom('Backup', 'SIP'),
  subject: fc.constantFrom('voll', 'weg', 'langsam'),
  severity: fc.constantFrom(...SEVERITIES),
  description: fc.constantFrom(undefined, 'Platz', 'Platz 😀'),
  moduleId: fc.constantFrom(undefined, 'mod-a', 'mod-b'),
  at: fc.integer({ min: -5, max: 20 }),
  suppressed: fc.nat(2),
});

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('batch' as const), reports: fc.array(reportStep, { maxLength: 12 }) }),
  fc.record({ kind: fc.constant('single' as const), report: reportStep }),
  fc.record({ kind: fc.constant('ack' as const), pick: fc.nat(), partner: fc.nat(1) }),
);

const sorted = (items: AttentionItem[]) => [...items].sort((a, b) => a.id - b.id);

test('whatever reports and acknowledgements came, batched or not, a restart gives back exactly the items held', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
      const dir = mkdtempSync(join(tmpdir(), 'fleet-parts-'));
      const clock = new VirtualClock({ start: T0 });
      try {
        const db = await openFleetDatabase(dir);
        let held: AttentionItem[];
        try {
          const state = new FleetState(clock, FAST_SCRYPT, db.journal);
          await state.load(sitesOnly());
          const sites = [...state.access.sites.keys()];
          const apply = (r: ReportStep) => {
            const { description, moduleId, ...rest } = r;
            state.attention.report(sites[r.site % sites.length]!, {
              ...report({ ...rest, at: T0 + r.at }),
              ...(description === undefined ? {} : { description }),
              ...(moduleId === undefined ? {} : { moduleId }),
            });
          };
          const pending: Promise<void>[] = [];
          for (const s of steps) {
            if (s.kind === 'single') apply(s.report);
            else if (s.kind === 'batch') {
              const { committed } = state.ingestBatch(() => {
                for (const r of s.reports) apply(r);
              });
              if (committed) pending.push(committed);
            } else {
              const items = sites.flatMap((siteId) => state.attention.book.itemsOf(siteId));
              const item = items[s.pick % Math.max(1, items.length)];
              if (!item) continue;
              const partnerId = state.access.partnersOf(item.siteId)[s.partner % 1]!;
              clock.advance(1);
              state.atomically(() => state.attention.acknowledgeItem(item, partnerId));
            }
          }
          await Promise.all(pending);
          held = sorted(sites.flatMap((siteId) => state.attention.book.itemsOf(siteId))).map((i) =>
            structuredClone(i),
          );
        } finally {
          await db.close();
        }
        const again = await openFleetDatabase(dir);
        try {
          assert.deepEqual(sorted(again.read()?.items ?? []), held);
        } finally {
          await again.close();
        }
      } finally {
        clock.dispose();
        rmSync(dir, { recursive: true, force: true });
      }
    }),
    { numRuns: 40 },
  );
});

/**
 * Rewrites a format-2 directory as store format 1 wrote it: each item one JSON record with every
 * field (the acknowledgements as a list), no `itemCounts` table, `format` 1.
 */
async function downgradeToFormat1(dir: string, damage?: (record: Record<string, unknown>) => void) {
  const root = open({ path: dir, maxDbs: TABLE_NAMES.length + 4 });
  try {
    const items = root.openDB({ name: 'items', encoding: 'json' });
    const counts = root.openDB({ name: 'itemCounts', encoding: 'binary' });
    const meta = root.openDB({ name: 'meta', encoding: 'json' });
    const whole = [...items.getRange({})].map(({ value }) => {
      const details = value as Parameters<typeof fromStoredItem>[0];
      const item = fromStoredItem(details, counts.get(details.id) as Uint8Array);
      const record: Record<string, unknown> = {
        ...item,
        acks: [...item.acks].map(([partnerId, { at }]) => ({ partnerId, at })),
      };
      return record;
    });
    assert.ok(whole.length > 0);
    if (damage) damage(whole[whole.length - 1]!);
    await root.transaction(() => {
      for (const record of whole) items.putSync(record['id'] as number, record);
      counts.dropSync();
      meta.putSync('format', 1);
    });
  } finally {
    await root.close();
  }
}

async function controllerWithItems(dir: string) {
  const fleet = await start({ dataDir: dir, scryptCost: FAST_SCRYPT, clock: { start: T0 } });
  const c = fleet.control;
  await c.injectEvent({
    siteId: 'site-bremen',
    module: 'Backup',
    subject: 'voll',
    severity: 'ERROR',
    description: 'Platz',
  });
  await c.injectEvent({
    siteId: 'site-bremen',
    module: 'Backup',
    subject: 'voll',
    severity: 'CRITICAL',
    suppressed: 2,
  });
  await c.injectEvent({
    siteId: 'site-kiel',
    module: 'SIP',
    moduleId: 'mod-sip',
    subject: 'weg',
    severity: 'WARNING',
  });
  const state = partsOf(fleet).state;
  const item = state.attention.book.itemsOf('site-kiel')[0]!;
  state.atomically(() => state.attention.acknowledgeItem(item, state.access.partnersOf('site-kiel')[0]!));
  return fleet;
}

function allItems(fleet: Awaited<ReturnType<typeof start>>) {
  const state = partsOf(fleet).state;
  return sorted([...state.access.sites.keys()].flatMap((siteId) => state.attention.book.itemsOf(siteId)));
}

test('a data directory of store format 1 (an earlier version) is migrated at start: every item as it was, format 2 after', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-v1-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const first = await controllerWithItems(dir);
  const before = allItems(first);
  await first.close();
  await downgradeToFormat1(dir);
  const second = await start({ dataDir: dir, scryptCost: FAST_SCRYPT });
  try {
    assert.deepEqual(allItems(second), before);
    assert.equal(before.length, 2);
  } finally {
    await second.close();
  }
  const root = open({ path: dir, maxDbs: TABLE_NAMES.length + 4 });
  try {
    assert.equal(root.openDB({ name: 'meta', encoding: 'json' }).get('format'), 2);
  } finally {
    await root.close();
  }
});

test('a damaged item in a format-1 directory is a clear error, and the directory is left as it was', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'fleet-v1-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  await (await controllerWithItems(dir)).close();
  await downgradeToFormat1(dir, (record) => {
    record['occurrences'] = 'many';
  });
  await assert.rejects(start({ dataDir: dir, scryptCost: FAST_SCRYPT }), (error: unknown) => {
    assert.ok(error instanceof DataFormatError);
    assert.match(error.message, /store format 1/);
    return true;
  });
  const root = open({ path: dir, maxDbs: TABLE_NAMES.length + 4 });
  try {
    assert.equal(root.openDB({ name: 'meta', encoding: 'json' }).get('format'), 1);
  } finally {
    await root.close();
  }
});
