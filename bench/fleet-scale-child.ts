/**
 * The fleet of `npm run bench -- fleet-scale`, in processes of its own so their RSS and CPU are
 * theirs alone. Talks JSON lines: one line when up, then one answer per command read from stdin.
 *
 * - `whole N POOL DATA_PORT WEB_PORT`: a pooled fleet of N PBXs beside its controller in this
 *   process (`simulate --pbx-count N`), plus the bare baselines (a net server answering the data
 *   endpoint's bytes, an HTTP server serving the `/sites` body) on addresses after the fleet's.
 * - `controller N POOL DATA_PORT WEB_PORT`: the controller alone (`simulate --fleet-only`) for N
 *   sites, keys from PBX_CONFORMANCE_FLEET_SECRET; `wait-links` ends when every site is linked,
 *   `baselines` then starts the bare servers.
 * - `shard I/K N POOL DATA_PORT WEB_PORT INGEST_URL`: shard I of K (`simulate --shard I/K`); its
 *   PBXs start on `start` (`activity: true`: with `--activity field` on a running clock), all
 *   linked over the shard's one multiplexed connection to the controller.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer, connect as netConnect } from 'node:net';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import {
  addressAt,
  FLEET_SECRET_ENV,
  type Fleet,
  type FleetShard,
  parseAddressPool,
  parseShard,
  startFleet,
} from '../simulators/fleet/index.ts';
import { acceptedEvents, ingestConnections, linkedSites } from '../simulators/fleet-controller/index.ts';
import { forwarderStatus, type PbxHandle, raiseAttention } from '../simulators/pbx/index.ts';

const mode = process.argv[2] as 'whole' | 'controller' | 'shard';
const args = process.argv.slice(mode === 'shard' ? 4 : 3);
const [count = 100, poolSpec = '127.160.0.0/16', dataPort = 6556, webPort = 8080] = [
  Number(args[0]),
  args[1],
  Number(args[2]),
  Number(args[3]),
];
const AUTH = `Basic ${Buffer.from('anna.admin@nordlicht.example:Nordlicht-Demo-1').toString('base64')}`;
const secret = process.env[FLEET_SECRET_ENV] ?? 'fleet-scale-bench-secret-never-deployed';

const gc = (globalThis as { gc?: () => void }).gc;
const rssAfterGc = () => {
  gc?.();
  gc?.();
  return process.memoryUsage().rss;
};
const cpuMs = (used: NodeJS.CpuUsage) => (used.user + used.system) / 1000;
const send = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
const pool = parseAddressPool(poolSpec);
// Every mode loads both simulators before its first RSS reading: what follows is the PBXs' alone.
await import('../simulators/pbx/index.ts');
await import('../simulators/fleet-controller/index.ts');
/** The process with its code loaded and nothing started: what a controller's sites are measured from. */
const rssEmpty = rssAfterGc();
const heapEmpty = process.memoryUsage().heapUsed;
const closers: (() => Promise<unknown> | unknown)[] = [];

/** What the PBXs of this process are, for `events`. */
let pbxs: () => PbxHandle[] = () => [];
let fleet: Fleet | undefined;

/** Connected links at this process's controller. */
const linked = () => {
  return linkedSites(fleet!.controller);
};

/** The bare baselines beside the controller: the data endpoint's bytes from PBX 1, the `/sites` body. */
async function baselines() {
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
  closers.push(() => bareNet.close());
  const sitesUrl = `${fleet!.controller.urls.api}/api/v1/sites`;
  const first = await request(sitesUrl, { headers: { authorization: AUTH } });
  const sitesBody = await first.body.text();
  const etag = String(first.headers['etag']);
  const bareHttp: Server = createHttpServer((req, res) => {
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
  closers.push(() => bareHttp.close());
  return {
    sitesUrl,
    etag,
    sitesBytes: Buffer.byteLength(sitesBody),
    agentBytes: agentBytes.length,
    mcpUrl: fleet!.controller.urls.mcp,
    bareNet: { host: bareNetHost, port: dataPort },
    bareHttp: `http://${bareHttpHost}:${webPort}/api/v1/sites`,
  };
}

/** Raises `perPbx` events on each of the first `n` PBXs of this process through their forwarders. */
function raise(n: number, perPbx: number): number {
  let raised = 0;
  for (const pbx of pbxs().slice(0, n)) {
    for (let i = 0; i < perPbx; i++) {
      const outcome = raiseAttention(pbx, {
        module: 'Bench',
        subject: `bench ${i % 3}`,
        severity: 'WARNING',
      });
      if (outcome === 'sent' || outcome === 'buffered') raised++;
    }
  }
  return raised;
}

/** Waits until this process's controller accepted `target` events after `before`. */
async function accepted(before: number, target: number, t0: number) {
  const controller = fleet!.controller;
  const deadline = t0 + 120_000;
  while (acceptedEvents(controller) - before < target && performance.now() < deadline)
    await new Promise((resolve) => setImmediate(resolve));
  return { accepted: acceptedEvents(controller) - before, ms: performance.now() - t0 };
}

/** RSS with the controller up and no PBX started: what the PBXs of a whole fleet are measured from. */
let rssBefore = 0;
if (mode === 'whole') {
  const clock = { mode: 'frozen' as const };
  // The clock starts once the controller is up, with PBX 1: the start of the PBXs alone.
  let startedAt = 0;
  let cpuAtStart = process.cpuUsage();
  fleet = await startFleet({
    host: '127.0.0.1',
    clock: 'frozen',
    pbxCount: count,
    pool: { addresses: pool, dataPort, webPort },
    pbx: { clock },
    primary: {
      options: () => {
        rssBefore = rssAfterGc();
        startedAt = performance.now();
        cpuAtStart = process.cpuUsage();
        return { clock };
      },
    },
  });
  closers.push(() => fleet!.close());
  const listening = performance.now() - startedAt;
  while (linked() < count) await new Promise((resolve) => setTimeout(resolve, 20));
  const linksUp = performance.now() - startedAt;
  const startCpu = process.cpuUsage(cpuAtStart);
  const rssFleet = rssAfterGc();
  pbxs = () => fleet!.pbxs.map((p) => p.pbx);
  send({
    ready: true,
    count,
    listeningMs: listening,
    linksUpMs: linksUp,
    startCpuMs: cpuMs(startCpu),
    rssController: rssBefore,
    rssFleet,
    gc: gc !== undefined,
    ...(await baselines()),
  });
} else if (mode === 'controller') {
  fleet = await startFleet({
    part: 'controller',
    host: '127.0.0.1',
    clock: 'frozen',
    pbxCount: count,
    secret,
  });
  closers.push(() => fleet!.close());
  rssBefore = rssAfterGc();
  send({
    ready: true,
    ingest: fleet!.controller.urls.ingest,
    rss: rssBefore,
    rssEmpty,
    heapEmpty,
    heapSites: process.memoryUsage().heapUsed,
    gc: gc !== undefined,
  });
} else {
  rssBefore = rssAfterGc();
  send({ ready: true, rss: rssBefore, gc: gc !== undefined });
}

let running: FleetShard | undefined;
let cpuMark = process.cpuUsage();
let acceptedMark = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line) as {
    op: string;
    pbxs?: number;
    perPbx?: number;
    target?: number;
    activity?: boolean;
  };
  if (command.op === 'cpu-mark') {
    cpuMark = process.cpuUsage();
    send({ ok: true });
  } else if (command.op === 'cpu-read') {
    send({ cpuMs: cpuMs(process.cpuUsage(cpuMark)) });
  } else if (command.op === 'start') {
    // A shard: its slice of the fleet, linked to the controller over TCP.
    const t0 = performance.now();
    const cpu = process.cpuUsage();
    running = await startFleet({
      part: 'shard',
      shard: parseShard(process.argv[3]!),
      pbxCount: count,
      controller: process.argv[8]!,
      secret,
      pool: { addresses: pool, dataPort, webPort },
      // `--activity field` needs a running clock: the activity follows the PBX's virtual time.
      pbx: { clock: { mode: command.activity ? 'running' : 'frozen' } },
      controlHost: '127.0.0.1',
      controlPort: 0,
      ...(command.activity ? { activity: { seed: 'field' } } : {}),
    });
    closers.push(() => running?.close());
    pbxs = () => running!.pbxs;
    const listeningMs = performance.now() - t0;
    // Waits at the first PBX whose link is not up yet, then goes on from there (a walk over
    // every PBX's status each time took a tenth of the shard's start), and once more over all.
    for (let pass = 0; pass < 2; pass++) {
      for (const pbx of running.pbxs)
        while (forwarderStatus(pbx).link !== 'up') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    send({
      listeningMs,
      upMs: performance.now() - t0,
      startCpuMs: cpuMs(process.cpuUsage(cpu)),
      rss: rssAfterGc(),
      pbxs: running.pbxs.length,
    });
  } else if (command.op === 'wait-links') {
    const t0 = performance.now();
    // Counting walks every link: at 100,000 sites not every 20 ms.
    while (linked() < count) await new Promise((resolve) => setTimeout(resolve, 200));
    const waitedMs = performance.now() - t0;
    const rss = rssAfterGc();
    send({
      waitedMs,
      rss,
      heapUsed: process.memoryUsage().heapUsed,
      /** TCP connections the controller's ingest listener holds: one per shard when multiplexed. */
      tcpConnections: await ingestConnections(fleet!.controller).catch(() => -1),
    });
  } else if (command.op === 'baselines') {
    send(await baselines());
  } else if (command.op === 'accepted-mark') {
    acceptedMark = acceptedEvents(fleet!.controller);
    send({ ok: true });
  } else if (command.op === 'wait-accepted') {
    // The controller of a sharded fleet: until the events the shards raised have all arrived.
    send(await accepted(acceptedMark, command.target ?? 0, performance.now()));
  } else if (command.op === 'raise') {
    send({ raised: raise(command.pbxs ?? 100, command.perPbx ?? 1) });
  } else if (command.op === 'events') {
    // The whole fleet in this process: raise, then wait until the controller accepted them all.
    const before = acceptedEvents(fleet!.controller);
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const raised = raise(command.pbxs ?? 100, command.perPbx ?? 1);
    const done = await accepted(before, raised, t0);
    send({ raised, ...done, cpuMs: cpuMs(process.cpuUsage(cpu)) });
  } else if (command.op === 'quit') {
    break;
  }
}
for (const close of closers.reverse()) await close();
send({ closed: true });
process.exit(0);
