import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { renderAgentText } from '../../../../../simulators/pbx/snapshot/render/agent-text.ts';
import { localChecks } from '../../../../../simulators/pbx/snapshot/render/local-checks.ts';
import type { PbxState } from '../../../../../simulators/pbx/state/types.ts';
import { parseAgentText, sectionLines } from '../../../../../src/agent-text/parse-agent-text.ts';
import { parseLocalLine } from '../../../../../src/agent-text/parse-local-line.ts';
import { parsePbxSections } from '../../../../../src/agent-text/parse-pbx-sections.ts';
import { PBX_SECTION_NAMES } from '../../../../../steps/support/agent-text-view.ts';
import { NOW, overTheWire, snapshotOf } from './snapshot-of.ts';
import { PROPERTY_RUN, pbxStateArbitrary } from './state-arbitrary.ts';

/** What UTF-8 does to a JS string: lone surrogates become U+FFFD. The model of `wellFormed`. */
const wf = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

/** The spec's PBX sections, as the steps write them out from the spec (not the simulator's list). */
const PBX_SECTIONS: readonly string[] = PBX_SECTION_NAMES;

function render(state: PbxState): string {
  return overTheWire(renderAgentText(snapshotOf(state)));
}

function expectedBackups(state: PbxState) {
  return state.backups.flatMap((b) => {
    const runs = [...b.runs].map((r, i) => ({ r, i })).sort((x, y) => x.r.time - y.r.time || x.i - y.i);
    return runs.map(({ r }) => ({
      type: wf(b.type),
      location: wf(b.location),
      time: r.time,
      result: wf(r.result),
    }));
  });
}

test('MON-TEXT-BLOCK-ORDER, MON-TEXT-PBX: every section name is [A-Za-z0-9_]+ and PBX headers carry no options, whatever the state holds', () => {
  fc.assert(
    fc.property(pbxStateArbitrary, (state) => {
      const text = render(state);
      const agent = parseAgentText(text);
      assert.deepEqual(agent.problems, []);
      for (const section of agent.sections) assert.match(section.name, /^[A-Za-z0-9_]+$/);
      const names = agent.sections.map((s) => s.name);
      assert.deepEqual(names.slice(0, 2), ['monitor_agent', 'labels']);
      assert.equal(names.at(-1), 'local');
      assert.deepEqual(names.slice(-1 - PBX_SECTIONS.length, -1), PBX_SECTIONS);
      for (const name of PBX_SECTIONS) {
        assert.equal(agent.sections.find((s) => s.name === name)?.header, `<<<${name}>>>`);
      }
      // Naive consumers cut a section at the next `<<<`: no content line may contain one.
      for (const section of agent.sections)
        for (const line of section.lines) assert.ok(!line.includes('<<<'), line);
      assert.ok(text.endsWith('\n'));
      assert.ok(!text.includes('\r'));
    }),
    PROPERTY_RUN,
  );
});

test('MON-TEXT-PBX, MON-TEXT-PBX-BACKUPS, MON-TEXT-PBX-CHANNELS, MON-TEXT-PBX-ACCOUNTS, MON-TEXT-PBX-PEERS, MON-TEXT-PBX-SIP-PROVIDER, MON-TEXT-PBX-MODULES, MON-TEXT-PBX-DATABASE, MON-TEXT-PBX-DB-CONNECTIONS, MON-TEXT-PBX-JAVA, MON-TEXT-PBX-RAID: the PBX sections read back to the state', () => {
  fc.assert(
    fc.property(pbxStateArbitrary, (state) => {
      const data = parsePbxSections(render(state));
      assert.deepEqual(data.problems, []);
      const facts = data.pbx?.facts;
      assert.ok(facts);
      assert.equal(facts.get('hostname'), wf(state.appliance.hostname));
      assert.equal(facts.get('appliance_type'), wf(state.appliance.type));
      assert.equal(
        facts.get('appliance_serial_number'),
        state.appliance.serial === '' ? 'n/a' : wf(state.appliance.serial),
      );
      assert.equal(facts.get('pbx_version'), wf(state.appliance.pbxVersion));
      assert.equal(facts.get('owner'), wf(state.licence.owner));
      assert.equal(facts.get('engine_uptime'), wf(state.appliance.engineUptime));
      assert.equal(facts.get('debug_mode'), state.appliance.debugMode ? 'enabled' : 'disabled');
      assert.equal(Number(facts.get('known_phones')), state.sip.knownPhones);
      assert.equal(Number(facts.get('online_phones')), state.sip.onlinePhones);
      assert.equal(Number(facts.get('rtp_jitter_avg_ms')), state.rtp.avgJitterMs);
      assert.equal(Number(facts.get('rtp_mos_avg')), state.rtp.estimatedMos);
      if (state.raid) {
        assert.equal(facts.get('raid_level'), wf(state.raid.level));
        assert.equal(facts.get('raid_state'), wf(state.raid.status));
        assert.equal(facts.get('raid_status'), '');
        assert.match(facts.get('raid_diagnosis') ?? '', /^[A-Z0-9_]+$/);
        assert.deepEqual(
          data.pbx?.raidDevices,
          state.raid.devices.map((d) => ({ name: wf(d.name), state: wf(d.state) })),
        );
      } else {
        assert.equal(facts.has('raid_status'), false);
        assert.equal(facts.has('raid_diagnosis'), false);
        assert.deepEqual(data.pbx?.raidDevices, []);
      }
      assert.deepEqual(data.backups, expectedBackups(state));
      assert.deepEqual(data.channels, {
        max: state.channels.max,
        active: state.channels.active.length,
        channels: state.channels.active.map(wf),
      });
      assert.deepEqual(data.calls, { last5MinCalls: state.channels.last5MinCalls });
      assert.deepEqual(data.accounts, { ...state.accounts });
      assert.deepEqual(
        data.peers?.peers.map((p) => ({
          name: p.name,
          ipaddr: p.ipaddr,
          monitored: p.monitored,
          online: p.online,
        })),
        state.peers.map((p) => ({
          name: wf(p.name),
          ipaddr: wf(p.ipaddr),
          monitored: p.monitored,
          online: p.monitored ? p.online : null,
        })),
      );
      // The latency shows only in the status `OK (<ms> ms)` of a monitored peer that is online.
      data.peers?.peers.forEach((p, i) => {
        const peer = state.peers[i]!;
        assert.equal(p.lastms, peer.monitored && peer.online && peer.lastms >= 0 ? peer.lastms : -1);
      });
      const tally = (monitored: boolean, online: boolean) =>
        state.peers.filter((p) => p.monitored === monitored && p.online === online).length;
      assert.deepEqual(data.peers?.summary, {
        total: state.peers.length,
        monitoredOnline: tally(true, true),
        monitoredOffline: tally(true, false),
        unmonitoredOnline: tally(false, true),
        unmonitoredOffline: tally(false, false),
      });
      assert.deepEqual(
        data.sipProviders?.registrations.map((r) => ({ uri: r.uri, registered: r.registered })),
        state.sipProviders.map((p) => ({ uri: wf(p.uri), registered: p.registered })),
      );
      assert.equal(data.sipProviders?.summaryCount, state.sipProviders.length);
      assert.deepEqual(
        data.modules,
        state.modules.map((m) => ({
          name: wf(m.name),
          version: wf(m.version),
          vendor: wf(m.vendor),
          instances: m.instances.map((i) => wf(i.name)),
        })),
      );
      const c = state.database.connections;
      assert.deepEqual(data.database, {
        openedConnections: c.opened,
        closedConnections: c.closed,
        activeConnections: c.active,
        idleConnections: c.idle,
        databaseSize: state.database.databaseSize,
        cdrSize: state.database.cdrSize,
      });
      assert.deepEqual(data.dbConnections, {
        total: c.total,
        active: c.active,
        idle: c.idle,
        idleInTx: c.idleInTx,
        max: c.max,
        byApp: c.byApp.map((g) => ({ name: wf(g.name), count: g.count })),
        byDb: c.byDb.map((g) => ({ name: wf(g.name), count: g.count })),
      });
      assert.deepEqual(data.java, {
        vmName: wf(state.java.vmName),
        vmVendor: wf(state.java.vmVendor),
        vmVersion: wf(state.java.vmVersion),
        version: wf(state.java.version),
        heapUsed: state.java.heapUsed,
        heapMax: state.java.heapMax,
        nonHeapUsed: state.java.nonHeapUsed,
        nonHeapMax: state.java.nonHeapMax,
        maxMemory: state.java.maxMemory,
      });
    }),
    PROPERTY_RUN,
  );
});

test('MON-LOCAL-LINE-SHAPE: every local line parses with the test-vectors grammar and gives back the local check', () => {
  fc.assert(
    fc.property(pbxStateArbitrary, (state) => {
      const agent = parseAgentText(render(state));
      const lines = sectionLines(agent, 'local');
      assert.ok(lines);
      const expected = localChecks(state, NOW);
      const instances = state.modules.reduce((n, m) => n + m.instances.length, 0);
      assert.equal(lines.length, 14 + instances + state.backups.length + state.sipProviders.length);
      assert.equal(lines.length, expected.length);
      const names = new Set<string>();
      lines.forEach((line, i) => {
        const parsed = parseLocalLine(line);
        assert.ok(!('error' in parsed), `${line}: ${'error' in parsed ? parsed.error : ''}`);
        assert.equal(parsed.nameQuoting, 'double');
        assert.ok(parsed.status === 0 || parsed.status === 1 || parsed.status === 2, 'status 0-2');
        assert.doesNotMatch(parsed.name, /["'\n\r]|<<<|^\s|\s$/);
        assert.ok(!names.has(parsed.name), `service name ${parsed.name} repeats`);
        names.add(parsed.name);
        for (const metric of parsed.metrics) assert.doesNotMatch(metric.name, /[\s:/\\]/);
        const check = expected[i];
        assert.ok(check);
        assert.deepEqual(
          { status: parsed.status, name: parsed.name, metrics: parsed.metrics, text: parsed.text },
          { status: check.status, name: check.name, metrics: check.metrics, text: check.text },
        );
      });
    }),
    PROPERTY_RUN,
  );
});

test('MON-TEXT-AGENT-OS-HOSTNAME, MON-TEXT-LABELS: the agent header reads back for any host name', () => {
  fc.assert(
    fc.property(pbxStateArbitrary, (state) => {
      const agent = parseAgentText(render(state));
      const header = sectionLines(agent, 'monitor_agent') ?? [];
      assert.equal(header.length, 3);
      assert.ok(header.includes('AgentOS: linux'));
      assert.ok(header.includes('Version: 2.5.0p6'));
      const hostLine = header.find((l) => l.startsWith('Hostname: ')) ?? '';
      assert.equal(
        parsePbxSections(`<<<pbx>>>\nhostname ${hostLine.slice(10)}\n`).pbx?.facts.get('hostname'),
        wf(state.appliance.hostname),
      );
      const labels = sectionLines(agent, 'labels') ?? [];
      assert.equal(labels.length, 1);
      const parsed = JSON.parse(labels[0] ?? '') as Record<string, unknown>;
      assert.ok(Object.values(parsed).every((v) => typeof v === 'string'));
    }),
    PROPERTY_RUN,
  );
});
