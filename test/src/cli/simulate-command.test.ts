import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PassThrough } from 'node:stream';
import { type TestContext, test } from 'node:test';
import { run } from '../../../src/cli/run.ts';
import { EDGE_EXAMPLE_PREFIXES, edgeRangeAmong } from '../../../src/core/cidr-edges.ts';
import { captureIo } from './capture-io.ts';
import { targetSchemaErrors } from './target-schema.ts';

function firstLine(stream: PassThrough): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end >= 0) {
        stream.off('data', onData);
        resolve(text.slice(0, end));
      }
    };
    stream.on('data', onData);
  });
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

test('simulate --json prints a target description first, serves until stopped, then closes', async () => {
  const controller = new AbortController();
  const io = captureIo(process.cwd(), { signal: controller.signal });
  const line = firstLine(io.stdout as PassThrough);
  const exit = run(['simulate', '--port', '0', '--json', '--clock', 'frozen', '--no-fleet'], io);
  const target = JSON.parse(await line) as {
    name: string;
    maintenance: unknown;
    fleet?: unknown;
    resolver: {
      endpointHost: string;
      trustedCertificate: { certFile: string; keyFile: string };
      trustedCertificateOtherHost: { certFile: string; keyFile: string };
    };
    pbx: {
      webUrl: string;
      controlUrl: string;
      monitoring: { host: string; port: number };
      xmlrpc: Record<string, string>;
      listedClientAddress: string;
      unlistedClientAddress: string;
      edgeClientAddresses: string[];
    };
  };
  assert.equal(target.name, 'simulator');
  assert.deepEqual(target.pbx.xmlrpc, {
    path: '/xml-rpc',
    instanceName: 'Monitoring',
    authParam: 'de.vendor.pbx.auth',
    login: '123',
    password: 'Pass123',
  });
  assert.equal(target.pbx.listedClientAddress, '127.0.0.1');
  assert.equal(target.pbx.unlistedClientAddress, '127.0.0.2');
  // The CIDR edge examples run via --target too: loopback addresses at the edges of each example.
  for (const prefix of EDGE_EXAMPLE_PREFIXES)
    assert.ok(edgeRangeAmong(target.pbx.edgeClientAddresses, prefix), `no /${prefix} example range`);
  assert.ok(target.pbx.edgeClientAddresses.every((a) => a.startsWith('127.')));
  assert.equal(target.fleet, undefined, '--no-fleet: no fleet section');
  assert.deepEqual(target.maintenance, { basePath: '/fp/7ce0d8df/api/v1' });
  assert.match(target.pbx.webUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.match(target.pbx.controlUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.ok(target.pbx.monitoring.port > 0);
  assert.deepEqual(targetSchemaErrors(target), []);
  // The resolver scenarios' fixtures: the harness's address and two certificates the PBX trusts.
  assert.equal(target.resolver.endpointHost, '127.0.0.1');
  const { trustedCertificate, trustedCertificateOtherHost } = target.resolver;
  const matching = new X509Certificate(readFileSync(trustedCertificate.certFile));
  assert.equal(matching.checkHost('localhost'), 'localhost');
  assert.equal(matching.checkIP('127.0.0.1'), '127.0.0.1');
  const other = new X509Certificate(readFileSync(trustedCertificateOtherHost.certFile));
  assert.equal(other.checkIP('127.0.0.1'), undefined);
  assert.match(readFileSync(trustedCertificateOtherHost.keyFile, 'utf8'), /PRIVATE KEY/);

  const xmlrpc = await fetch(`${target.pbx.webUrl}/xml-rpc`, {
    method: 'POST',
    headers: { 'content-type': 'text/xml' },
    body: '<?xml version="1.0"?><methodCall><methodName>Monitoring.isActiveDirectoryEnabled</methodName><params/></methodCall>',
  });
  assert.equal(xmlrpc.status, 200);
  assert.match(await xmlrpc.text(), /activeDirectoryEnabled/);
  assert.equal(await canConnect(target.pbx.monitoring.host, target.pbx.monitoring.port), true);

  controller.abort();
  assert.equal(await exit, 0);
  assert.match(io.err(), /data endpoint: {3}tcp:\/\/127\.0\.0\.1:\d+/);
  assert.doesNotMatch(io.err(), /Fleet controller/);
  assert.equal(await canConnect(target.pbx.monitoring.host, target.pbx.monitoring.port), false);
  const webPort = Number(new URL(target.pbx.webUrl).port);
  assert.equal(await canConnect('127.0.0.1', webPort), false);
  assert.equal(existsSync(dirname(trustedCertificate.certFile)), false, 'the certificate files are removed');
});

test('simulate with a busy web port fails with one line and exit 1', async () => {
  const blocker: Server = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  try {
    const address = blocker.address();
    assert.ok(address !== null && typeof address === 'object');
    const io = captureIo(process.cwd(), { signal: AbortSignal.abort() });
    assert.equal(await run(['simulate', '--port', '0', '--web-port', String(address.port)], io), 2);
    assert.equal(io.err(), `pbx-conformance: port ${address.port} on 127.0.0.1 is already in use\n`);
    assert.equal(io.out(), '');
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
  }
});

test('simulate with an unknown scenario is a usage error naming the known ones', async () => {
  const io = captureIo(process.cwd(), { signal: AbortSignal.abort() });
  assert.equal(await run(['simulate', '--scenario', 'no-such-scenario'], io), 2);
  assert.match(io.err(), /^pbx-conformance: unknown scenario 'no-such-scenario' \(known: healthy, /);
});

test('simulate loads a scenario file given by path', async () => {
  const io = captureIo(process.cwd(), { signal: AbortSignal.abort() });
  const file = new URL('../../../simulators/pbx/scenarios/ram-warning.json', import.meta.url).pathname;
  assert.equal(await run(['simulate', '--port', '0', '--scenario', file], io), 0);
  assert.match(io.out(), /PBX simulator running \(scenario .*ram-warning\.json, clock running\)/);
  assert.match(io.out(), /stopping the simulator/);
});

interface FleetTarget {
  pbx: { webUrl: string; controlUrl: string };
  maintenance: { basePath: string };
  fleet: {
    apiUrl: string;
    mcpUrl: string;
    controlUrl: string;
    accounts: { partner: { email: string }; otherPartner?: { email: string } };
    sites?: Record<string, string>;
    pbxs?: { siteId: string; controlUrl: string }[];
  };
}

const ANNA = `Basic ${Buffer.from('anna.admin@nordlicht.example:Nordlicht-Demo-1').toString('base64')}`;

/** Runs `simulate --json` with `args` until the test ends; resolves with the target line. */
async function simulate(t: TestContext, args: string[]) {
  const controller = new AbortController();
  const io = captureIo(process.cwd(), { signal: controller.signal });
  const line = firstLine(io.stdout as PassThrough);
  const exit = run(['simulate', '--port', '0', '--json', ...args], io);
  const target = JSON.parse(await Promise.race([line, exit.then(() => io.err())])) as FleetTarget;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    controller.abort();
    assert.equal(await exit, 0);
  };
  t.after(stop);
  return { target, io, stop };
}

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

async function raise(pbxControl: string, subject: string): Promise<void> {
  const raised = await json(`${pbxControl}/events/attention`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ module: 'Backup', subject, severity: 'ERROR' }),
  });
  assert.equal(raised.status, 200);
  const delivered = await json(`${pbxControl}/events/wait-delivered`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ timeoutMs: 10_000 }),
  });
  assert.equal(delivered.status, 200, 'the event reached the controller');
}

async function sites(target: FleetTarget) {
  const res = await json(`${target.fleet.apiUrl}/api/v1/sites`, { headers: { authorization: ANNA } });
  assert.equal(res.status, 200);
  return res.body as { id: string; attentionEvents: { id: number; subject: string }[] }[];
}

test('simulate starts a fleet controller with 3 PBXs by default; an event raised on the primary PBX shows at the controller', async (t) => {
  const { target, io, stop } = await simulate(t, ['--clock', 'frozen']);
  assert.match(target.fleet.apiUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(target.fleet.mcpUrl, `${target.fleet.apiUrl}/mcp`);
  assert.match(target.fleet.controlUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.deepEqual(target.maintenance, { basePath: '/fp/7ce0d8df/api/v1' });
  assert.deepEqual(targetSchemaErrors(target), [], 'usable as a target file for verify --target');
  assert.equal(target.fleet.accounts.partner.email, 'anna.admin@nordlicht.example');
  assert.equal(target.fleet.accounts.otherPartner?.email, 'sam.admin@suedwind.example');
  assert.deepEqual(target.fleet.sites, {
    own: 'site-hamburg',
    second: 'site-kiel',
    shared: 'site-bremen',
    foreign: 'site-muenchen',
  });
  assert.deepEqual(
    target.fleet.pbxs?.map((p) => p.siteId),
    ['site-hamburg', 'site-kiel', 'site-bremen'],
  );
  assert.equal(target.fleet.pbxs?.[0]?.controlUrl, target.pbx.controlUrl);

  await raise(target.pbx.controlUrl, 'Sicherung fehlgeschlagen');
  const hamburg = (await sites(target)).find((s) => s.id === 'site-hamburg');
  assert.deepEqual(
    hamburg?.attentionEvents.map((e) => e.subject),
    ['Sicherung fehlgeschlagen'],
  );
  // Every PBX of the fleet is registered and connected over the ingest link.
  for (const site of ['site-hamburg', 'site-kiel', 'site-bremen']) {
    const deadline = Date.now() + 10_000;
    let link = await json(`${target.fleet.controlUrl}/sites/${site}/link`);
    while ((link.body as { connected: number }).connected < 1 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      link = await json(`${target.fleet.controlUrl}/sites/${site}/link`);
    }
    assert.deepEqual(link.body, { siteId: site, registered: true, connected: 1, cut: false });
  }
  assert.equal(
    ((await json(`${target.fleet.controlUrl}/sites/site-muenchen/link`)).body as { registered: boolean })
      .registered,
    false,
  );
  // A peer PBX's control plane, as printed, forwards to its own site.
  const kiel = /^ {4}site-kiel +(\S+) +(\S+) +(\S+)$/m.exec(io.err());
  assert.ok(kiel?.[2], io.err());
  await raise(kiel[2], 'Trunk gestört');
  const kielSite = (await sites(target)).find((s) => s.id === 'site-kiel');
  assert.deepEqual(
    kielSite?.attentionEvents.map((e) => e.subject),
    ['Trunk gestört'],
  );

  assert.match(io.err(), /anna\.admin@nordlicht\.example \/ Nordlicht-Demo-1/);
  assert.match(io.err(), /sam\.admin@suedwind\.example \/ Suedwind-Demo-1/);
  assert.match(io.err(), new RegExp(`REST: +${target.fleet.apiUrl}/api/v1`));
  assert.match(io.err(), new RegExp(`MCP: +${target.fleet.mcpUrl}`));
  await stop();
  assert.equal(await canConnect('127.0.0.1', Number(new URL(target.fleet.apiUrl).port)), false);
  assert.equal(await canConnect('127.0.0.1', Number(new URL(kiel[1]!).port)), false);
});

test('simulate prints a refused PBX link once per peer and reason, without the key, as --fleet-only does (issue 29 item 5)', async (t) => {
  const { io } = await simulate(t, ['--clock', 'frozen', '--pbx-count', '1']);
  const ingest = /PBX ingest: +tcp:\/\/([\d.]+):(\d+)/.exec(io.err());
  assert.ok(ingest, io.err());
  const WRONG = 'a-key-of-another-fleet';
  // Twice from the same peer: refused each time, printed once.
  for (const stream of ['s1', 's2']) {
    const socket = connect({ host: ingest[1], port: Number(ingest[2]) });
    socket.on('error', () => {});
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('utf8');
    });
    await once(socket, 'connect');
    socket.write(
      `${JSON.stringify({ type: 'hello', version: 1, siteId: 'site-hamburg', key: WRONG, stream })}\n`,
    );
    await once(socket, 'close');
    assert.equal(answer, '{"type":"refused","reason":"bad-key"}\n');
  }
  const printed = io
    .err()
    .split('\n')
    .filter((line) => line.includes('refused a PBX link'));
  assert.equal(printed.length, 1, io.err());
  assert.match(
    printed[0]!,
    /^warning: ingest: refused a PBX link from 127\.0\.0\.1 for site "site-hamburg": bad-key, /,
  );
  assert.ok(!io.err().includes(WRONG), 'never the key');
});

test('simulate --pbx-count 5 adds a demo site beyond the four of the fixture', async (t) => {
  const { target, io } = await simulate(t, ['--pbx-count', '5']);
  assert.match(io.err(), /Fleet controller \(5 PBXs; state in memory\)/);
  assert.match(io.err(), /^ {4}site-demo-5 +http/m);
  const ids = (await sites(target)).map((s) => s.id);
  assert.ok(ids.includes('site-demo-5'), 'Nordlicht owns the new site');
});

test('simulate --data keeps acknowledgements and history across a restart', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'simulate-data-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const first = await simulate(t, ['--data', dir, '--pbx-count', '1']);
  assert.match(first.io.err(), new RegExp(`state kept in ${dir}`));
  await raise(first.target.pbx.controlUrl, 'Platte voll');
  const [item] = (await sites(first.target)).find((s) => s.id === 'site-hamburg')?.attentionEvents ?? [];
  assert.ok(item);
  const ack = await json(
    `${first.target.fleet.apiUrl}/api/v1/sites/site-hamburg/attention/${item.id}/acknowledge`,
    {
      method: 'POST',
      headers: { authorization: ANNA },
    },
  );
  assert.equal(ack.status, 200);
  await first.stop();

  const second = await simulate(t, ['--data', dir, '--pbx-count', '1']);
  const history = await json(`${second.target.fleet.apiUrl}/api/v1/sites/site-hamburg/history`, {
    headers: { authorization: ANNA },
  });
  assert.deepEqual(
    (history.body as { attention: { id: number; subject: string } }[]).map((h) => h.attention),
    [{ id: item.id, module: 'Backup', subject: 'Platte voll', severity: 'ERROR', comment: null }],
  );
});

test('simulate refuses a data directory another controller holds, in one line', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'simulate-busy-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'controller.lock'), `${process.ppid}\n`);
  const io = captureIo(process.cwd(), { signal: AbortSignal.abort() });
  assert.equal(await run(['simulate', '--port', '0', '--data', dir], io), 2);
  assert.match(
    io.err(),
    /^pbx-conformance: the fleet controller did not start: data directory .* is in use by process \d+/,
  );
  assert.equal(io.err().split('\n').length, 2, 'one line');
  assert.equal(io.out(), '');
});

test('simulate --pbx-count outside 1..100000 is a usage error', async () => {
  for (const value of ['0', '100001', 'drei']) {
    const io = captureIo(process.cwd(), { signal: AbortSignal.abort() });
    assert.equal(await run(['simulate', '--pbx-count', value], io), 2);
    assert.match(
      io.err(),
      /^pbx-conformance: option '--pbx-count <n>' argument '.*' is invalid\. expected 1 to 100000 PBXs\n$/,
    );
  }
});

test('simulate --no-fleet with --data, --pbx-count, --address-pool or --activity is a usage error', async () => {
  for (const extra of [
    ['--data', 'x'],
    ['--pbx-count', '2'],
    ['--address-pool', '127.9.0.0/24'],
    ['--activity', 'field'],
  ]) {
    const io = captureIo(process.cwd(), { signal: AbortSignal.abort() });
    assert.equal(await run(['simulate', '--no-fleet', ...extra], io), 2);
    assert.equal(
      io.err(),
      'pbx-conformance: --data, --pbx-count, --address-pool and --activity belong to the fleet; they cannot go with --no-fleet\n',
    );
  }
});

test('simulate with an address pool smaller than the fleet or a malformed pool exits 2 with one line before any PBX starts', async () => {
  for (const [pool, reason] of [
    [
      '127.9.9.0/30',
      /^pbx-conformance: the address pool 127\.9\.9\.0\/30 holds 3 addresses, fewer than the 60 PBXs; give a larger --address-pool\n$/,
    ],
    ['127.9.9.9', /^pbx-conformance: address pool 127\.9\.9\.9: expected a\.b\.c\.d\/len or first-last\n$/],
  ] as const) {
    const io = captureIo(process.cwd(), { signal: AbortSignal.abort() });
    assert.equal(await run(['simulate', '--pbx-count', '60', '--address-pool', pool], io), 2);
    assert.match(io.err(), reason);
    assert.equal(io.out(), '');
  }
});

test('simulate exits 2 naming the open-file limit and the command that raises it when the fleet does not fit under it', async (t) => {
  const prlimit = spawnSync('prlimit', ['--version'], { stdio: 'ignore' });
  if (prlimit.status !== 0) return t.skip('prlimit (util-linux) is not installed');
  const child = spawnSync(
    'prlimit',
    [
      '--nofile=300:300',
      process.execPath,
      '--import',
      'tsx',
      'src/cli/main.ts',
      'simulate',
      '--pbx-count',
      '500',
      '--address-pool',
      '127.9.8.0/16',
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  assert.equal(child.status, 2);
  assert.match(
    child.stderr,
    /^pbx-conformance: the hard open-file limit 300 is below the 1256 descriptors 500 PBXs need in one process \(2 each: its data endpoint and web listeners; at most 22 fit\); raise it as root with `ulimit -n 1256` in the shell that runs simulate \(a container: --ulimit nofile=1256\), or split the fleet into processes with simulate --fleet-only and --shard i\/N\n$/,
  );
  assert.equal(child.stdout, '');
});
