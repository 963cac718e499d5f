/** Where and when the data endpoint listens: ports, tile, licence, IPv4 (availability.feature). */
import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { isIPv4 } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Given, Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import type { PbxControl } from '../../simulators/pbx/index.ts';
import { numberToIpv4 } from '../../src/core/cidr-edges.ts';
import { canConnect, describeTcpOutcome, tcpExchange } from '../../src/core/tcp-exchange.ts';
import { assertLiveProperty } from '../support/bounded-property.ts';
import { openEmbeddedTarget } from '../support/embedded-target.ts';
import { FixtureError } from '../support/fixture-error.ts';
import { rangeAround } from '../support/ipv4.ts';
import {
  freePort,
  holdConsecutivePorts,
  holdPort,
  isPortFree,
  releasePorts,
  spareLoopbackAddress,
} from '../support/port-holder.ts';
import { memoryKey } from '../support/scenario-memory.ts';
import { withControl } from '../support/with-control.ts';
import { NO_DATA_TIMEOUT_MS, type PbxWorld } from '../support/world.ts';

const CONFIGURED_PORT = memoryKey<number>('configuredPort');
const BUSY_PORT = memoryKey<number>('busyPort');
const WARNINGS_BEFORE = memoryKey<string[]>('warningsBefore');

/** The factory default port of the data endpoint (MON-PORT-DEFAULT). */
const DEFAULT_PORT = 6556;

function monitoringHost(world: PbxWorld): string {
  const host = world.pbx.monitoring?.host;
  if (!host) throw new Error(`target "${world.target.name}" has no data endpoint host`);
  return host;
}

/** Ports can only be occupied on the PBX host when that host is this machine. */
async function onPbxHost<T>(world: PbxWorld, action: (host: string) => Promise<T>): Promise<T | 'skipped'> {
  const host = monitoringHost(world);
  try {
    await releasePorts([await holdPort(host, 0)]);
  } catch (error) {
    return world.notVerifiable(
      `the harness cannot open ports on the PBX host ${host} (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }
  return action(host);
}

Given('a PBX whose data endpoint port is left at its default', async function (this: PbxWorld) {
  if (this.target.kind === 'remote') {
    const port = this.pbx.monitoring?.port;
    if (port !== DEFAULT_PORT) {
      return this.notVerifiable(
        `target "${this.target.name}" runs its data endpoint on port ${port}, not at the default`,
      );
    }
    return undefined;
  }
  // The embedded simulator normally listens on an ephemeral port; only here is one started with
  // its default port, and only when that port is free on this machine.
  if (!(await isPortFree('127.0.0.1', DEFAULT_PORT))) {
    return this.notVerifiable(
      `port ${DEFAULT_PORT} is in use on this machine; a simulator with default settings cannot listen there`,
    );
  }
  this.replaceTarget(await openEmbeddedTarget({ defaultMonitoringPort: true }));
  return undefined;
});

When(
  'a monitoring host connects to port {int} without sending a request',
  async function (this: PbxWorld, port: number) {
    await this.connectToEndpoint(undefined, { address: { host: monitoringHost(this), port } });
  },
);

Then('the endpoint tile is on', function (this: PbxWorld) {
  return withControl(this, 'read the endpoint tile', async (control) => {
    const state = await control.getState();
    assert.equal(state.monitoring.tileOn, true, 'the endpoint tile is off');
  });
});

Then('the data endpoint is listening', function (this: PbxWorld) {
  return withControl(this, 'read the endpoint status', async (control) => {
    const status = await control.endpointStatus();
    assert.equal(status.state, 'listening', `endpoint status ${JSON.stringify(status)}`);
  });
});

Given('the operator configures a free port for the data endpoint', async function (this: PbxWorld) {
  return onPbxHost(this, (host) =>
    withControl(this, 'configure the data endpoint port', async (control) => {
      const port = await freePort(host);
      this.memory.set(CONFIGURED_PORT, port);
      this.portChanged = true;
      await control.setMonitoringPort({ port });
    }),
  );
});

When('the module starts', function (this: PbxWorld) {
  return withControl(this, 'restart the data endpoint', (control) => control.restartEndpoint());
});

Then('the data endpoint listens on the configured port', function (this: PbxWorld) {
  return withControl(this, 'read the endpoint status', async (control) => {
    const status = await control.endpointStatus();
    const configured = this.memory.get(CONFIGURED_PORT);
    assert.equal(status.state, 'listening', `endpoint status ${JSON.stringify(status)}`);
    assert.equal(
      status.port,
      configured,
      `the endpoint listens on ${status.port}, not on the configured ${configured}`,
    );
  });
});

When(
  'a monitoring host connects to the configured port without sending a request',
  async function (this: PbxWorld) {
    const port = this.memory.require(CONFIGURED_PORT);
    await this.connectToEndpoint(undefined, { address: { host: monitoringHost(this), port } });
  },
);

Given('another program listens on a port of the PBX host whose next port is free', function (this: PbxWorld) {
  return holdBusyPorts(this, 1);
});

Given(
  'another program listens on a port of the PBX host and on the port after it',
  function (this: PbxWorld) {
    return holdBusyPorts(this, 2);
  },
);

/**
 * The fixture of MON-STATE-PORT-FALLBACK and MON-STATE-BOTH-PORTS-BUSY: `count` consecutive ports
 * held by "another program" with the port after them free. Against the embedded simulator the
 * ports are found on a loopback address of their own (see `spareLoopbackAddress`) and a simulator
 * is started there, so a busy machine's sockets on 127.0.0.1 do not get in the way. A fixture
 * that cannot be set up throws FixtureError: not verifiable, never a failure of the target.
 */
async function holdBusyPorts(world: PbxWorld, count: number): Promise<'skipped' | undefined> {
  if (world.target.kind === 'embedded') {
    const host = (await spareLoopbackAddress()) ?? '127.0.0.1';
    const held = await holdConsecutivePorts(host, count, 1);
    world.heldPorts.push(...held);
    world.memory.set(BUSY_PORT, held[0]!.port);
    try {
      world.replaceTarget(await openEmbeddedTarget({ host }));
    } catch (error) {
      throw new FixtureError(`the harness cannot start a simulator on ${host}: ${(error as Error).message}`);
    }
    return undefined;
  }
  const outcome = await onPbxHost(world, async (host) => {
    const held = await holdConsecutivePorts(host, count, 1);
    world.heldPorts.push(...held);
    world.memory.set(BUSY_PORT, held[0]!.port);
  });
  return outcome === 'skipped' ? 'skipped' : undefined;
}

When('the operator configures that busy port for the data endpoint', function (this: PbxWorld) {
  return withControl(this, 'configure the data endpoint port', async (control) => {
    this.memory.set(WARNINGS_BEFORE, await control.warnings());
    this.portChanged = true;
    await control.setMonitoringPort({ port: this.memory.require(BUSY_PORT) });
  });
});

Then('the data endpoint listens on a port other than the busy one', function (this: PbxWorld) {
  return withControl(this, 'read the endpoint status', async (control) => {
    const status = await control.endpointStatus();
    const spare = this.memory.require(BUSY_PORT) + 1;
    if (status.state !== 'listening' && !(await isPortFree(monitoringHost(this), spare))) {
      // The fixture checked this port free; another program took it since, so the endpoint
      // rightly found both ports busy. The harness lost its fixture; the target did nothing wrong.
      throw new FixtureError(
        `port ${spare} on ${monitoringHost(this)} was free when the fixture was set up but was taken by another program before the endpoint could fall back to it`,
      );
    }
    assert.equal(status.state, 'listening', `endpoint status ${JSON.stringify(status)}`);
    assert.ok(
      status.port !== null && status.port !== this.memory.get(BUSY_PORT),
      `endpoint status ${JSON.stringify(status)}`,
    );
  });
});

Then('the module UI shows a warning it did not show before', function (this: PbxWorld) {
  return withControl(this, 'read the module UI warnings', async (control) => {
    const before = new Set(this.memory.require(WARNINGS_BEFORE));
    const now = await control.warnings();
    assert.ok(
      now.some((w) => !before.has(w)),
      `no new warning in the module UI; before ${JSON.stringify([...before])}, now ${JSON.stringify(now)}`,
    );
  });
});

When(
  'a monitoring host connects to the port the endpoint listens on without sending a request',
  async function (this: PbxWorld) {
    await this.connectToEndpoint(undefined);
  },
);

Then('the data endpoint is inactive and listens on no port', function (this: PbxWorld) {
  return withControl(this, 'read the endpoint status', async (control) => {
    const status = await control.endpointStatus();
    assert.equal(status.state, 'inactive', `endpoint status ${JSON.stringify(status)}`);
    assert.equal(status.port, null, `endpoint status ${JSON.stringify(status)}`);
  });
});

Then('nothing listens on the port after the two busy ones', async function (this: PbxWorld) {
  const port = this.memory.require(BUSY_PORT) + 2;
  const host = monitoringHost(this);
  const outcome = await tcpExchange({ host, port, timeoutMs: NO_DATA_TIMEOUT_MS });
  this.evidence({ exchange: `TCP ${host}:${port}`, details: { outcome: describeTcpOutcome(outcome) } });
  assert.equal(
    outcome.connected,
    false,
    `something listens on ${host}:${port}: ${describeTcpOutcome(outcome)}`,
  );
});

Then('the data endpoint is stopped', function (this: PbxWorld) {
  return withControl(this, 'read the endpoint status', async (control) => {
    const status = await control.endpointStatus();
    assert.equal(status.state, 'stopped', `endpoint status ${JSON.stringify(status)}`);
  });
});

/** The IPv6 address of the PBX host: `::1` for IPv4 loopback, else its AAAA record. */
async function ipv6AddressOf(host: string): Promise<string | undefined> {
  if (host === 'localhost' || (isIPv4(host) && host.startsWith('127.'))) return '::1';
  if (isIPv4(host)) return undefined;
  try {
    return (await lookup(host, { family: 6 })).address;
  } catch {
    return undefined;
  }
}

When("a monitoring host connects over IPv6 to the data endpoint's port", async function (this: PbxWorld) {
  const address = await this.monitoringAddress();
  const v6 = await ipv6AddressOf(address.host);
  if (!v6) return this.notVerifiable(`no IPv6 address is known for the PBX host ${address.host}`);
  if (v6 === '::1') {
    try {
      await releasePorts([await holdPort('::1', 0)]);
    } catch {
      return this.notVerifiable('this machine has no IPv6 loopback, so an IPv6 connection cannot be tried');
    }
  }
  await this.connectToEndpoint(undefined, {
    address: { host: v6, port: address.port },
    family: 6,
    timeoutMs: NO_DATA_TIMEOUT_MS,
  });
  return undefined;
});

Then('the IPv6 connection is not established', function (this: PbxWorld) {
  const reply = this.reply;
  assert.ok(reply, 'no IPv6 connection was tried');
  assert.equal(
    reply.tcp.connected,
    false,
    `the endpoint accepted an IPv6 connection: ${describeTcpOutcome(reply.tcp)}`,
  );
});

/** Whether `address` is one of this machine's own addresses (then its traffic never leaves it). */
function isOwnAddress(address: string): boolean {
  return Object.values(networkInterfaces()).some((list) => (list ?? []).some((i) => i.address === address));
}

/**
 * MON-STATE-FIREWALL, told apart from the application-level check (MON-AUTH-UNLISTED-CLOSED, which
 * accepts and closes): a firewall opened only for listed hosts keeps an unlisted host from
 * establishing the connection at all. That is only observable where traffic from the unlisted
 * address passes the PBX's firewall, i.e. not over loopback or inside one machine, and where that
 * address reaches the PBX otherwise (its web server, which the monitoring-hosts list does not
 * restrict); elsewhere the step is not verifiable.
 */
When(
  "an unlisted host that reaches the PBX's web server connects without sending a request",
  async function (this: PbxWorld) {
    const address = this.pbx.unlistedClientAddress;
    if (!address) return this.notVerifiable(`target "${this.target.name}" names no unlisted client address`);
    const endpoint = await this.monitoringAddress();
    if (address.startsWith('127.') || endpoint.host.startsWith('127.') || isOwnAddress(endpoint.host)) {
      return this.notVerifiable(
        `traffic from the unlisted client address ${address} to the data endpoint ${endpoint.host} stays on this machine ` +
          '(loopback), where no firewall of the PBX acts: the firewall cannot be told apart from the ' +
          'application-level check of MON-AUTH-UNLISTED-CLOSED',
      );
    }
    const web = new URL(this.pbx.webUrl);
    const webHost = web.hostname.replace(/^\[|\]$/g, '');
    const webPort = Number(web.port || (web.protocol === 'https:' ? 443 : 80));
    const probe = await canConnect(webHost, webPort, address, NO_DATA_TIMEOUT_MS);
    this.evidence({
      exchange: `TCP ${webHost}:${webPort} from ${address} (web server, nothing sent)`,
      details: probe,
    });
    if (!probe.connected) {
      return this.notVerifiable(
        `the unlisted client address ${address} cannot reach the PBX web server ${webHost}:${webPort} either ` +
          `(${probe.errorCode}): a blocked data endpoint would say nothing about the firewall`,
      );
    }
    await this.connectToEndpoint(undefined, { localAddress: address, timeoutMs: NO_DATA_TIMEOUT_MS });
    return undefined;
  },
);

/** The PBX firewall rules the control plane reports; not verifiable where it does not model them. */
async function firewallOpenFor(world: PbxWorld, control: PbxControl): Promise<string[] | 'skipped'> {
  const status = await control.endpointStatus();
  if (!Array.isArray(status.firewallOpenFor))
    return world.notVerifiable(
      `the control plane of target "${world.target.name}" reports no firewall rules (GET /monitoring/status, firewallOpenFor)`,
    );
  return status.firewallOpenFor;
}

const sorted = (entries: readonly string[]) => [...entries].sort();

/**
 * MON-STATE-FIREWALL as the PBX's own firewall rules show it (a `control` clause): for generated
 * monitoring-hosts lists of active and inactive IPv4 and CIDR entries, the firewall is opened on
 * the endpoint's port for exactly the active ones, in any order.
 */
Then(
  'for every generated monitoring-hosts list the PBX firewall is open for exactly its active entries \\({int} runs)',
  async function (this: PbxWorld, runs: number) {
    const control = this.control;
    if (!control) return this.notVerifiable(this.noControlReason('set the monitoring-hosts list'));
    if ((await firewallOpenFor(this, control)) === 'skipped') return 'skipped';
    const entry = fc.record({
      range: fc
        .tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 32 }))
        .map(([n, prefix]) => rangeAround(numberToIpv4(n), prefix)),
      active: fc.boolean(),
    });
    await assertLiveProperty(
      this,
      'the firewall is opened for exactly the active entries',
      fc.asyncProperty(
        fc.uniqueArray(entry, { minLength: 1, maxLength: 6, selector: (e) => e.range }),
        async (entries) => {
          await control.setMonitoringHosts(entries.map((e) => ({ entry: e.range, active: e.active })));
          const open = await control.endpointStatus();
          const expected = entries.filter((e) => e.active).map((e) => e.range);
          // A list without an active entry closes the port (MON-AUTH-EMPTY-LIST): no rule either.
          assert.deepEqual(sorted(open.firewallOpenFor), sorted(expected), JSON.stringify(entries));
        },
      ),
      runs,
    );
    return undefined;
  },
);

Then('the PBX firewall is open for no host', async function (this: PbxWorld) {
  const control = this.control;
  if (!control) return this.notVerifiable(this.noControlReason('read the firewall rules'));
  const open = await firewallOpenFor(this, control);
  if (open === 'skipped') return open;
  assert.deepEqual(open, [], 'firewall rules of a stopped endpoint');
  return undefined;
});
