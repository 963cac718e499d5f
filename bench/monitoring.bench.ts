import type { AddressInfo } from 'node:net';
import { createServer as createNetServer, type Server } from 'node:net';
import { start } from '../simulators/pbx/index.ts';
import { renderFormat } from '../simulators/pbx/monitoring/render/render-format.ts';
import { SnapshotCache } from '../simulators/pbx/monitoring/snapshot.ts';
import { resolveScenario } from '../simulators/pbx/state/scenarios.ts';
import { PbxStore } from '../simulators/pbx/state/store.ts';
import { VirtualClock } from '../simulators/shared/clock.ts';
import { exchange, fmt, runLoad } from './load.ts';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 2000);

/** A minimal node:net server that writes the same pre-rendered bytes at once: the ceiling. */
async function ceilingServer(body: Buffer, http: boolean): Promise<{ server: Server; port: number }> {
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

/**
 * Issue 2 §11: agent-text responses per second over raw TCP and HTTP at concurrency 1 and 32,
 * against the ceiling server in the same run, with a warm snapshot cache; and the render time of
 * the `large` scenario. Prints figures; asserts nothing.
 */
export async function benchMonitoring(): Promise<void> {
  console.log('\n## Monitoring data endpoint (agent text, warm cache)');
  for (const graceMs of [150, 2]) {
    const sim = await start({ monitoringPort: 0, clock: { mode: 'frozen' } });
    try {
      await sim.control.patchState({ monitoring: { rawGraceMs: graceMs } });
      const url = new URL(sim.urls.monitoring ?? 'tcp://0.0.0.0:0');
      const host = url.hostname;
      const port = Number(url.port);
      const body = renderFormat(sim.internals.cache.get(), 'checkmk', {
        renderError: false,
        jsonError: false,
      });
      const ceilingRaw = await ceilingServer(body, false);
      const ceilingHttp = await ceilingServer(body, true);
      const request = `GET /checkmk HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
      console.log(`raw grace ${graceMs} ms; agent text ${fmt(body.length)} bytes`);
      console.log('mode  conc  simulator/s   ceiling/s   ratio');
      for (const [mode, req, ceilingPort] of [
        ['raw', null, ceilingRaw.port],
        ['http', request, ceilingHttp.port],
      ] as const) {
        if (mode === 'http' && graceMs !== 150) continue;
        for (const concurrency of [1, 32]) {
          const sim1 = await runLoad(() => exchange(host, port, req), concurrency, DURATION_MS);
          const ceil = await runLoad(() => exchange('127.0.0.1', ceilingPort, req), concurrency, DURATION_MS);
          console.log(
            `${mode.padEnd(5)} ${String(concurrency).padStart(4)}  ${fmt(sim1.perSecond).padStart(11)} ${fmt(ceil.perSecond).padStart(11)}   ${fmt(sim1.perSecond / ceil.perSecond, 2)}${sim1.errors ? `  (${sim1.errors} errors)` : ''}`,
          );
        }
      }
      ceilingRaw.server.close();
      ceilingHttp.server.close();
    } finally {
      await sim.close();
    }
  }

  const clock = new VirtualClock();
  const large = resolveScenario('large', clock.now());
  large.os.linuxSectionsSource = 'synthetic';
  const rounds = 20;
  const formats = ['checkmk', 'xml', 'json'] as const;
  console.log(
    `\nrender time of the 'large' scenario (${large.peers.length} peers, ${large.modules.length} modules, ${large.backups.length} backups), mean of ${rounds}:`,
  );
  for (const format of formats) {
    const store = new PbxStore(clock, large);
    const cache = new SnapshotCache(store);
    let total = 0;
    let bytes = 0;
    for (let i = 0; i < rounds; i++) {
      cache.invalidate();
      const snapshot = cache.get();
      const t0 = performance.now();
      bytes = renderFormat(snapshot, format, { renderError: false, jsonError: false }).length;
      total += performance.now() - t0;
    }
    console.log(`  ${format.padEnd(8)} ${fmt(total / rounds, 2)} ms  (${fmt(bytes)} bytes)`);
  }
}
