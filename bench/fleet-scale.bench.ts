import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { createInterface, type Interface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { request } from 'undici';
import { addressAt, parseAddressPool } from '../src/fleet/address-pool.ts';
import { descriptorsNeeded, probeBind, readOpenFileLimit } from '../src/fleet/fleet-preflight.ts';
import { fmt } from './load.ts';

/** Fleet sizes measured, smallest first (BENCH_FLEET_SCALE_COUNTS=100,1000 to shorten). */
const COUNTS = (process.env.BENCH_FLEET_SCALE_COUNTS ?? '100,1000,10000').split(',').map(Number);
/** How long the Checkmk-like poller runs per size. */
const POLL_WINDOW_MS = Number(process.env.BENCH_FLEET_SCALE_WINDOW_MS ?? 15_000);
/** The poller fetches every PBX once per this period, spread evenly (Checkmk's default check interval). */
const POLL_PERIOD_MS = 60_000;
const SITES_POLL_EVERY_MS = 250;
const MCP_EVERY_MS = 3_000;
const AUTH = `Basic ${Buffer.from('anna.admin@nordlicht.example:Nordlicht-Demo-1').toString('base64')}`;
const MCP_TOKEN = 'demo-anna-read-write-7Qk2LxV9mB4nT8wZ';

interface Ready {
  count: number;
  listeningMs: number;
  linksUpMs: number;
  startCpuMs: number;
  rssController: number;
  rssFleet: number;
  gc: boolean;
  sitesUrl: string;
  etag: string;
  sitesBytes: number;
  agentBytes: number;
  mcpUrl: string;
  bareNet: { host: string; port: number };
  bareHttp: string;
}

class FleetChild {
  private constructor(
    private readonly child: ChildProcess,
    private readonly lines: AsyncIterator<string>,
    readonly ready: Ready,
  ) {}

  static async start(argv: string[], wrap: string[]): Promise<FleetChild> {
    const [command, ...args] = [
      ...wrap,
      process.execPath,
      '--expose-gc',
      '--import',
      'tsx',
      'bench/fleet-scale-child.ts',
      ...argv,
    ];
    const child = spawn(command!, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    const reader: Interface = createInterface({ input: child.stdout! });
    const lines = reader[Symbol.asyncIterator]();
    const first = await lines.next();
    if (first.done) throw new Error('the fleet process ended before it was up');
    return new FleetChild(child, lines, JSON.parse(first.value) as Ready);
  }

  async ask<T>(op: Record<string, unknown>): Promise<T> {
    this.child.stdin!.write(`${JSON.stringify(op)}\n`);
    const next = await this.lines.next();
    if (next.done) throw new Error('the fleet process ended');
    return JSON.parse(next.value) as T;
  }

  async close(): Promise<void> {
    await this.ask({ op: 'quit' }).catch(() => {});
    if (this.child.exitCode === null) await new Promise((resolve) => this.child.once('exit', resolve));
  }
}

function fetchTcp(host: string, port: number): Promise<{ ms: number; bytes: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    let bytes = 0;
    // Half-closed at once, as `nc -N` does: a client that only listens waits the data endpoint's
    // 150 ms raw-mode grace (MON-RAW-MODE) before the answer; this one gets it at once.
    const socket = connect({ host, port }, () => socket.end());
    socket.on('data', (chunk) => {
      bytes += chunk.length;
    });
    socket.on('end', () => resolve({ ms: performance.now() - t0, bytes }));
    socket.on('error', reject);
    socket.setTimeout(30_000, () => socket.destroy(new Error('timeout')));
  });
}

async function timedGet(url: string, etag?: string): Promise<{ ms: number; status: number; bytes: number }> {
  const t0 = performance.now();
  const answer = await request(url, {
    headers: { authorization: AUTH, ...(etag ? { 'if-none-match': etag } : {}) },
  });
  const body = await answer.body.arrayBuffer();
  return { ms: performance.now() - t0, status: answer.statusCode, bytes: body.byteLength };
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const ms = (v: number) => `${fmt(v, v < 10 ? 2 : 1)} ms`;
const pq = (values: number[]) => `${ms(quantile(values, 0.5))} / ${ms(quantile(values, 0.99))}`;

/** A random /16 loopback block whose first and last address take both ports. */
async function pickPool(count: number): Promise<string> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const spec = `127.${130 + Math.floor(Math.random() * 120)}.0.0/16`;
    const pool = parseAddressPool(spec);
    const ends = [addressAt(pool, 0), addressAt(pool, count + 1)];
    let free = true;
    for (const address of ends)
      for (const port of [6556, 8080]) free &&= (await probeBind(address, port)) === null;
    if (free) return spec;
  }
  throw new Error('no free loopback block');
}

interface Row {
  count: number;
  ready: Ready;
  pbxFetch: number[];
  bareFetch: number[];
  fetchCpuUs: number;
  idleCpuPerSec: number;
  /** Share of the poll window's CPU the idle fleet would have used anyway. */
  windowIdleShare: number;
  sites304: number[];
  bare304: number[];
  sites200: number[];
  bare200: number[];
  sites304UnderPoll: number[];
  mcp: number[];
  events: { raised: number; accepted: number; ms: number; cpuMs: number };
}

async function measure(count: number): Promise<Row | string> {
  const need = descriptorsNeeded(count) + 1024;
  const limit = readOpenFileLimit();
  let wrap: string[] = [];
  if (limit && limit.soft < need) {
    const root = process.getuid?.() === 0;
    if (limit.hard < need && !root)
      return `open-file hard limit ${limit.hard} < ${need} needed; run under \`ulimit -n ${need}\` (as root) to measure`;
    wrap = ['prlimit', `--nofile=${Math.max(need, limit.soft)}:${Math.max(need, limit.hard)}`];
    // Root without CAP_SYS_RESOURCE (a container) may not raise the hard limit either.
    if (spawnSync(wrap[0]!, [wrap[1]!, 'true'], { stdio: 'ignore' }).status !== 0)
      return `open-file limit ${limit.soft} (hard ${limit.hard}) < ${need} needed, and prlimit may not raise it here; run under \`ulimit -n ${need}\` to measure`;
  }
  const pool = await pickPool(count);
  const fleet = await FleetChild.start([String(count), pool, '6556', '8080'], wrap);
  const { ready } = fleet;
  const poolParsed = parseAddressPool(pool);
  try {
    // Idle: what the fleet costs with nobody asking (after a moment to settle).
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await fleet.ask({ op: 'cpu-mark' });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const idle = await fleet.ask<{ cpuMs: number }>({ op: 'cpu-read' });
    const idleCpuPerSec = idle.cpuMs / 3;

    // The Checkmk-like poller, every PBX once per 60 s spread evenly; beside it, every fourth tick,
    // the bare net server with the same bytes; a /sites client with If-None-Match; MCP now and then.
    const mcp = new Client({ name: 'fleet-scale-bench', version: '0.1.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(ready.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${MCP_TOKEN}` } },
      }),
    );
    const pbxFetch: number[] = [];
    const bareFetch: number[] = [];
    const sites304UnderPoll: number[] = [];
    const mcpMs: number[] = [];
    const pending: Promise<unknown>[] = [];
    const interval = POLL_PERIOD_MS / count;
    await fleet.ask({ op: 'cpu-mark' });
    const t0 = performance.now();
    let tick = 0;
    let nextSites = t0;
    let nextMcp = t0 + 500;
    let fetches = 0;
    while (performance.now() - t0 < POLL_WINDOW_MS) {
      const due = t0 + tick * interval;
      const now = performance.now();
      if (due > now) await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - now)));
      // Several ticks may be due at once when timers are coarser than the interval.
      while (t0 + tick * interval <= performance.now() && performance.now() - t0 < POLL_WINDOW_MS) {
        const index = tick % count;
        pending.push(
          fetchTcp(addressAt(poolParsed, index), 6556).then(
            (r) => pbxFetch.push(r.ms),
            () => pbxFetch.push(Number.POSITIVE_INFINITY),
          ),
        );
        fetches++;
        if (tick % 4 === 0)
          pending.push(fetchTcp(ready.bareNet.host, ready.bareNet.port).then((r) => bareFetch.push(r.ms)));
        tick++;
      }
      if (performance.now() >= nextSites) {
        nextSites += SITES_POLL_EVERY_MS;
        pending.push(timedGet(ready.sitesUrl, ready.etag).then((r) => sites304UnderPoll.push(r.ms)));
      }
      if (performance.now() >= nextMcp) {
        nextMcp += MCP_EVERY_MS;
        const m0 = performance.now();
        pending.push(
          mcp
            .callTool({ name: 'fleet_attention', arguments: {} })
            .then(() => mcpMs.push(performance.now() - m0)),
        );
      }
    }
    await Promise.all(pending);
    const windowCpu = await fleet.ask<{ cpuMs: number }>({ op: 'cpu-read' });
    const windowSec = (performance.now() - t0) / 1000;
    const fetchCpuUs = (windowCpu.cpuMs * 1000) / Math.max(1, fetches);
    const windowIdleShare = (idleCpuPerSec * windowSec) / Math.max(1e-9, windowCpu.cpuMs);
    await mcp.close();

    // /sites alone, sequentially: 304 with the ETag, 200 without; bare HTTP alike.
    const seq = async (n: number, f: () => Promise<{ ms: number }>) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await f()).ms);
      return out;
    };
    const sites304 = await seq(300, () => timedGet(ready.sitesUrl, ready.etag));
    const bare304 = await seq(300, () => timedGet(ready.bareHttp, ready.etag));
    const n200 = count >= 10_000 ? 20 : 60;
    const sites200 = await seq(n200, () => timedGet(ready.sitesUrl));
    const bare200 = await seq(n200, () => timedGet(ready.bareHttp));

    const events = await fleet.ask<Row['events']>({ op: 'events', pbxs: Math.min(count, 2_000), perPbx: 2 });
    return {
      count,
      ready,
      pbxFetch,
      bareFetch,
      fetchCpuUs,
      idleCpuPerSec,
      windowIdleShare,
      sites304,
      bare304,
      sites200,
      bare200,
      sites304UnderPoll,
      mcp: mcpMs,
      events,
    };
  } finally {
    await fleet.close();
  }
}

/**
 * Issue 22 §3: a pooled fleet at N = 100, 1,000 and 10,000 PBXs (one process each, the fleet in a
 * child so RSS and CPU are its own), each beside bare baselines in the same run: a bare net
 * server answering the data endpoint's bytes and a bare HTTP server serving the same `/sites`
 * body. A Checkmk-like poller fetches every PBX's data endpoint once per 60 s spread evenly while
 * a client polls `/api/v1/sites` with If-None-Match and an MCP client calls `fleet_attention` now
 * and then. Prints figures beside the issue's budgets; asserts nothing.
 */
export async function benchFleetScale(): Promise<void> {
  console.log('\n## Fleet at field scale (issue 22): pooled PBXs, one address each');
  console.log(
    `poll window ${fmt(POLL_WINDOW_MS / 1000)} s per size; every PBX fetched once per 60 s, spread evenly; ${cpus().length} cores, load average ${loadavg()
      .map((l) => fmt(l, 1))
      .join(' ')} at the start`,
  );
  const rows: Row[] = [];
  for (const count of COUNTS) {
    const result = await measure(count);
    if (typeof result === 'string') {
      console.log(`N = ${fmt(count)}: not measured: ${result}`);
      continue;
    }
    rows.push(result);
    const r = result;
    const rssPerPbx = (r.ready.rssFleet - r.ready.rssController) / r.count / 1024;
    const failed = r.pbxFetch.filter((v) => !Number.isFinite(v)).length;
    console.log(`\nN = ${fmt(r.count)}${r.ready.gc ? '' : ' (no --expose-gc: RSS figures include garbage)'}`);
    console.log(
      `  figure                                   measured                    bare baseline            budget`,
    );
    console.log(
      `  start until every ingest link is up      ${fmt(r.ready.linksUpMs / 1000, 2)} s (listening ${fmt(r.ready.listeningMs / 1000, 2)} s, ${fmt(r.ready.startCpuMs / 1000, 1)} s CPU)`.padEnd(
        100,
      ) + '< 30 s',
    );
    console.log(
      `  RSS per active PBX                       ${fmt(rssPerPbx, 1)} KiB (controller alone ${fmt(r.ready.rssController / 2 ** 20)} MiB, fleet ${fmt(r.ready.rssFleet / 2 ** 20)} MiB)`.padEnd(
        100,
      ) + '< 128 KiB',
    );
    console.log(
      `  data-endpoint fetch p50 / p99            ${pq(r.pbxFetch.filter(Number.isFinite)).padEnd(28)}${pq(r.bareFetch).padEnd(25)}p99 < 50 ms   (${fmt(r.pbxFetch.length)} fetches, ${failed} failed, ${fmt(r.ready.agentBytes)} bytes each)`,
    );
    console.log(
      `  /sites 304 p50 / p99 (sequential)        ${pq(r.sites304).padEnd(28)}${pq(r.bare304).padEnd(25)}p99 < 5 ms`,
    );
    console.log(
      `  /sites 304 p50 / p99 (beside the poller) ${pq(r.sites304UnderPoll).padEnd(28)}${''.padEnd(25)}printed`,
    );
    console.log(
      `  /sites 200 p50 / p99, body               ${`${pq(r.sites200)}, ${fmt(r.ready.sitesBytes)} B`.padEnd(28)}${pq(r.bare200).padEnd(25)}printed`,
    );
    console.log(
      `  fleet_attention p50 / p99                ${pq(r.mcp).padEnd(28)}${'-'.padEnd(25)}printed   (${r.mcp.length} calls)`,
    );
    const perSecond = r.events.accepted / (r.events.ms / 1000);
    console.log(
      `  events forwarded end to end              ${`${fmt(perSecond)} /s (${fmt(r.events.accepted)} of ${fmt(r.events.raised)})`.padEnd(28)}${'-'.padEnd(25)}printed`,
    );
    console.log(
      `  CPU per PBX-fetch                        ${`${fmt(r.fetchCpuUs, 1)} µs`.padEnd(28)}${'-'.padEnd(25)}printed   (the window's CPU / fetches, /sites and MCP included; the idle fleet alone: ${fmt(r.idleCpuPerSec, 1)} ms CPU/s, ${fmt(r.windowIdleShare * 100)} % of it)`,
    );
    console.log(
      `  CPU per event                            ${`${fmt((r.events.cpuMs * 1000) / Math.max(1, r.events.accepted), 1)} µs`.padEnd(28)}${'-'.padEnd(25)}printed   (PBX, link and controller together)`,
    );
  }
}
