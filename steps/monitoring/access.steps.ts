/** The monitoring-hosts list and who gets through (access.feature). */
import assert from 'node:assert/strict';
import { Given, Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import type { MonitoringHostEntry } from '../../simulators/pbx/index.ts';
import {
  type BoundaryRanges,
  edgeRangeAmong,
  edgesAround,
  numberToIpv4,
  type RangeEdges,
  widestBoundaryAmong,
} from '../../src/core/cidr-edges.ts';
import { canConnect, describeTcpOutcome } from '../../src/core/tcp-exchange.ts';
import { assertLiveProperty } from '../support/bounded-property.ts';
import { entryContains, foreignRange, rangeAround } from '../support/ipv4.ts';
import { memoryKey } from '../support/scenario-memory.ts';
import { classifySnapshot } from '../support/snapshot-format.ts';
import { withControl } from '../support/with-control.ts';
import { type EndpointReply, NO_DATA_TIMEOUT_MS, type PbxWorld } from '../support/world.ts';

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

/** One client address of a CIDR edge example and on which side of the listed range it is. */
interface EdgeProbe {
  readonly address: string;
  /** e.g. `the last address of 127.0.0.0/9`, for messages. */
  readonly label: string;
  readonly inside: boolean;
}

/** The one entry a CIDR edge example lists and the client addresses it connects from. */
interface EdgeExample {
  readonly range: string;
  readonly probes: readonly EdgeProbe[];
}

const EDGE_EXAMPLE = memoryKey<EdgeExample>('cidrEdgeExample');
const EDGE_REPLIES = memoryKey<{ probe: EdgeProbe; reply: EndpointReply }[]>('cidrEdgeReplies');

/** The harness's client addresses the edge examples may connect from. */
function clientAddresses(world: PbxWorld): string[] {
  const { listedClientAddress, unlistedClientAddress, edgeClientAddresses = [] } = world.pbx;
  return [
    listedClientAddress,
    ...(unlistedClientAddress ? [unlistedClientAddress] : []),
    ...edgeClientAddresses,
  ];
}

/** First and last address inside, the neighbours just outside (MON-AUTH-HOSTS-CIDR, MON-AUTH-UNLISTED-CLOSED). */
function edgeExample(edges: RangeEdges): EdgeExample {
  const { range } = edges;
  const single = edges.first === edges.last;
  return {
    range,
    probes: [
      { address: edges.before, label: `the address just before ${range}`, inside: false },
      { address: edges.first, label: `the ${single ? 'only' : 'first'} address of ${range}`, inside: true },
      ...(single ? [] : [{ address: edges.last, label: `the last address of ${range}`, inside: true }]),
      { address: edges.after, label: `the address just after ${range}`, inside: false },
    ],
  };
}

/**
 * Lists only the example's range through the control plane, once every one of its client addresses
 * is known to reach the PBX at all: its web server, which the monitoring-hosts list does not
 * restrict. A client address the harness cannot bind or route is the harness's fixture, never
 * the target's fault: the example is then not verifiable.
 */
async function listEdgeExample(world: PbxWorld, example: EdgeExample): Promise<'skipped' | undefined> {
  const control = world.control;
  if (!control) return world.notVerifiable(world.noControlReason('set the monitoring-hosts list'));
  const web = new URL(world.pbx.webUrl);
  const webHost = web.hostname.replace(/^\[|\]$/g, '');
  const webPort = Number(web.port || (web.protocol === 'https:' ? 443 : 80));
  for (const probe of example.probes) {
    const reach = await canConnect(webHost, webPort, probe.address, NO_DATA_TIMEOUT_MS);
    if (!reach.connected) {
      return world.notVerifiable(
        `the harness cannot reach the PBX web server ${webHost}:${webPort} from ${probe.label}, ${probe.address} ` +
          `(${reach.errorCode}): that client address is not usable on this machine`,
      );
    }
  }
  await control.setMonitoringHosts([active(example.range)]);
  world.memory.set(EDGE_EXAMPLE, example);
  world.evidence({
    exchange: `monitoring-hosts list set to ${example.range}`,
    details: {
      probes: example.probes.map((p) => `${p.address}: ${p.label} (${p.inside ? 'inside' : 'outside'})`),
    },
  });
  return undefined;
}

Given(
  'the operator lists only a \\/{int} range with client addresses of the harness at its edges',
  function (this: PbxWorld, prefix: number) {
    const edges = edgeRangeAmong(clientAddresses(this), prefix);
    if (!edges) {
      const around = edgesAround(this.pbx.listedClientAddress, prefix);
      const hint = around
        ? ` (around the listed client address: ${around.before}, ${around.first}, ${around.last} and ${around.after})`
        : '';
      return this.notVerifiable(
        `target "${this.target.name}" names no client addresses at the edges of a /${prefix} range: pbx.edgeClientAddresses ` +
          `needs the first and last address of one and the addresses just before and just after it${hint}`,
      );
    }
    return listEdgeExample(this, edgeExample(edges));
  },
);

/** The widest boundary ranges between two adjacent client addresses, or the reason there are none. */
function widestBoundary(world: PbxWorld): BoundaryRanges | string {
  return (
    widestBoundaryAmong(clientAddresses(world)) ??
    `target "${world.target.name}" names no two adjacent client addresses ` +
      '(pbx.listedClientAddress, pbx.unlistedClientAddress, pbx.edgeClientAddresses)'
  );
}

Given(
  'the operator lists only the widest range that ends at the lower of two adjacent client addresses of the harness',
  function (this: PbxWorld) {
    const boundary = widestBoundary(this);
    if (typeof boundary === 'string') return this.notVerifiable(boundary);
    const range = boundary.endingAtLower;
    return listEdgeExample(this, {
      range,
      probes: [
        { address: boundary.lower, label: `the last address of ${range}`, inside: true },
        { address: boundary.upper, label: `the address just after ${range}`, inside: false },
      ],
    });
  },
);

Given(
  'the operator lists only the widest range that starts at the upper of two adjacent client addresses of the harness',
  function (this: PbxWorld) {
    const boundary = widestBoundary(this);
    if (typeof boundary === 'string') return this.notVerifiable(boundary);
    const range = boundary.startingAtUpper;
    return listEdgeExample(this, {
      range,
      probes: [
        { address: boundary.lower, label: `the address just before ${range}`, inside: false },
        { address: boundary.upper, label: `the first address of ${range}`, inside: true },
      ],
    });
  },
);

When(
  'a monitoring host connects from each of these addresses without sending a request',
  async function (this: PbxWorld) {
    const example = this.memory.require(EDGE_EXAMPLE);
    const replies: { probe: EdgeProbe; reply: EndpointReply }[] = [];
    // One after the other: a silent client must not run beside another (world.ts, connectToEndpoint).
    for (const probe of example.probes) {
      const reply = await this.connectToEndpoint(undefined, {
        localAddress: probe.address,
        ...(probe.inside ? {} : { timeoutMs: NO_DATA_TIMEOUT_MS }),
      });
      if (reply.tcp.errorCode === 'EADDRNOTAVAIL' || reply.tcp.errorCode === 'EADDRINUSE') {
        return this.notVerifiable(
          `the harness cannot connect from ${probe.label}, ${probe.address} (${reply.tcp.errorCode})`,
        );
      }
      replies.push({ probe, reply });
    }
    this.memory.set(EDGE_REPLIES, replies);
    return undefined;
  },
);

Then('the addresses inside the listed range receive the agent text', function (this: PbxWorld) {
  const inside = this.memory.require(EDGE_REPLIES).filter(({ probe }) => probe.inside);
  assert.ok(inside.length > 0, 'the example has no address inside its range');
  for (const { probe, reply } of inside) {
    assert.equal(
      classifySnapshot(reply.body),
      'agent text',
      `${probe.label}, ${probe.address}, is not served: ${describeTcpOutcome(reply.tcp)}`,
    );
  }
});

Then('the addresses outside it are accepted and closed without any reply', function (this: PbxWorld) {
  const outside = this.memory.require(EDGE_REPLIES).filter(({ probe }) => !probe.inside);
  assert.ok(outside.length > 0, 'the example has no address outside its range');
  let blocked: string | undefined;
  for (const { probe, reply } of outside) {
    const outcome = `${probe.label}, ${probe.address}: ${describeTcpOutcome(reply.tcp)}`;
    assert.equal(reply.tcp.bytes.length, 0, `received ${reply.tcp.bytes.length} bytes from ${outcome}`);
    if (!reply.tcp.connected) {
      blocked ??= `${probe.label} (${reply.tcp.errorCode ?? 'no answer'})`;
      continue;
    }
    assert.ok(
      reply.tcp.end === 'peer-closed' || reply.tcp.end === 'peer-reset',
      `the server did not close the connection from ${outcome}`,
    );
  }
  if (blocked) {
    // A network-level block hides the application-level check this clause is about.
    return this.notVerifiable(
      `the connection from ${blocked} was not accepted: a firewall blocked it before the application-level check`,
    );
  }
  return undefined;
});
