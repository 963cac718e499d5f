/** The monitoring-hosts list and who gets through (access.feature). */
import assert from 'node:assert/strict';
import { Given, Then } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import type { MonitoringHostEntry } from '../../simulators/pbx/index.ts';
import { assertLiveProperty } from '../support/bounded-property.ts';
import { entryContains, foreignRange, numberToIpv4, rangeAround } from '../support/ipv4.ts';
import { classifySnapshot } from '../support/snapshot-format.ts';
import { describeTcpOutcome } from '../support/tcp-exchange.ts';
import { withControl } from '../support/with-control.ts';
import { NO_DATA_TIMEOUT_MS, type PbxWorld } from '../support/world.ts';

const active = (entry: string): MonitoringHostEntry => ({ entry, active: true });

/** The lists the scenarios name, built around the harness's listed client address. */
function describedList(description: string, listed: string): MonitoringHostEntry[] {
  const foreign = foreignRange(listed);
  switch (description) {
    case 'the listed client address':
      return [active(listed)];
    case 'the listed client address as a /32 range':
      return [active(`${listed}/32`)];
    case 'the /24 range around the listed client address':
      return [active(rangeAround(listed, 24))];
    case 'the /8 range around the listed client address':
      return [active(rangeAround(listed, 8))];
    case 'the /0 range':
      return [active('0.0.0.0/0')];
    case 'a foreign range followed by the listed client address':
      return [active(foreign), active(listed)];
    case 'a foreign range only':
      return [active(foreign)];
    case 'no entries':
      return [];
    case "only inactive entries, one of them the client's":
      return [
        { entry: `${listed}/32`, active: false },
        { entry: foreign, active: false },
      ];
    default:
      throw new Error(`no monitoring-hosts list is described as "${description}"`);
  }
}

Given('the operator sets the monitoring-hosts list to {}', function (this: PbxWorld, description: string) {
  const hosts = describedList(description, this.pbx.listedClientAddress);
  return withControl(this, 'set the monitoring-hosts list', (control) => control.setMonitoringHosts(hosts));
});

Given(
  "the operator lists only the harness's listed client address as monitoring host",
  function (this: PbxWorld) {
    const hosts = [active(`${this.pbx.listedClientAddress}/32`)];
    return withControl(this, 'set the monitoring-hosts list', (control) => control.setMonitoringHosts(hosts));
  },
);

/** A CIDR entry (canonical network address) that does not contain `address`. */
function entryNotContaining(address: string): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 1, max: 32 }))
    .map(([n, prefix]) => rangeAround(numberToIpv4(n), prefix))
    .filter((entry) => !entryContains(entry, address));
}

Then(
  'a monitoring host inside a generated CIDR entry, listed among entries that do not match it, is served every time \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const listed = this.pbx.listedClientAddress;
    const control = this.control;
    if (!control) return this.notVerifiable(this.noControlReason('set the monitoring-hosts list'));
    await assertLiveProperty(
      this,
      'matching CIDR entries are served',
      fc.asyncProperty(
        fc.integer({ min: 0, max: 32 }),
        fc.array(entryNotContaining(listed), { maxLength: 3 }),
        fc.nat(),
        async (prefix, others, position) => {
          const match = rangeAround(listed, prefix);
          const entries = [...others];
          entries.splice(position % (others.length + 1), 0, match);
          await control.setMonitoringHosts(entries.map(active));
          const reply = await this.connectToEndpoint(undefined, { evidence: false });
          assert.equal(
            classifySnapshot(reply.body),
            'agent text',
            `list ${JSON.stringify(entries)}: ${listed} not served (${describeTcpOutcome(reply.tcp)})`,
          );
        },
      ),
      runs,
    );
    return undefined;
  },
);

Then(
  'a monitoring host outside every entry of a generated monitoring-hosts list is accepted and closed without any reply every time \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const listed = this.pbx.listedClientAddress;
    const control = this.control;
    if (!control) return this.notVerifiable(this.noControlReason('set the monitoring-hosts list'));
    let blocked: string | undefined;
    await assertLiveProperty(
      this,
      'unlisted clients are closed without reply',
      fc.asyncProperty(
        fc.array(entryNotContaining(listed), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (entries, http) => {
          await control.setMonitoringHosts(entries.map(active));
          const options = { evidence: false, timeoutMs: NO_DATA_TIMEOUT_MS };
          const reply = http
            ? await this.httpRequest('GET', '/json', options)
            : await this.connectToEndpoint(undefined, options);
          const situation = `list ${JSON.stringify(entries)}, ${http ? 'GET /json' : 'raw'}`;
          if (!reply.tcp.connected) {
            blocked = `${situation}: ${describeTcpOutcome(reply.tcp)}`;
            return;
          }
          assert.equal(reply.tcp.bytes.length, 0, `${situation}: ${describeTcpOutcome(reply.tcp)}`);
          assert.ok(
            reply.tcp.end === 'peer-closed' || reply.tcp.end === 'peer-reset',
            `${situation}: ${describeTcpOutcome(reply.tcp)}`,
          );
        },
      ),
      runs,
    );
    if (blocked) {
      return this.notVerifiable(
        `a connection was not accepted, so a firewall hid the application-level check (${blocked})`,
      );
    }
    return undefined;
  },
);
