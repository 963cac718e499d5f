import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import {
  type IngestPort,
  IngestSession,
} from '../../../../simulators/fleet-controller/ingest/ingest-session.ts';
import type { AttentionReport } from '../../../../simulators/fleet-controller/model/types.ts';
import type { PbxInventory } from '../../../../simulators/shared/wire/pbx-inventory.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** An in-memory port: one site `s1` with key `k1`, recording what the session did. */
function fakePort(options: { cut?: boolean } = {}) {
  const streams = new Map<string, number>();
  const seen = {
    reports: [] as { siteId: string; report: AttentionReport }[],
    inventories: [] as PbxInventory[],
    invalid: 0,
    duplicates: 0,
    links: new Map([['s1', { keySha256: sha256('k1'), cut: options.cut ?? false }]]),
  };
  const port: IngestPort = {
    link: (siteId) => seen.links.get(siteId),
    hashKey: sha256,
    lastSequence: (stream) => streams.get(stream) ?? 0,
    acceptSequence: (stream, seq) => {
      if (seq <= (streams.get(stream) ?? 0)) {
        seen.duplicates++;
        return false;
      }
      streams.set(stream, seq);
      return true;
    },
    report: (siteId, report) => seen.reports.push({ siteId, report }),
    setInventory: (_siteId, inventory) => seen.inventories.push(inventory),
    countInvalid: () => {
      seen.invalid++;
    },
  };
  return { port, seen };
}

const hello = (key = 'k1', siteId = 's1') =>
  JSON.stringify({ type: 'hello', version: 1, siteId, key, stream: 'fw-1' });
const event = (seq: number) =>
  JSON.stringify({
    type: 'event',
    seq,
    suppressed: 2,
    event: { module: 'Backup', subject: 'nightly', severity: 'ERROR', at: 1_700_000_000_000 },
  });

test('a hello with the right key is welcomed with the last sequence number of the stream', () => {
  const { port } = fakePort();
  const session = new IngestSession(port);
  assert.deepEqual(session.receive(hello()), [{ type: 'welcome', lastSeq: 0 }]);
  assert.equal(session.siteId, 's1');
  assert.ok(session.connectedTo('s1'));
});

test('a first line that is not a hello is refused with bad-hello and ends the session', () => {
  const session = new IngestSession(fakePort().port);
  assert.deepEqual(session.receive('{"type":"event"}'), [{ type: 'refused', reason: 'bad-hello' }]);
  assert.ok(session.closed);
  assert.deepEqual(session.receive(hello()), [], 'lines after a refusal are ignored');
});

test('an unknown site, a wrong key and a cut link are refused with their reasons', () => {
  assert.deepEqual(new IngestSession(fakePort().port).receive(hello('k1', 'nope')), [
    { type: 'refused', reason: 'unknown-site' },
  ]);
  assert.deepEqual(new IngestSession(fakePort().port).receive(hello('wrong')), [
    { type: 'refused', reason: 'bad-key' },
  ]);
  assert.deepEqual(new IngestSession(fakePort({ cut: true }).port).receive(hello()), [
    { type: 'refused', reason: 'link-cut' },
  ]);
});

test('an event is reported once with its withheld count and acknowledged, a repeat only acknowledged', () => {
  const { port, seen } = fakePort();
  const session = new IngestSession(port);
  session.receive(hello());
  assert.deepEqual(session.receive(event(1)), [{ type: 'ack', seq: 1 }]);
  assert.deepEqual(session.receive(event(1)), [{ type: 'ack', seq: 1 }]);
  assert.equal(seen.reports.length, 1);
  assert.equal(seen.reports[0]?.siteId, 's1');
  assert.equal(seen.reports[0]?.report.suppressed, 2);
  assert.equal(seen.duplicates, 1);
});

test('a malformed event is counted invalid and acknowledged only when it carries a usable seq', () => {
  const { port, seen } = fakePort();
  const session = new IngestSession(port);
  session.receive(hello());
  assert.deepEqual(session.receive('{"type":"event","seq":7,"event":{}}'), [{ type: 'ack', seq: 7 }]);
  assert.deepEqual(session.receive('not json'), []);
  assert.equal(seen.invalid, 2);
  assert.equal(seen.reports.length, 0);
});

test('an inventory replaces the site inventory; a malformed one is counted invalid', () => {
  const { port, seen } = fakePort();
  const session = new IngestSession(port);
  session.receive(hello());
  const inventory = {
    at: 1,
    pbxVersion: '6.7.3.20',
    updateKind: 'none',
    sipProviders: [],
    backups: [],
    modules: [],
  };
  assert.deepEqual(session.receive(JSON.stringify({ type: 'inventory', inventory })), []);
  session.receive(JSON.stringify({ type: 'inventory', inventory: { at: 'x' } }));
  assert.deepEqual(seen.inventories, [inventory]);
  assert.equal(seen.invalid, 1);
});

test('a site that loses its registration while connected is refused on the next line', () => {
  const { port, seen } = fakePort();
  const session = new IngestSession(port);
  session.receive(hello());
  seen.links.delete('s1');
  assert.deepEqual(session.receive(event(1)), [{ type: 'refused', reason: 'unknown-site' }]);
  assert.equal(session.connectedTo('s1'), false);
});

test('a cut refuses a welcomed session once', () => {
  const session = new IngestSession(fakePort().port);
  session.receive(hello());
  assert.deepEqual(session.cut(), [{ type: 'refused', reason: 'link-cut' }]);
  assert.deepEqual(session.cut(), []);
});
