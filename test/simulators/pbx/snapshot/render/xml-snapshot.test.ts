import assert from 'node:assert/strict';
import { test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { renderXmlSnapshot } from '../../../../../simulators/pbx/snapshot/render/xml-snapshot.ts';
import { scenarioSnapshot, scenarioState, snapshotOf } from './snapshot-of.ts';

type Node = Record<string, unknown>;

function parse(xml: string): Node {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    parseTagValue: false,
    isArray: (name) =>
      ['channel', 'peer', 'registration', 'module', 'instance', 'backup', 'device'].includes(name),
  });
  return (parser.parse(xml) as { pbx: Node }).pbx;
}

const CHILDREN = [
  'appliance',
  'license',
  'security',
  'sip',
  'channels',
  'accounts',
  'peers',
  'sipProviders',
  'modules',
  'backups',
  'database',
  'java',
];

test('MON-XML-ROOT, MON-XML-CHILDREN: a well-formed document with UTF-8 declaration, root pbx and the spec children', () => {
  const xml = renderXmlSnapshot(scenarioSnapshot('healthy'));
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<pbx>'));
  assert.equal(XMLValidator.validate(xml), true);
  assert.deepEqual(Object.keys(parse(xml)), CHILDREN);
});

test('MON-XML-RAID: raid appears only when RAID is configured', () => {
  assert.equal('raid' in parse(renderXmlSnapshot(scenarioSnapshot('healthy'))), false);
  const pbx = parse(renderXmlSnapshot(scenarioSnapshot('raid-degraded')));
  const raid = pbx['raid'] as Node;
  assert.equal(raid['status'], 'degraded');
  assert.deepEqual(raid['device'], [
    { '@_name': 'sda1', '@_state': 'active' },
    { '@_name': 'sdb1', '@_state': 'faulty' },
  ]);
});

test('appliance, license, security, sip and java have the children the spec names', () => {
  const pbx = parse(renderXmlSnapshot(scenarioSnapshot('healthy')));
  const has = (element: string, children: string[]) => {
    const node = pbx[element] as Node;
    for (const child of children) assert.ok(child in node, `${element}/${child}`);
  };
  has('appliance', ['type', 'serial', 'maxUsers', 'maxConnections', 'pbxVersion', 'debugMode']);
  has('license', ['owner', 'maxUsers']);
  has('security', ['passwordCheck', 'attackDetection']);
  has('sip', ['localhostStatus', 'knownPhones', 'onlinePhones', 'ipChangedPhones']);
  has('java', ['vmName', 'heapUsed', 'heapMax']);
  assert.equal((pbx['appliance'] as Node)['serial'], 'PBXM-2041-7731');
  assert.equal((pbx['sip'] as Node)['knownPhones'], '148');
});

test('channels, accounts, peers, providers, modules, backups and database have their attributes and children', () => {
  const xml = renderXmlSnapshot(scenarioSnapshot('healthy'));
  const pbx = parse(xml);
  const channels = pbx['channels'] as Node;
  assert.equal(channels['@_max'], '60');
  assert.equal(channels['@_last5min'], '23');
  assert.equal(channels['@_engineUptime'], '14 days, 2 hours, 11 minutes');
  assert.equal((channels['channel'] as string[]).length, 7);
  assert.match(
    xml,
    /<accounts total="155" admin="4" active="139" available="96" ringing="3" unavailable="40"\/>/,
  );
  assert.deepEqual((pbx['peers'] as { peer: Node[] }).peer[0], {
    '@_name': '201',
    '@_ipaddr': '10.20.1.21',
    '@_lastms': '12',
  });
  const registrations = (pbx['sipProviders'] as { registration: Node[] }).registration;
  assert.equal(registrations.length, 2);
  assert.equal(registrations[0]?.['#text'], 'sip:+4930123456@tel.t-online.de Registered');
  const modules = (pbx['modules'] as { module: Node[] }).module;
  assert.equal(modules[2]?.['@_name'], 'WebResolver');
  assert.equal(modules[2]?.['@_vendor'], 'Simulated Systems GmbH');
  assert.deepEqual(modules[2]?.['instance'], ['CRM Lookup', 'ERP Lookup']);
  const backups = (pbx['backups'] as { backup: Node[] }).backup;
  assert.equal(backups[1]?.['@_location'], '192.0.2.6:/Backup');
  assert.equal(backups[1]?.['@_message'], 'Backup completed successfully');
  assert.match(String(backups[1]?.['@_time']), /^\d{13}$/);
  assert.match(xml, /<database databaseSize="2147483648" cdrSize="536870912"\/>/);
});

test('MON-XML-CHANNELS-ACTIVE: one channel child per active channel, none when idle', () => {
  const large = parse(renderXmlSnapshot(scenarioSnapshot('large')));
  assert.equal(((large['channels'] as Node)['channel'] as string[]).length, 240);
  const idle = scenarioState('healthy');
  idle.channels.active = [];
  const xml = renderXmlSnapshot(snapshotOf(idle));
  assert.match(xml, /<channels max="60" last5min="23" engineUptime="[^"]*"\/>/);
});

test('markup and control characters in state still give well-formed XML', () => {
  const state = scenarioState('healthy');
  state.appliance.hostname = '<host> & "x" \u0007';
  state.peers[0] = { name: 'a"b<c', ipaddr: "'&'", lastms: 3, monitored: true, online: true };
  const xml = renderXmlSnapshot(snapshotOf(state));
  assert.equal(XMLValidator.validate(xml), true);
  const pbx = parse(xml);
  assert.equal((pbx['appliance'] as Node)['hostname'], '<host> & "x" \uFFFD');
  assert.equal((pbx['peers'] as { peer: Node[] }).peer[0]?.['@_name'], 'a"b<c');
});
