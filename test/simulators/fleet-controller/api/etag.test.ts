import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import fc from 'fast-check';
import { etagOf, ifNoneMatchHits } from '../../../../simulators/fleet-controller/api/etag.ts';
import { ANNA, fleetCore, report, SAM, T0 } from '../fleet-test-kit.ts';

/** The `fresh` package (express's freshness check), pinned as a dev dependency to serve as an oracle. */
const fresh = createRequire(import.meta.url)('fresh') as (
  req: Record<string, string | undefined>,
  res: Record<string, string | undefined>,
) => boolean;

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
});

test('FLEET-SITES-NOT-MODIFIED: If-None-Match uses the weak comparison over a list of tags, and * matches', () => {
  const hits: [string, string][] = [
    ['"x"', '"x"'],
    ['W/"x"', '"x"'],
    ['"x"', 'W/"x"'],
    ['W/"x"', 'W/"x"'],
    ['W/"x", "y"', '"x"'],
    ['W/"x", "y"', '"y"'],
    [' "a" , "x"', '"x"'],
    ['"a",\t"x"', '"x"'],
    ['"a",,"x",', '"x"'],
    [', "x"', '"x"'],
    ['"a,b"', '"a,b"'],
    ['*', '"x"'],
    [' * ', '"x"'],
    ['""', '""'],
  ];
  for (const [header, etag] of hits)
    assert.equal(ifNoneMatchHits(header, etag), true, `${header} vs ${etag}`);
  const misses: [string | undefined, string][] = [
    [undefined, '"x"'],
    ['', '"x"'],
    ['"xx"', '"x"'],
    ['"X"', '"x"'],
    ['W/"y", "z"', '"x"'],
    ['w/"x"', '"x"'],
    // Malformed fields are ignored rather than guessed at.
    ['x', '"x"'],
    ['"x', '"x"'],
    ['"a" "x"', '"x"'],
    ['*, "x"', '"x"'],
    ['"x" junk', '"x"'],
    ['"a,b"', '"a"'],
  ];
  for (const [header, etag] of misses)
    assert.equal(ifNoneMatchHits(header, etag), false, `${header} vs ${etag}`);
});

test('FLEET-SITES-NOT-MODIFIED: agrees with the fresh package on every list both read alike', () => {
  // Opaque-tags from etagc without the comma (fresh splits lists on every comma).
  const opaque = fc.stringMatching(/^[\x21\x23-\x2b\x2d-\x7e]{0,4}$/);
  const tag = fc.record({ weak: fc.boolean(), opaque });
  const text = (t: { weak: boolean; opaque: string }) => `${t.weak ? 'W/' : ''}"${t.opaque}"`;
  fc.assert(
    fc.property(
      fc.array(fc.tuple(tag, fc.constantFrom('', ' ', '  ')), { minLength: 1, maxLength: 4 }),
      tag,
      fc.boolean(),
      (list, ours, includeOurs) => {
        const elements = list.map(([t, space]) => `${space}${text(t)}`);
        if (includeOurs) elements.splice(list.length >> 1, 0, text(ours));
        const header = elements.join(',');
        const etag = text(ours);
        assert.equal(
          ifNoneMatchHits(header, etag),
          fresh({ 'if-none-match': header }, { etag }),
          `${header} vs ${etag}`,
        );
        if (includeOurs) assert.equal(ifNoneMatchHits(header, etag), true);
      },
    ),
    { numRuns: 500 },
  );
  assert.equal(fresh({ 'if-none-match': '*' }, { etag: '"x"' }), ifNoneMatchHits('*', '"x"'));
});

test('FLEET-UNSPEC-ETAG: the ETag of a body is the same whether it is given as text or as its UTF-8 bytes', () => {
  const body = JSON.stringify([{ id: 'site-oelde', displayName: 'Ölde Süd', attention: ['events'] }]);
  assert.equal(etagOf(Buffer.from(body, 'utf8')), etagOf(body));
  assert.notEqual(etagOf(Buffer.from(body, 'latin1')), etagOf(body));
});
