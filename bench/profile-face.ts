import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FleetFixture, start as startFleet } from '../simulators/fleet-controller/index.ts';
import { httpPbxControl, resolveCaller, start as startPbx } from '../simulators/pbx/index.ts';
import { startEndpointWorker } from './endpoint-worker.ts';
import {
  bareSitesServer,
  benchFleetFixture,
  benchIngestKeys,
  FLEET_BENCH_AUTH,
  FLEET_BENCH_T0,
  injectBenchItems,
} from './fleet.bench.ts';
import { runLoad } from './load.ts';
import { type LoadTarget, LoadWorker } from './load-worker.ts';
import { bareMaintenanceServer, MAINTENANCE_COMMAND_PATH, maintenanceCommand } from './maintenance.bench.ts';
import { ceilingServer } from './monitoring.bench.ts';

/**
 * `node --cpu-prof --cpu-prof-dir=<dir> --import tsx bench/profile-face.ts <face> [ms]
 * [--concurrency <n>] [--bare]`: one face under the load of its `npm run bench` row, the system
 * under test alone (no bare server in the process), so the main thread's profile holds nothing
 * but the face's own work. Faces: `sites-200`, `sites-304`, `ingest-memory`, `ingest-data`,
 * `data-http`, `maintenance`, `resolver`. `--concurrency` runs only that one of the row's
 * connection counts (1 or 32); `--bare` puts the same load on the row's bare server instead
 * (`sites-*`, `data-http`, `maintenance`; the face only gives it its bytes and is closed before
 * the load), for a profile to hold against the face's function by function. Summarise the
 * profile with `bench/profile-summary.ts`. Prints the rate it reached and the server's CPU per
 * request.
 */
const face = process.argv[2] ?? '';
const durationMs = Number(process.argv[3] ?? 4000);
const settings = { durationMs, warmupMs: 300 };
const flag = (name: string) => process.argv.indexOf(name);
const bare = flag('--bare') !== -1;
const onlyConcurrency =
  flag('--concurrency') === -1 ? undefined : Number(process.argv[flag('--concurrency') + 1]);
const concurrencies = (row: number[]) => (onlyConcurrency === undefined ? row : [onlyConcurrency]);

async function profileFleetSites(conditional: boolean): Promise<void> {
  const fleet = await startFleet({ fixture: benchFleetFixture(), clock: { start: FLEET_BENCH_T0 } });
  const load = await LoadWorker.start();
  try {
    await injectBenchItems(fleet);
    const url = `${fleet.urls.api}/api/v1/sites`;
    // The bare server repeats the controller's own answers (bench/fleet.bench.ts): recorded first.
    const server = await bareSitesServer(url, FLEET_BENCH_AUTH);
    const headers: Record<string, string> = { authorization: FLEET_BENCH_AUTH };
    if (conditional) headers['if-none-match'] = server.etag;
    let target: LoadTarget = { kind: 'http', url, headers, expectStatus: conditional ? 304 : 200 };
    if (bare) {
      await fleet.close();
      target = { ...target, url: server.url };
    }
    closers.push(() => server.server.close());
    loadBegins();
    for (const concurrency of concurrencies([1, 32]))
      report(concurrency, await load.run({ target, concurrency, ...settings }));
  } finally {
    await load.close();
    await fleet.close();
  }
}

async function profileIngest(withData: boolean): Promise<void> {
  const keys = benchIngestKeys();
  const fixture: FleetFixture = { ...benchFleetFixture(keys.length), pbxs: keys };
  const dataDir = withData ? mkdtempSync(join(tmpdir(), 'fleet-profile-')) : undefined;
  const fleet = await startFleet({
    fixture,
    clock: { start: FLEET_BENCH_T0 },
    ...(dataDir ? { dataDir } : {}),
  });
  const load = await LoadWorker.start();
  try {
    const { hostname, port } = new URL(fleet.urls.ingest);
    const target: LoadTarget = {
      kind: 'ingest',
      host: hostname,
      port: Number(port),
      pbxs: keys,
      window: 64,
      at: FLEET_BENCH_T0,
    };
    loadBegins();
    report(keys.length, await load.run({ target, concurrency: keys.length, ...settings }));
  } finally {
    await load.close();
    await fleet.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

async function profileDataHttp(): Promise<void> {
  const sim = await startPbx({ monitoringPort: 0, clock: { mode: 'frozen' } });
  const load = await LoadWorker.start();
  try {
    const url = new URL(sim.urls.monitoring ?? 'tcp://0.0.0.0:0');
    const request = `GET /checkmk HTTP/1.1\r\nHost: ${url.hostname}\r\n\r\n`;
    let target: LoadTarget = { kind: 'tcp', host: url.hostname, port: Number(url.port), request };
    if (bare) {
      const answer = await request_(sim.urls.monitoring ?? '', '/checkmk');
      const server = await ceilingServer(answer, true);
      closers.push(() => server.server.close());
      await sim.close();
      target = { ...target, host: '127.0.0.1', port: server.port };
    }
    loadBegins();
    for (const concurrency of concurrencies([1, 32]))
      report(concurrency, await load.run({ target, concurrency, ...settings }));
  } finally {
    await load.close();
    await sim.close();
  }
}

async function profileMaintenance(): Promise<void> {
  const sim = await startPbx({ monitoringPort: 0, clock: { mode: 'frozen' } });
  const load = await LoadWorker.start();
  try {
    const { secret } = await httpPbxControl(sim.urls.control).createToken({ label: 'bench', actor: 'admin' });
    const target: LoadTarget = {
      kind: 'http',
      url: `${sim.urls.web}${MAINTENANCE_COMMAND_PATH}`,
      ...maintenanceCommand(secret),
    };
    if (bare) {
      const server = await bareMaintenanceServer(target.url, secret);
      closers.push(() => server.server.close());
      target.url = server.url;
    }
    loadBegins();
    for (const concurrency of concurrencies([32]))
      report(concurrency, await load.run({ target, concurrency, ...settings }));
    while ((await sim.control.waitIdle()).pending > 0);
  } finally {
    await load.close();
    await sim.close();
  }
}

async function profileResolver(): Promise<void> {
  const endpoint = await startEndpointWorker('{"name":"Anna Schmidt","company":"Beispiel GmbH"}');
  const sim = await startPbx({ monitoringPort: 0, clock: { mode: 'frozen' } });
  try {
    await sim.control.resolverSetProviders([
      {
        id: 'bench',
        type: 'HTTP',
        url: `${endpoint.url}/lookup?tel={tel}`,
        parsers: [{ matcher: '"name"\\s*:\\s*"([^"]*)"', formatter: '\\1' }],
        fieldMappings: { firstName: '', lastName: '{0}', company: '' },
      },
    ]);
    const resolve = async () => {
      const result = await resolveCaller(sim, '030 1234567');
      if (result.state !== 'resolved') throw new Error(`resolution ${result.state}`);
    };
    await runLoad(resolve, 4, 300);
    loadBegins();
    const result = await runLoad(resolve, 16, durationMs);
    console.log(`resolver c16: ${result.perSecond.toFixed(0)}/s, ${result.errors} errors`);
  } finally {
    await sim.close();
    await endpoint.close();
  }
}

/** The monotonic clock in µs, as a `--cpu-prof` profile's timestamps: where the load began. */
function loadBegins(): void {
  console.log(`load from ${process.hrtime.bigint() / 1000n} µs (profile-summary.ts's [from])`);
}

function report(
  concurrency: number,
  result: {
    perSecond: number;
    requests: number;
    errors: number;
    firstError?: string;
    serverCpuMs: number | null;
  },
) {
  const cpu =
    result.serverCpuMs === null
      ? ''
      : `, server ${((result.serverCpuMs * 1000) / result.requests).toFixed(1)} µs CPU/request`;
  console.log(
    `${face}${bare ? ' (bare)' : ''} c${concurrency}: ${result.perSecond.toFixed(0)}/s${cpu}, ${result.errors} errors${result.firstError ? ` (${result.firstError})` : ''}`,
  );
}

/** Servers a `--bare` run started, closed at the end. */
const closers: (() => void)[] = [];

/** The body of a GET over a fresh connection to the data endpoint (the ceiling writes it with its own head). */
async function request_(base: string, path: string): Promise<Buffer> {
  const { hostname, port } = new URL(base);
  const socket = connect({ host: hostname, port: Number(port) });
  socket.end(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const whole = Buffer.concat(chunks);
  return whole.subarray(whole.indexOf('\r\n\r\n') + 4);
}

const faces: Record<string, () => Promise<void>> = {
  'sites-200': () => profileFleetSites(false),
  'sites-304': () => profileFleetSites(true),
  'ingest-memory': () => profileIngest(false),
  'ingest-data': () => profileIngest(true),
  'data-http': profileDataHttp,
  maintenance: profileMaintenance,
  resolver: profileResolver,
};
const run = faces[face];
if (!run) {
  console.error(`usage: profile-face.ts <${Object.keys(faces).join('|')}> [ms]`);
  process.exit(2);
}
await run();
for (const close of closers) close();
