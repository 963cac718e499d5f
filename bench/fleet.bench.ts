import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import {
  type AddressInfo,
  connect,
  createServer as createNetServer,
  type Server as NetServer,
} from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { type FleetFixture, start } from '../simulators/fleet-controller/index.ts';
import { encodeLine, LineReader } from '../simulators/fleet-controller/ingest/ingest-protocol.ts';
import type { PbxInventory } from '../simulators/fleet-controller/model/types.ts';
import { fmt, runLoad } from './load.ts';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 1500);
const SITES = 1000;
const INGEST_CONNECTIONS = 10;
/** Event messages a connection keeps unacknowledged (the PBX forwarder sends without waiting). */
const INGEST_WINDOW = 64;
const T0 = 1_767_225_600_000;
const ACCOUNT = { email: 'bench@example.invalid', password: 'bench-password' };
const AUTH = `Basic ${Buffer.from(`${ACCOUNT.email}:${ACCOUNT.password}`).toString('base64')}`;

/**
 * Issue 4 §6: the fleet controller against bare servers in the same run. Prints figures; asserts
 * nothing.
 * - `GET /api/v1/sites` for one partner with 1,000 sites (findings from an inventory each, open
 *   items on every tenth), the 200 path without `If-None-Match` and the 304 path with it, at
 *   concurrency 1 and 32, against a bare node:http server answering the same body (200) or 304.
 *   The controller answers these from its cached rendering of the caller's list; the row `200*`
 *   renames a site before every request, so each one renders and hashes the list afresh.
 * - Event ingestion per second directly through the ingest protocol (TCP, JSON lines: hello, then
 *   `event` lines with a window of unacknowledged messages per connection, as the PBX forwarder
 *   sends them), from 10 connections (sites), into a controller in memory and one with a data
 *   directory (LMDB: one synchronous commit per batch of the lines read in one event-loop turn,
 *   the acks after it), against a bare TCP server that parses the same lines and acknowledges each.
 */
export async function benchFleet(): Promise<void> {
  console.log('\n## Fleet controller (interface B)');
  await benchSites();
  await benchIngest();
}

async function benchSites(): Promise<void> {
  const fleet = await start({ fixture: sitesFixture(), clock: { start: T0 } });
  const dispatcher = new Agent({ connections: 32, pipelining: 1 });
  try {
    for (let i = 0; i < SITES; i += 10) {
      const siteId = siteIdOf(i);
      await fleet.control.injectEvent(siteId, {
        module: 'Backup',
        subject: 'Sicherung fehlgeschlagen',
        severity: 'ERROR',
      });
      await fleet.control.injectEvent(siteId, {
        module: 'SIP',
        subject: 'Trunk nicht registriert',
        severity: 'WARNING',
        description: 'Provider antwortet nicht',
      });
    }
    const url = `${fleet.urls.api}/api/v1/sites`;
    const first = await request(url, { dispatcher, headers: { authorization: AUTH } });
    const body = await first.body.text();
    const etag = String(first.headers['etag']);
    const bare = await bareSitesServer(body, etag);
    const get = (target: string, ifNoneMatch: boolean, expected: number) => async () => {
      const headers: Record<string, string> = { authorization: AUTH };
      if (ifNoneMatch) headers['if-none-match'] = etag;
      const res = await request(target, { dispatcher, headers });
      await res.body.dump();
      if (res.statusCode !== expected) throw new Error(`status ${res.statusCode}`);
    };
    console.log(`GET /api/v1/sites, ${fmt(SITES)} sites, body ${fmt(Buffer.byteLength(body))} bytes`);
    console.log('path  conc  controller/s   bare http/s   ratio');
    let renames = 0;
    const changed = (task: () => Promise<void>) => async () => {
      // A change the list shows, so the cached rendering is outdated for the request that follows.
      fleet.internals.state.renameSite(siteIdOf(0), `Standort 0${renames++ % 2 === 0 ? ' ' : ''}`);
      await task();
    };
    // `200*` runs at concurrency 1 only: with more requests in flight several would share a rendering.
    for (const [path, conditional, status, afterChange, concurrencies] of [
      ['200', false, 200, false, [1, 32]],
      ['200*', false, 200, true, [1]],
      ['304', true, 304, false, [1, 32]],
    ] as const) {
      fleet.internals.state.renameSite(siteIdOf(0), 'Standort 0'); // the list `etag` was taken of
      for (const concurrency of concurrencies) {
        const sim = afterChange ? changed(get(url, conditional, status)) : get(url, conditional, status);
        await runLoad(sim, concurrency, 200); // warm-up
        const simulated = await runLoad(sim, concurrency, DURATION_MS);
        const ceil = await runLoad(get(bare.url, conditional, status), concurrency, DURATION_MS);
        console.log(
          `${path.padEnd(4)}  ${String(concurrency).padStart(4)}  ${fmt(simulated.perSecond).padStart(12)}  ${fmt(ceil.perSecond).padStart(12)}   ${fmt(simulated.perSecond / ceil.perSecond, 2)}${simulated.errors ? `  (${simulated.errors} errors)` : ''}`,
        );
      }
    }
    bare.server.close();
  } finally {
    await dispatcher.close();
    await fleet.close();
  }
}

async function benchIngest(): Promise<void> {
  const keys = Array.from({ length: INGEST_CONNECTIONS }, (_, i) => ({
    siteId: siteIdOf(i),
    key: `bench-key-${i}`,
  }));
  const fixture: FleetFixture = { ...sitesFixture(INGEST_CONNECTIONS), pbxs: keys };
  const dataDir = mkdtempSync(join(tmpdir(), 'fleet-bench-'));
  const bare = await bareIngestServer();
  try {
    const memory = await start({ fixture, clock: { start: T0 } });
    const inMemory = await ingestLoad(memory.urls.ingest, keys, DURATION_MS).finally(() => memory.close());
    const ceiling = await ingestLoad(bare.url, keys, DURATION_MS);
    const persisted = await start({ fixture, clock: { start: T0 }, dataDir });
    const onDisk = await ingestLoad(persisted.urls.ingest, keys, DURATION_MS).finally(() =>
      persisted.close(),
    );
    console.log(
      `\nevent ingestion through the ingest protocol, ${INGEST_CONNECTIONS} connections, window ${INGEST_WINDOW}`,
    );
    console.log('                      events/s   ratio to bare TCP');
    for (const [name, perSecond] of [
      ['controller, memory', inMemory],
      ['controller, --data', onDisk],
      ['bare TCP (JSON lines)', ceiling],
    ] as const) {
      console.log(`${name.padEnd(22)}${fmt(perSecond).padStart(9)}   ${fmt(perSecond / ceiling, 3)}`);
    }
  } finally {
    bare.server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function siteIdOf(i: number): string {
  return `site-${String(i).padStart(4, '0')}`;
}

/** One partner access owning `count` sites, each with an inventory; one account. */
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

/** Answers every request with the same body and ETag (200), or 304 when `If-None-Match` is sent. */
async function bareSitesServer(body: string, etag: string): Promise<{ server: Server; url: string }> {
  const bytes = Buffer.from(body);
  const server = createServer((req, res) => {
    req.resume();
    if (req.headers['if-none-match'] !== undefined) return res.writeHead(304, { etag }).end();
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', etag }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/sites` };
}

/** Reads the same JSON lines and acknowledges each event: the ceiling of the ingest listener. */
async function bareIngestServer(): Promise<{ server: NetServer; url: string }> {
  const server = createNetServer((socket) => {
    const reader = new LineReader();
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      let out = '';
      for (const line of reader.push(chunk)) {
        const message = JSON.parse(line) as { type: string; seq?: number };
        if (message.type === 'hello') out += encodeLine({ type: 'welcome', lastSeq: 0 });
        else if (message.type === 'event') out += encodeLine({ type: 'ack', seq: message.seq ?? 0 });
      }
      if (out) socket.write(out);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `tcp://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Acknowledged events per second over `pbxs.length` connections for `durationMs` of wall time. */
async function ingestLoad(
  ingest: string,
  pbxs: { siteId: string; key: string }[],
  durationMs: number,
): Promise<number> {
  const url = new URL(ingest);
  let acked = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    pbxs.map(
      ({ siteId, key }, n) =>
        new Promise<void>((resolve, reject) => {
          const socket = connect({ host: url.hostname, port: Number(url.port) });
          const reader = new LineReader();
          let seq = 0;
          let inFlight = 0;
          const send = () => {
            let out = '';
            while (inFlight < INGEST_WINDOW && performance.now() < deadline) {
              seq++;
              inFlight++;
              out += encodeLine({
                type: 'event',
                seq,
                event: { module: 'Bench', subject: `Meldung ${seq % 50}`, severity: 'WARNING', at: T0 + seq },
                suppressed: 0,
              });
            }
            if (out) socket.write(out);
            else if (inFlight === 0 || performance.now() >= deadline) finish();
          };
          const finish = () => {
            socket.destroy();
            resolve();
          };
          socket.setNoDelay(true);
          socket.on('error', reject);
          socket.on('connect', () => {
            socket.write(
              encodeLine({ type: 'hello', version: 1, siteId, key, stream: `bench-${n}-${started}` }),
            );
          });
          socket.on('data', (chunk: Buffer) => {
            for (const line of reader.push(chunk)) {
              const message = JSON.parse(line) as { type: string };
              if (message.type === 'ack') {
                inFlight--;
                if (performance.now() < deadline) acked++;
              } else if (message.type !== 'welcome') {
                return reject(new Error(`ingest answered ${line}`));
              }
            }
            if (performance.now() >= deadline) finish();
            else send();
          });
        }),
    ),
  );
  return acked / ((Math.min(performance.now(), deadline) - started) / 1000);
}
