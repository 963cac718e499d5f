import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { XMLParser } from 'fast-xml-parser';
import { renderFormat } from '../../../../../simulators/pbx/snapshot/render/render-format.ts';
import { parsePbxSections } from '../../../../../src/agent-text/parse-pbx-sections.ts';
import { snapshotOf } from './snapshot-of.ts';
import { PROPERTY_RUN, pbxStateArbitrary } from './state-arbitrary.ts';

const NO_FAULTS = { renderError: false, jsonError: false };

test('MON-FORMATS-SAME-SNAPSHOT: agent text, XML and JSON of one snapshot agree on accounts, channels, database size, peers and host name', () => {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false });
  fc.assert(
    fc.property(pbxStateArbitrary, (state) => {
      const snapshot = snapshotOf(state);
      const text = parsePbxSections(renderFormat(snapshot, 'checkmk', NO_FAULTS).toString('utf8'));
      const xml = parser.parse(renderFormat(snapshot, 'xml', NO_FAULTS).toString('utf8')) as {
        pbx: Record<string, Record<string, unknown>>;
      };
      const json = JSON.parse(renderFormat(snapshot, 'json', NO_FAULTS).toString('utf8')) as Record<
        string,
        unknown
      >;

      const accountKeys = ['total', 'admin', 'active', 'available', 'ringing', 'unavailable'] as const;
      for (const key of accountKeys) {
        const jsonKey = `accounts${key[0]?.toUpperCase()}${key.slice(1)}`;
        assert.equal(text.accounts?.[key], json[jsonKey]);
        assert.equal(Number(xml.pbx['accounts']?.[`@_${key}`]), json[jsonKey]);
      }
      assert.equal(text.channels?.max, json['channelsMax']);
      assert.equal(Number(xml.pbx['channels']?.['@_max']), json['channelsMax']);
      assert.equal(text.calls?.last5MinCalls, json['channelsLast5MinCalls']);
      assert.equal(Number(xml.pbx['channels']?.['@_last5min']), json['channelsLast5MinCalls']);
      assert.equal(text.database?.databaseSize, json['databaseSize']);
      assert.equal(Number(xml.pbx['database']?.['@_databaseSize']), json['databaseSize']);
      assert.equal(text.database?.cdrSize, json['cdrSize']);
      assert.equal(Number(xml.pbx['database']?.['@_cdrSize']), json['cdrSize']);
      assert.equal(text.pbx?.facts.get('hostname'), json['hostname']);
      // The engine's listing shows a latency only for a monitored peer that is online.
      const jsonPeers = json['peers'] as {
        name: string;
        lastms: string;
        monitored: boolean;
        online: boolean;
      }[];
      assert.deepEqual(
        text.peers?.peers.map((p) => [p.name, p.lastms]),
        jsonPeers.map((p) => [p.name, p.monitored && p.online ? Number(p.lastms) : -1]),
      );
      assert.equal(Number(xml.pbx['sip']?.['knownPhones']), json['knownPhones']);
      assert.equal(Number(text.pbx?.facts.get('known_phones')), json['knownPhones']);
    }),
    PROPERTY_RUN,
  );
});
