import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { etagOf, ifNoneMatchHits } from '../../../../simulators/fleet-controller/api/etag.ts';
import { ANNA, fleetCore, report, SAM, T0 } from '../fleet-test-kit.ts';

type Op =
  | { kind: 'report'; site: string; subject: string; module: string }
  | { kind: 'ack'; who: 'anna' | 'sam'; pick: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'rename'; site: string };

/** Whether an operation must change Anna's view (`true`), must not (`false`), or may (`null`). */
function expectedChange(op: Op): boolean | null {
  switch (op.kind) {
    case 'report':
      // Anna sees Hamburg, Kiel and Bremen; München is Südwind's alone.
      return op.site !== 'site-muenchen';
    case 'advance':
      return false;
    case 'rename':
      return op.site !== 'site-muenchen';
    case 'ack':
      return op.who === 'sam' ? false : null;
  }
}

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('report' as const),
    site: fc.constantFrom('site-hamburg', 'site-bremen', 'site-muenchen'),
    subject: fc.constantFrom('a', 'b', 'c'),
    module: fc.constantFrom('Backup', 'Trunks'),
  }),
  fc.record({
    kind: fc.constant('ack' as const),
    who: fc.constantFrom('anna' as const, 'sam' as const),
    pick: fc.nat(),
  }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 100_000 }) }),
  fc.record({ kind: fc.constant('rename' as const), site: fc.constantFrom('site-kiel', 'site-muenchen') }),
);

test('FLEET-SITES-ETAG-NEW-MESSAGE, FLEET-SITES-ETAG-ACK, FLEET-UNSPEC-ETAG: the ETag changes exactly when the caller visible content changes', async () => {
  const core = await fleetCore();
  let renames = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
      let previous = await core.call('GET', '/api/v1/sites', ANNA);
      let at = T0;
      for (const op of ops) {
        if (op.kind === 'report') {
          at += 1;
          core.state.attention.report(op.site, report({ subject: op.subject, module: op.module, at }));
        } else if (op.kind === 'ack') {
          const who = op.who === 'anna' ? ANNA : SAM;
          const partner = op.who === 'anna' ? 'p-nordlicht' : 'p-suedwind';
          const candidates = ['site-hamburg', 'site-bremen', 'site-muenchen']
            .filter((s) => core.state.access.rightOf(partner, s))
            .flatMap((s) => core.state.attention.book.itemsOf(s));
          const item = candidates[op.pick % Math.max(1, candidates.length)];
          if (item)
            await core.call('POST', `/api/v1/sites/${item.siteId}/attention/${item.id}/acknowledge`, who);
        } else if (op.kind === 'advance') {
          core.clock.advance(op.ms);
        } else {
          core.state.access.renameSite(op.site, `Renamed ${++renames}`);
        }
        const conditional = await core.call('GET', '/api/v1/sites', ANNA, {
          headers: { 'if-none-match': previous.headers['etag']! },
        });
        const fresh = await core.call('GET', '/api/v1/sites', ANNA);
        const changed = fresh.body !== previous.body;
        assert.equal(conditional.status, changed ? 200 : 304, `after ${JSON.stringify(op)}`);
        assert.equal(fresh.headers['etag'] !== previous.headers['etag'], changed);
        const expected = expectedChange(op);
        if (expected !== null) assert.equal(changed, expected, `view change after ${JSON.stringify(op)}`);
        previous = fresh;
      }
    }),
    { numRuns: 60 },
  );
});

test('FLEET-UNSPEC-ETAG: the ETag is strong, quoted and a function of the body only', () => {
  fc.assert(
    fc.property(fc.string(), fc.string(), (a, b) => {
      assert.match(etagOf(a), /^"[A-Za-z0-9_-]{32}"$/);
      assert.equal(etagOf(a) === etagOf(b), a === b);
    }),
  );
  assert.ok(ifNoneMatchHits('*', '"x"'));
  assert.ok(ifNoneMatchHits(' "a" , "x"', '"x"'));
  assert.ok(!ifNoneMatchHits(undefined, '"x"'));
  assert.ok(!ifNoneMatchHits('"xx"', '"x"'));
});
