/**
 * The fleet of `npm run bench -- fleet-scale`, in a process of its own so its RSS and CPU are its
 * alone: a pooled fleet of N PBXs (argv[2]) on the pool argv[3] with the data endpoint on argv[4]
 * and the web server on argv[5], plus the bare baselines (a net server answering the data
 * endpoint's bytes, an HTTP server serving the `/sites` body) on addresses of their own. Talks
 * JSON lines: one line when up, then one answer per command read from stdin.
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer, connect as netConnect } from 'node:net';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import type { PbxHandle } from '../simulators/pbx/index.ts';
import { startDemoFleet } from '../src/cli/demo-fleet.ts';
import { addressAt, parseAddressPool } from '../src/fleet/address-pool.ts';

const [count = 100, poolSpec = '127.160.0.0/16', dataPort = 6556, webPort = 8080] = [
  Number(process.argv[2]),
  process.argv[3],
  Number(process.argv[4]),
  Number(process.argv[5]),
];
const AUTH = `Basic ${Buffer.from('anna.admin@nordlicht.example:Nordlicht-Demo-1').toString('base64')}`;

const gc = (globalThis as { gc?: () => void }).gc;
const rssAfterGc = () => {
  gc?.();
  gc?.();
  return process.memoryUsage().rss;
};
const send = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

const pool = parseAddressPool(poolSpec);
const fleet = await startDemoFleet({
  host: '127.0.0.1',
  clock: 'frozen',
  pbxCount: count,
  pool: { addresses: pool, dataPort, webPort },
});
const { state } = fleet.controller.internals;
const rssController = rssAfterGc();
const { start } = await import('../simulators/pbx/index.ts');
const clock = { mode: 'frozen' as const };
const startedAt = performance.now();
const cpuAtStart = process.cpuUsage();
const primary: PbxHandle = await start({
  clock,
  ...fleet.pbxOptions(0),
  controller: fleet.registrations[0]!,
});
fleet.started(0, primary);
await fleet.startPeers({ clock });
const listening = performance.now() - startedAt;
const connected = () => {
  let up = 0;
  for (const link of state.ingest.links.values()) if (link.connected > 0) up++;
  return up;
};
while (connected() < count) await new Promise((resolve) => setTimeout(resolve, 20));
const linksUp = performance.now() - startedAt;
const startCpu = process.cpuUsage(cpuAtStart);
const rssFleet = rssAfterGc();

// Bare baselines on addresses after the fleet's: the same bytes, nothing else.
const agentBytes = await new Promise<Buffer>((resolve, reject) => {
  const chunks: Buffer[] = [];
  const socket = netConnect({ host: addressAt(pool, 0), port: dataPort });
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('end', () => resolve(Buffer.concat(chunks)));
  socket.on('error', reject);
});
const bareNet = createNetServer((socket) => {
  socket.on('error', () => {});
  socket.end(agentBytes);
});
const bareNetHost = addressAt(pool, count);
await new Promise<void>((resolve) => bareNet.listen({ host: bareNetHost, port: dataPort }, resolve));
const sitesUrl = `${fleet.controller.urls.api}/api/v1/sites`;
const first = await request(sitesUrl, { headers: { authorization: AUTH } });
const sitesBody = await first.body.text();
const etag = String(first.headers['etag']);
const bareHttp = createHttpServer((req, res) => {
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, { etag });
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', etag });
  res.end(sitesBody);
});
const bareHttpHost = addressAt(pool, count + 1);
await new Promise<void>((resolve) => bareHttp.listen({ host: bareHttpHost, port: webPort }, resolve));

send({
  ready: true,
  count,
  listeningMs: listening,
  linksUpMs: linksUp,
  startCpuMs: (startCpu.user + startCpu.system) / 1000,
  rssController,
  rssFleet,
  gc: gc !== undefined,
  sitesUrl,
  etag,
  sitesBytes: Buffer.byteLength(sitesBody),
  agentBytes: agentBytes.length,
  mcpUrl: fleet.controller.urls.mcp,
  bareNet: { host: bareNetHost, port: dataPort },
  bareHttp: `http://${bareHttpHost}:${webPort}/api/v1/sites`,
});

/** Raises `perPbx` events on each of the first `pbxs` PBXs through their forwarders; time until the controller accepted them all. */
async function events(pbxs: number, perPbx: number) {
  const handles = [primary, ...fleet.peers.map((p) => p.pbx)].slice(0, pbxs);
  const before = state.ingest.stats.accepted;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  let raised = 0;
  for (const pbx of handles) {
    for (let i = 0; i < perPbx; i++) {
      const outcome = pbx.internals.events.raise({
        module: 'Bench',
        subject: `bench ${i % 3}`,
        severity: 'WARNING',
      });
      if (outcome === 'sent' || outcome === 'buffered') raised++;
    }
  }
  const deadline = t0 + 120_000;
  while (state.ingest.stats.accepted - before < raised && performance.now() < deadline)
    await new Promise((resolve) => setImmediate(resolve));
  const ms = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  return {
    raised,
    accepted: state.ingest.stats.accepted - before,
    ms,
    cpuMs: (used.user + used.system) / 1000,
  };
}

let cpuMark = process.cpuUsage();
for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as { op: string; pbxs?: number; perPbx?: number };
  if (command.op === 'cpu-mark') {
    cpuMark = process.cpuUsage();
    send({ ok: true });
  } else if (command.op === 'cpu-read') {
    const used = process.cpuUsage(cpuMark);
    send({ cpuMs: (used.user + used.system) / 1000 });
  } else if (command.op === 'events') {
    send(await events(command.pbxs ?? 100, command.perPbx ?? 1));
  } else if (command.op === 'quit') {
    break;
  }
}
bareNet.close();
bareHttp.close();
await primary.close();
await fleet.close();
send({ closed: true });
process.exit(0);
