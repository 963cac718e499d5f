import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Server as NetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FleetFixture, type FleetHandle, start } from '../simulators/fleet-controller/index.ts';
import type { PbxInventory } from '../simulators/shared/index.ts';
import { encodeLine, LineReader, parseLine } from '../simulators/shared/index.ts';
import { cpuLine } from './cpu-line.ts';
import { FACE_GOALS, goalVerdict } from './face-goals.ts';
import { bareAnswerServer, recordAnswer } from './http-load.ts';
import type { IngestTarget } from './ingest-load.ts';
import { fmt } from './load.ts';
import { type LoadTarget, LoadWorker, type WorkerLoadResult } from './load-worker.ts';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 1500);
const WARMUP_MS = 200;
const SITES = 1000;
const INGEST_CONNECTIONS = 10;
/** Event messages a connection keeps unacknowledged (the PBX forwarder sends without waiting). */
const INGEST_WINDOW = 64;
/** How often the `200*` rows change the list on the controller's thread. */
const CHANGE_EVERY_MS = 1;
const T0 = 1_767_225_600_000;
const ACCOUNT = { email: 'bench@example.invalid', password: 'bench-password' };
const AUTH = `Basic ${Buffer.from(`${ACCOUNT.email}:${ACCOUNT.password}`).toString('base64')}`;
/** The fixture's clock start and the account's credentials, for bench/profile-face.ts. */
export const FLEET_BENCH_T0 = T0;
export const FLEET_BENCH_AUTH = AUTH;

/**
 * Issue 4 §6: the fleet controller against bare servers in the same run, the load generated on
 * another thread (bench/load-worker.ts) with the same settings for both sides, each side after its
 * own warm-up and the two alternated. Prints figures; asserts nothing.
 * - `GET /api/v1/sites` for one partner with 1,000 sites (findings from an inventory each, open
 *   items on every tenth), the 200 path without `If-None-Match` and the 304 path with it, at
 *   concurrency 1 and 32, against a bare node:http server answering the same body (200) or 304.
 *   The controller answers these from its cached rendering of the caller's list.
 * - `200*`: the list changes while it is read. A change cannot come from the worker, so a timer
 *   on the controller's thread renames a site every `CHANGE_EVERY_MS` while the worker sends GETs
 *   with `If-None-Match` of the latest ETag it has seen; a 200 then means the list had changed
 *   and was rendered and hashed afresh (several 200s in flight may share one rendering: the
 *   distinct ETags count the renderings seen). Held against the bare server's 200 row.
 * - Event ingestion per second through the ingest protocol (TCP, JSON lines: hello, welcome, then
 *   `event` lines with a window of unacknowledged messages per connection, as the PBX forwarder
 *   sends them), from 10 connections (sites), into a controller in memory and one with a data
 *   directory (LMDB: one synchronous commit per batch of the lines read in one event-loop turn,
 *   the acks after it), each against a bare TCP server that parses the same lines and
 *   acknowledges each.
 */
export async function benchFleet(): Promise<void> {
  console.log('\n## Fleet controller (interface B)');
  const load = await LoadWorker.start();
  try {
    await benchSites(load);
    await benchIngest(load);
  } finally {
    await load.close();
  }
}

async function benchSites(load: LoadWorker): Promise<void> {
  const fleet = await start({ fixture: sitesFixture(), clock: { start: T0 } });
  let bare: BareSites | undefined;
  try {
    await injectBenchItems(fleet);
    const url = `${fleet.urls.api}/api/v1/sites`;
    bare = await bareSitesServer(url, AUTH);
    const { etag, bodyBytes } = bare;
    const get = (target: string, conditional: boolean): LoadTarget => ({
      kind: 'http',
      url: target,
      headers: { authorization: AUTH, ...(conditional ? { 'if-none-match': etag } : {}) },
      expectStatus: conditional ? 304 : 200,
    });
    console.log(
      `GET /api/v1/sites, ${fmt(SITES)} sites, body ${fmt(bodyBytes)} bytes; client on its own thread; the bare server sends the controller's recorded answers`,
    );
    console.log('path  conc  controller/s   bare http/s   ratio');
    const cpu: string[] = [];
    const bare200 = new Map<number, number>();
    for (const [path, conditional] of [
      ['200', false],
      ['304', true],
    ] as const) {
      for (const concurrency of [1, 32]) {
        const { sut, ceiling, ratio } = await load.compare(
          get(url, conditional),
          get(bare.url, conditional),
          {
            concurrency,
            durationMs: DURATION_MS,
            warmupMs: WARMUP_MS,
          },
        );
        if (!conditional) bare200.set(concurrency, ceiling.perSecond);
        console.log(
          `${path.padEnd(4)}  ${String(concurrency).padStart(4)}  ${fmt(sut.perSecond).padStart(12)}  ${fmt(ceiling.perSecond).padStart(12)}   ${fmt(ratio, 2)}   ${goalVerdict(ratio, FACE_GOALS.sites, sut.errors)}${errorNote(sut)}`,
        );
        cpu.push(
          `  ${path} c${concurrency}: ${cpuLine('controller', sut)}`,
          `  ${path} c${concurrency}: ${cpuLine('bare http', ceiling)}`,
        );
      }
    }
    console.log(
      `\n200*: the list changes on the controller's thread every ${CHANGE_EVERY_MS} ms (a site renamed) while the worker revalidates with the latest ETag`,
    );
    console.log('conc  reads/s   200 share   renderings seen/s   changes/s   ratio to bare 200');
    for (const concurrency of [1, 32]) {
      const { result, changesPerSecond } = await whileChanging(fleet, () =>
        load.run({
          target: { kind: 'http-revalidate', url, headers: { authorization: AUTH } },
          concurrency,
          durationMs: DURATION_MS,
          warmupMs: WARMUP_MS,
        }),
      );
      const ceiling = bare200.get(concurrency) ?? Number.NaN;
      console.log(
        `${String(concurrency).padStart(4)}  ${fmt(result.perSecond).padStart(7)}   ${fmt((result.modified ?? 0) / result.requests, 2).padStart(9)}   ${fmt((result.versions ?? 0) / result.seconds).padStart(17)}   ${fmt(changesPerSecond).padStart(9)}   ${fmt(result.perSecond / ceiling, 2).padStart(17)}${errorNote(result)}`,
      );
      cpu.push(`  200* c${concurrency}: ${cpuLine('controller', result)}`);
    }
    console.log(
      '\nCPU per request (server: the thread of the controller and the bare servers; client: the load worker)',
    );
    console.log(cpu.join('\n'));
  } finally {
    bare?.server.close();
    await fleet.close();
  }
}

/** Open items on every tenth site: an error and a warning with a description. */
export async function injectBenchItems(fleet: FleetHandle): Promise<void> {
  for (let i = 0; i < SITES; i += 10) {
    const siteId = siteIdOf(i);
    await fleet.control.injectEvent({
      siteId,
      module: 'Backup',
      subject: 'Sicherung fehlgeschlagen',
      severity: 'ERROR',
    });
    await fleet.control.injectEvent({
      siteId,
      module: 'SIP',
      subject: 'Trunk nicht registriert',
      severity: 'WARNING',
      description: 'Provider antwortet nicht',
    });
  }
}

/** Runs `measure` while a timer renames a site every `CHANGE_EVERY_MS`; changes per second of wall time. */
async function whileChanging(
  fleet: FleetHandle,
  measure: () => Promise<WorkerLoadResult>,
): Promise<{ result: WorkerLoadResult; changesPerSecond: number }> {
  let changes = 0;
  let failure: unknown;
  const started = performance.now();
  const timer = setInterval(() => {
    // A fresh name each time, so no two renderings share an ETag.
    fleet.control
      .renameSite({ siteId: siteIdOf(0), displayName: `Standort 0 (${++changes})` })
      .catch((error: unknown) => {
        failure ??= error;
      });
  }, CHANGE_EVERY_MS);
  try {
    const result = await measure();
    if (failure !== undefined) throw failure;
    return { result, changesPerSecond: changes / ((performance.now() - started) / 1000) };
  } finally {
    clearInterval(timer);
  }
}

/** The ingest bench's PBXs: one site and key per connection. */
export function benchIngestKeys(): { siteId: string; key: string }[] {
  return Array.from({ length: INGEST_CONNECTIONS }, (_, i) => ({
    siteId: siteIdOf(i),
    key: `bench-key-${i}`,
  }));
}

async function benchIngest(load: LoadWorker): Promise<void> {
  const keys = benchIngestKeys();
  const fixture: FleetFixture = { ...sitesFixture(INGEST_CONNECTIONS), pbxs: keys };
  const dataDir = mkdtempSync(join(tmpdir(), 'fleet-bench-'));
  const bare = await bareIngestServer();
  const ingest = (listener: string): IngestTarget => {
    const { hostname, port } = new URL(listener);
    return { kind: 'ingest', host: hostname, port: Number(port), pbxs: keys, window: INGEST_WINDOW, at: T0 };
  };
  const settings = { concurrency: INGEST_CONNECTIONS, durationMs: DURATION_MS, warmupMs: WARMUP_MS };
  const rows: [string, WorkerLoadResult, WorkerLoadResult][] = [];
  try {
    for (const [name, dir] of [
      ['controller, memory', undefined],
      ['controller, --data', dataDir],
    ] as const) {
      const fleet = await start({ fixture, clock: { start: T0 }, ...(dir ? { dataDir: dir } : {}) });
      try {
        const { sut, ceiling } = await load.compare(ingest(fleet.urls.ingest), ingest(bare.url), settings);
        rows.push([name, sut, ceiling]);
      } finally {
        await fleet.close();
      }
    }
  } finally {
    bare.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    `\nevent ingestion through the ingest protocol, ${INGEST_CONNECTIONS} connections, window ${INGEST_WINDOW}; client on its own thread`,
  );
  console.log('                      events/s   bare TCP events/s   ratio');
  for (const [name, sut, ceiling] of rows) {
    console.log(
      `${name.padEnd(20)}${fmt(sut.perSecond).padStart(10)}   ${fmt(ceiling.perSecond).padStart(17)}   ${fmt(sut.perSecond / ceiling.perSecond, 3)}   ${goalVerdict(sut.perSecond / ceiling.perSecond, name.endsWith('--data') ? FACE_GOALS.ingestData : FACE_GOALS.ingestMemory, sut.errors)}${errorNote(sut)}${errorNote(ceiling)}`,
    );
  }
  for (const [name, sut, ceiling] of rows) {
    console.log(`  ${name}: ${cpuLine('controller', sut)}\n  ${name}: ${cpuLine('bare TCP', ceiling)}`);
  }
}

function errorNote(result: WorkerLoadResult): string {
  return result.errors ? `  (${result.errors} errors: ${result.firstError})` : '';
}

function siteIdOf(i: number): string {
  return `site-${String(i).padStart(4, '0')}`;
}

/** One partner access owning `count` sites, each with an inventory; one account. */
export function benchFleetFixture(count = SITES): FleetFixture {
  return sitesFixture(count);
}

function sitesFixture(count = SITES): FleetFixture {
  const sites = Array.from({ length: count }, (_, i) => ({ id: siteIdOf(i), displayName: `Standort ${i}` }));
  const inventory: PbxInventory = {
    at: T0,
    pbxVersion: '7.1.3',
    updateKind: 'none',
    sipProviders: [{ uri: 'sip:provider.example', registered: true }],
    backups: [
      {
        target: 'nas',
        lastRun: { time: T0 - 3_600_000, result: 'backup.successful' },
        lastSuccessAt: T0 - 3_600_000,
      },
    ],
    modules: [{ name: 'Voicemail', id: 'vm', worstStatus: 0 }],
  };
  return {
    partners: [{ id: 'p-bench', name: 'Bench' }],
    sites,
    rights: sites.map((s) => ({ partnerId: 'p-bench', siteId: s.id, kind: 'own' as const })),
    accounts: [{ id: 'acc-bench', name: 'Bench', role: 'Admin', partnerId: 'p-bench', ...ACCOUNT }],
    tokens: [],
    inventories: Object.fromEntries(sites.map((s) => [s.id, inventory])),
  };
}

/** The `/sites` row's bare server, with the ETag and body size of the answer it repeats. */
export interface BareSites {
  server: Server;
  url: string;
  etag: string;
  bodyBytes: number;
}

/**
 * The `/sites` row's bare server: the controller's own 200 and 304 answers to `url` (the sites
 * list), recorded and sent again byte for byte — the 304 when `If-None-Match` is sent, else the
 * 200 — so the load worker parses the same heads and reads the same `Content-Length` body from
 * both sides (issue 31 §3: before, the bare 200 left out `Cache-Control`, `Vary` and
 * `Content-Length` and went out chunked, and its 304 left out two fields).
 */
export async function bareSitesServer(url: string, authorization: string): Promise<BareSites> {
  const ok = await recordAnswer(url, { headers: { authorization } });
  const etagAt = ok.headers.indexOf('etag');
  if (ok.status !== 200 || etagAt === -1) throw new Error(`GET ${url} answered ${ok.status} without an ETag`);
  const etag = ok.headers[etagAt + 1]!;
  const notModified = await recordAnswer(url, { headers: { authorization, 'if-none-match': etag } });
  if (notModified.status !== 304) throw new Error(`a conditional GET ${url} answered ${notModified.status}`);
  const bare = await bareAnswerServer(
    (req) => (req.headers['if-none-match'] === undefined ? ok : notModified),
    {
      readBody: false,
    },
  );
  return { ...bare, url: `${bare.url}/api/v1/sites`, etag, bodyBytes: ok.body.length };
}

/** Reads the same JSON lines and acknowledges each event: the ceiling of the ingest listener. */
async function bareIngestServer(): Promise<{ server: NetServer; url: string }> {
  const server = createNetServer((socket) => {
    const reader = new LineReader();
    socket.setNoDelay(true);
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      let out = '';
      try {
        for (const line of reader.push(chunk)) {
          const message = parseLine(line);
          if (message?.type === 'hello') out += encodeLine({ type: 'welcome', lastSeq: 0 });
          else if (message?.type === 'event') {
            out += encodeLine({ type: 'ack', seq: Number(message['seq'] ?? 0) });
          }
        }
      } catch {
        return socket.destroy();
      }
      if (out) socket.write(out);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `tcp://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
