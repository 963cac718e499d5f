import type { AddressInfo } from 'node:net';
import { createServer as createNetServer, type Server } from 'node:net';
import {
  httpPbxControl,
  pbxNow,
  pbxState,
  renderFormat,
  resolveScenario,
  snapshotOf,
  start,
} from '../simulators/pbx/index.ts';
import { openEmbeddedTarget } from '../steps/support/embedded-target.ts';
import { FACE_GOALS, goalVerdict } from './face-goals.ts';
import { fmt } from './load.ts';
import { cpuPerRequestUs, LoadWorker, type WorkerLoadResult } from './load-worker.ts';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 2000);
const WARMUP_MS = 200;

/** A minimal node:net server that writes the same pre-rendered bytes at once: the ceiling. */
export async function ceilingServer(body: Buffer, http: boolean): Promise<{ server: Server; port: number }> {
  const head = Buffer.from(
    `HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
  );
  const server = createNetServer((socket) => {
    socket.on('error', () => {});
    if (!http) {
      socket.end(body);
      return;
    }
    socket.once('data', () => socket.end(Buffer.concat([head, body])));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Raw grace times measured: the default and a short one set through the control plane. */
const GRACES_MS = [150, 2] as const;

/**
 * Issue 2 §11: agent-text responses per second over raw TCP and HTTP at concurrency 1 and 32,
 * against the ceiling server in the same run, with a warm snapshot cache; the load comes from
 * another thread (bench/load-worker.ts), with the same settings for both sides. Raw mode is
 * measured with the default grace time and with a short one (`PATCH /state` on the control
 * plane). Then the render time of the `large` scenario. Prints figures; asserts nothing.
 */
export async function benchMonitoring(): Promise<void> {
  console.log('\n## Monitoring data endpoint (agent text, warm cache)');
  const sim = await start({ monitoringPort: 0, clock: { mode: 'frozen' } });
  const load = await LoadWorker.start();
  const servers: Server[] = [];
  try {
    const url = new URL(sim.urls.monitoring ?? 'tcp://0.0.0.0:0');
    const host = url.hostname;
    const port = Number(url.port);
    const snapshot = snapshotOf(pbxState(sim), pbxNow(sim));
    const body = renderFormat(snapshot, 'checkmk', { renderError: false, jsonError: false });
    const ceilingRaw = await ceilingServer(body, false);
    const ceilingHttp = await ceilingServer(body, true);
    servers.push(ceilingRaw.server, ceilingHttp.server);
    const httpRequest = `GET /checkmk HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
    console.log(`agent text ${fmt(body.length)} bytes; a fresh connection per request`);
    console.log(
      'mode  grace    conc  simulator/s   ceiling/s   ratio   grace bound/s   server CPU µs/req (sim / ceiling)',
    );
    const rows: { mode: 'raw' | 'http'; graceMs: number; request: string | null; ceilingPort: number }[] = [
      ...GRACES_MS.map((graceMs) => ({
        mode: 'raw' as const,
        graceMs,
        request: null,
        ceilingPort: ceilingRaw.port,
      })),
      { mode: 'http', graceMs: GRACES_MS[0], request: httpRequest, ceilingPort: ceilingHttp.port },
    ];
    for (const row of rows) {
      await setRawGrace(sim.urls.control, row.graceMs);
      for (const concurrency of [1, 32]) {
        const { sut, ceiling, ratio } = await load.compare(
          { kind: 'tcp', host, port, request: row.request },
          { kind: 'tcp', host: '127.0.0.1', port: row.ceilingPort, request: row.request },
          { concurrency, durationMs: DURATION_MS, warmupMs: WARMUP_MS },
        );
        // A silent raw client is answered when the grace time has passed: at most 1000/grace per connection.
        const bound = row.mode === 'raw' ? fmt((concurrency * 1000) / row.graceMs) : '-';
        const grace = row.mode === 'raw' ? `${row.graceMs} ms` : '-';
        console.log(
          `${row.mode.padEnd(5)} ${grace.padEnd(7)} ${String(concurrency).padStart(4)}  ${fmt(sut.perSecond).padStart(11)} ${fmt(ceiling.perSecond).padStart(11)}   ${fmt(ratio, 2).padStart(5)}   ${bound.padStart(13)}   ${cpuPair(sut, ceiling)}${row.mode === 'http' ? `   ${goalVerdict(ratio, FACE_GOALS.dataHttp, sut.errors)}` : ''}${sut.errors ? `  (${sut.errors} errors: ${sut.firstError})` : ''}`,
        );
      }
    }
    console.log(
      'raw: by design a client that sends nothing is answered only after the grace time (MON-UNSPEC-RAW-DETECTION), so one connection completes at most 1000/grace requests per second; the ceiling answers at once.',
    );
  } finally {
    await load.close();
    for (const server of servers) server.close();
    await sim.close();
  }

  const now = Date.now();
  const large = resolveScenario('large', now);
  large.os.linuxSectionsSource = 'synthetic';
  const rounds = 20;
  const formats = ['checkmk', 'xml', 'json'] as const;
  console.log(
    `\nrender time of the 'large' scenario (${large.peers.length} peers, ${large.modules.length} modules, ${large.backups.length} backups), mean of ${rounds}:`,
  );
  for (const format of formats) {
    let total = 0;
    let bytes = 0;
    for (let i = 0; i < rounds; i++) {
      // A fresh snapshot each round, as after the cache's lifetime: nothing rendered is memoised.
      const snapshot = snapshotOf(large, now);
      const t0 = performance.now();
      bytes = renderFormat(snapshot, format, { renderError: false, jsonError: false }).length;
      total += performance.now() - t0;
    }
    console.log(`  ${format.padEnd(8)} ${fmt(total / rounds, 2)} ms  (${fmt(bytes)} bytes)`);
  }
  await benchEmbeddedStart();
}

/**
 * What each scenario of `npm run conformance` pays for its fresh embedded target (issue 2: aim for
 * under 20 ms): `openEmbeddedTarget()` (every listener on an ephemeral port) and `close()`.
 */
async function benchEmbeddedStart(): Promise<void> {
  const rounds = 50;
  const starts: number[] = [];
  const closes: number[] = [];
  for (let i = 0; i < rounds + 5; i++) {
    const t0 = performance.now();
    const opened = await openEmbeddedTarget();
    const t1 = performance.now();
    await opened.close();
    if (i < 5) continue; // warm-up
    starts.push(t1 - t0);
    closes.push(performance.now() - t1);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  console.log(
    `
embedded target per scenario, median of ${rounds}: start ${fmt(median(starts), 2)} ms, close ${fmt(median(closes), 2)} ms`,
  );
}

/** Sets `monitoring.rawGraceMs` through the control plane over HTTP, as a test run would. */
async function setRawGrace(controlUrl: string, graceMs: number): Promise<void> {
  await httpPbxControl(controlUrl).patchState({ monitoring: { rawGraceMs: graceMs } });
}

/** `62.1 / 35.4`: the server thread's CPU per request of both sides. */
function cpuPair(sut: WorkerLoadResult, ceiling: WorkerLoadResult): string {
  const us = (result: WorkerLoadResult) => {
    const perRequest = cpuPerRequestUs(result, 'server');
    return perRequest === null ? 'n/a' : fmt(perRequest, 1);
  };
  return `${us(sut)} / ${us(ceiling)}`;
}
