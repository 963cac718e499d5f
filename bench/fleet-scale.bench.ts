import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { createInterface, type Interface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { request } from 'undici';
import {
  addressAt,
  descriptorsNeeded,
  FDS_PER_SHARD_PBX,
  FLEET_SECRET_ENV,
  largestFleetUnder,
  parseAddressPool,
  probeBind,
  readOpenFileLimit,
} from '../simulators/fleet/index.ts';
import { cpuProfDir, wholeNumbers } from './bench-usage.ts';
import { fmt } from './load.ts';
import { spreadPollOrder } from './poll-order.ts';

/** `npm run bench -- fleet-scale --pbx-count N`: that one size alone (issue 31 §4: 100,000). */
const PBX_COUNT = optionValue('--pbx-count');
/** Fleet sizes measured, smallest first (BENCH_FLEET_SCALE_COUNTS=100,1000 to shorten). */
const COUNTS =
  PBX_COUNT === undefined
    ? (process.env.BENCH_FLEET_SCALE_COUNTS ?? '100,1000,10000').split(',').map(Number)
    : [Number(PBX_COUNT)];
/**
 * Shards run `--activity field` (a running clock, the field's events and changes) with
 * `--pbx-count` or `--activity field`: the events end to end are then measured beside that load.
 */
const FIELD_ACTIVITY = PBX_COUNT !== undefined || optionValue('--activity') === 'field';
/** Sizes also measured as a controller with shards (BENCH_FLEET_SCALE_SHARDED=1000); a size that does not fit in one process always is. */
const SHARDED = (process.env.BENCH_FLEET_SCALE_SHARDED ?? '').split(',').filter(Boolean).map(Number);
/** How long the Checkmk-like poller runs per size. */
const POLL_WINDOW_MS = Number(process.env.BENCH_FLEET_SCALE_WINDOW_MS ?? 15_000);
/**
 * The poller fetches every PBX once per this period, spread evenly (Checkmk's default check
 * interval), in a fixed shuffled order (`spreadPollOrder`).
 */
const POLL_PERIOD_MS = 60_000;
const SITES_POLL_EVERY_MS = 250;
/** Data-endpoint fetches the poller keeps open at most; a tick beyond it counts as failed. */
const MAX_FETCHES_IN_FLIGHT = 4_096;
/** Wait after every link is up before anything is measured (BENCH_FLEET_SCALE_SETTLE_MS). */
const SETTLE_MS =
  process.env.BENCH_FLEET_SCALE_SETTLE_MS === undefined
    ? undefined
    : Number(process.env.BENCH_FLEET_SCALE_SETTLE_MS);
const MCP_EVERY_MS = 3_000;
const AUTH = `Basic ${Buffer.from('anna.admin@nordlicht.example:Nordlicht-Demo-1').toString('base64')}`;
const MCP_TOKEN = 'demo-anna-read-write-7Qk2LxV9mB4nT8wZ';
/**
 * `BENCH_FLEET_SCALE_CPU_PROF=DIR`: the controller (or the whole fleet's process) and shard 1 run
 * with `--cpu-prof` into DIR; the bench prints the monotonic µs at which each phase began, the
 * `[from] [to]` of `bench/profile-summary.ts`.
 */
const CPU_PROF_DIR = process.env.BENCH_FLEET_SCALE_CPU_PROF || undefined;
/** Prints where a phase begins on the monotonic clock, as `--cpu-prof` timestamps are (profiling only). */
function phase(name: string): void {
  if (CPU_PROF_DIR) console.log(`  phase ${name} from ${process.hrtime.bigint() / 1000n} µs`);
}
/** The controller and the shards of a sharded fleet derive the ingest keys from it. */
const BENCH_SECRET = 'fleet-scale-bench-only-secret-never-deployed';

/** The counts and durations this bench reads, checked before a fleet starts (one line, exit 2). */
function checkNumbers(): void {
  const env = process.env;
  if (process.argv.includes('--pbx-count')) {
    const value = PBX_COUNT === undefined || PBX_COUNT.startsWith('--') ? undefined : PBX_COUNT;
    wholeNumbers(value ?? '', '--pbx-count', { min: 1 });
  }
  wholeNumbers(env.BENCH_FLEET_SCALE_COUNTS, 'BENCH_FLEET_SCALE_COUNTS', { min: 1, list: true });
  if (env.BENCH_FLEET_SCALE_SHARDED)
    wholeNumbers(env.BENCH_FLEET_SCALE_SHARDED, 'BENCH_FLEET_SCALE_SHARDED', { min: 1, list: true });
  wholeNumbers(env.BENCH_FLEET_SCALE_WINDOW_MS, 'BENCH_FLEET_SCALE_WINDOW_MS', { min: 1 });
  wholeNumbers(env.BENCH_FLEET_SCALE_SETTLE_MS, 'BENCH_FLEET_SCALE_SETTLE_MS', { min: 0 });
}

function optionValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

/** The controller of a sharded fleet with every link up (issue 31 §4: what it keeps per site). */
interface ControllerFigures {
  /** RSS with the code loaded and nothing started, with the N sites registered, with every link up. */
  rssEmpty: number;
  rssSites: number;
  rssLinked: number;
  heapEmpty: number;
  heapLinked: number;
  /** TCP connections at its ingest listener (one per shard). */
  tcpConnections: number;
}

interface Ready {
  count: number;
  controller?: ControllerFigures;
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
    readonly first: Record<string, unknown>,
  ) {}

  static async start(argv: string[], wrap: string[], profile = false): Promise<FleetChild> {
    const [command, ...args] = [
      ...wrap,
      process.execPath,
      '--expose-gc',
      ...(profile && CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : []),
      '--import',
      'tsx',
      'bench/fleet-scale-child.ts',
      ...argv,
    ];
    const child = spawn(command!, args, {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, [FLEET_SECRET_ENV]: BENCH_SECRET },
    });
    const reader: Interface = createInterface({ input: child.stdout! });
    const lines = reader[Symbol.asyncIterator]();
    const first = await lines.next();
    if (first.done) throw new Error('the fleet process ended before it was up');
    return new FleetChild(child, lines, JSON.parse(first.value) as Record<string, unknown>);
  }

  get ready(): Ready {
    return this.first as unknown as Ready;
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

/**
 * A fleet under measurement, in one process or as a controller with shards: what the poller,
 * the `/sites` and MCP clients need, CPU over all its processes, and events end to end.
 */
interface FleetUnderTest {
  /** How the fleet runs, for the heading. */
  layout: string;
  ready: Ready;
  cpuMark(): Promise<void>;
  /** CPU ms over every process of the fleet since `cpuMark`. */
  cpuRead(): Promise<number>;
  events(pbxs: number, perPbx: number): Promise<Row['events']>;
  close(): Promise<void>;
}

/** N PBXs beside their controller in one process (`simulate --pbx-count N`). */
async function wholeFleet(count: number, pool: string, wrap: string[]): Promise<FleetUnderTest> {
  const fleet = await FleetChild.start(['whole', String(count), pool, '6556', '8080'], wrap, true);
  return {
    layout: 'one process',
    ready: fleet.ready,
    cpuMark: () => fleet.ask({ op: 'cpu-mark' }).then(() => {}),
    cpuRead: () => fleet.ask<{ cpuMs: number }>({ op: 'cpu-read' }).then((r) => r.cpuMs),
    events: (pbxs, perPbx) => fleet.ask<Row['events']>({ op: 'events', pbxs, perPbx }),
    close: () => fleet.close(),
  };
}

/**
 * N PBXs as `simulate --fleet-only` plus `shards` processes of `simulate --shard i/K`, linked over
 * TCP: each process under its own open-file limit. Start: from the shards' `start` until the
 * controller has every link. RSS: what every process gained from its PBXs or links.
 */
async function shardedFleet(count: number, pool: string, shards: number): Promise<FleetUnderTest> {
  const controller = await FleetChild.start(['controller', String(count), pool, '6556', '8080'], [], true);
  const ingest = String(controller.first['ingest']);
  const started: FleetChild[] = [];
  try {
    for (let i = 1; i <= shards; i++)
      started.push(
        await FleetChild.start(
          ['shard', `${i}/${shards}`, String(count), pool, '6556', '8080', ingest],
          [],
          i === 1,
        ),
      );
    phase('start');
    const rssBefore =
      Number(controller.first['rss']) + started.reduce((n, shard) => n + Number(shard.first['rss']), 0);
    const t0 = performance.now();
    const ups = await Promise.all(
      started.map((shard) =>
        shard.ask<{ listeningMs: number; upMs: number; startCpuMs: number; rss: number }>({
          op: 'start',
          activity: FIELD_ACTIVITY,
        }),
      ),
    );
    const links = await controller.ask<{ rss: number; heapUsed: number; tcpConnections: number }>({
      op: 'wait-links',
    });
    const linksUpMs = performance.now() - t0;
    const base = await controller.ask<Omit<Ready, 'count'>>({ op: 'baselines' });
    const all = [controller, ...started];
    return {
      layout: `a controller and ${shards} shard processes (simulate --fleet-only, --shard i/${shards}), each shard's PBXs over one multiplexed TCP connection${FIELD_ACTIVITY ? ', --activity field' : ''}`,
      ready: {
        ...base,
        count,
        listeningMs: Math.max(...ups.map((u) => u.listeningMs)),
        linksUpMs,
        startCpuMs: ups.reduce((n, u) => n + u.startCpuMs, 0),
        rssController: rssBefore,
        rssFleet: links.rss + ups.reduce((n, u) => n + u.rss, 0),
        controller: {
          rssEmpty: Number(controller.first['rssEmpty']),
          rssSites: Number(controller.first['rss']),
          rssLinked: links.rss,
          heapEmpty: Number(controller.first['heapEmpty']),
          heapLinked: links.heapUsed,
          tcpConnections: links.tcpConnections,
        },
        gc: Boolean(controller.first['gc']),
      },
      async cpuMark() {
        await Promise.all(all.map((p) => p.ask({ op: 'cpu-mark' })));
      },
      async cpuRead() {
        const used = await Promise.all(all.map((p) => p.ask<{ cpuMs: number }>({ op: 'cpu-read' })));
        return used.reduce((n, u) => n + u.cpuMs, 0);
      },
      async events(pbxs, perPbx) {
        await Promise.all(all.map((p) => p.ask({ op: 'cpu-mark' })));
        await controller.ask({ op: 'accepted-mark' });
        const e0 = performance.now();
        const each = Math.ceil(pbxs / shards);
        const raised = (
          await Promise.all(
            started.map((shard) => shard.ask<{ raised: number }>({ op: 'raise', pbxs: each, perPbx })),
          )
        ).reduce((n, r) => n + r.raised, 0);
        const done = await controller.ask<{ accepted: number }>({ op: 'wait-accepted', target: raised });
        const ms = performance.now() - e0;
        const used = await Promise.all(all.map((p) => p.ask<{ cpuMs: number }>({ op: 'cpu-read' })));
        return { raised, accepted: done.accepted, ms, cpuMs: used.reduce((n, u) => n + u.cpuMs, 0) };
      },
      async close() {
        await Promise.all(started.map((shard) => shard.close()));
        await controller.close();
      },
    };
  } catch (error) {
    await Promise.all(started.map((shard) => shard.close()));
    await controller.close();
    throw error;
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

/** A GET of `/sites`; a failed one (a reset on a saturated machine) counts as infinitely slow. */
async function timedGet(
  url: string,
  etag?: string,
): Promise<{ ms: number; status: number; bytes: number; etag?: string }> {
  const t0 = performance.now();
  try {
    const answer = await request(url, {
      headers: { authorization: AUTH, ...(etag ? { 'if-none-match': etag } : {}) },
    });
    const body = await answer.body.arrayBuffer();
    const tag = answer.headers['etag'];
    return {
      ms: performance.now() - t0,
      status: answer.statusCode,
      bytes: body.byteLength,
      ...(typeof tag === 'string' ? { etag: tag } : {}),
    };
  } catch {
    return { ms: Number.POSITIVE_INFINITY, status: 0, bytes: 0 };
  }
}

/**
 * A `/sites` poller as a real one polls: each GET carries the ETag of the last answer it had.
 * Under `--activity field` the list changes while it polls (new events on some site); such a
 * GET is a 200 with the whole list, timed apart from the 304s.
 */
class SitesPoller {
  readonly notModified: number[] = [];
  readonly changed: number[] = [];
  constructor(
    private readonly url: string,
    private etag: string,
  ) {}
  async poll(): Promise<void> {
    const r = await timedGet(this.url, this.etag);
    if (r.status === 200) {
      this.changed.push(r.ms);
      if (r.etag) this.etag = r.etag;
    } else this.notModified.push(r.ms);
  }
}

function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Whether a figure is within its budget (below it). */
const met = (value: number, budget: number) =>
  value < budget ? 'met' : `MISSED (${fmt(value / budget, 2)}× the budget)`;
/** Whether a rate reaches its budget (at least it). */
const metAtLeast = (value: number, budget: number) =>
  value >= budget ? 'met' : `MISSED (${fmt(value / budget, 2)} of the budget)`;
const ms = (v: number) => `${fmt(v, v < 10 ? 2 : 1)} ms`;
const pq = (values: number[]) => `${ms(quantile(values, 0.5))} / ${ms(quantile(values, 0.99))}`;

/**
 * A random loopback block whose first and last address take both ports: a /16, or a /14 for a
 * fleet (and its two bare servers) beyond a /16's 65,534 addresses.
 */
async function pickPool(count: number): Promise<string> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const spec =
      count + 2 <= 65_534
        ? `127.${130 + Math.floor(Math.random() * 120)}.0.0/16`
        : `127.${132 + 4 * Math.floor(Math.random() * 29)}.0.0/14`;
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
  layout: string;
  ready: Ready;
  pbxFetch: number[];
  bareFetch: number[];
  fetchCpuUs: number;
  /** Fleet CPU per fetch with only fetches asking (the idle share taken off). */
  fetchAloneCpuUs: number;
  idleCpuPerSec: number;
  /** Share of the poll window's CPU the idle fleet would have used anyway. */
  windowIdleShare: number;
  sites304: number[];
  /** GETs of the 304 loop answered 200: the list had changed since the poller's last answer. */
  sites304Changed: number[];
  bare304: number[];
  sites200: number[];
  bare200: number[];
  sites304UnderPoll: number[];
  sites304UnderPollChanged: number[];
  /** `fleet_attention` beside the poller, and alone (sequentially after the poll window). */
  mcp: number[];
  mcpAlone: number[];
  mcpSites: number[];
  events: { raised: number; accepted: number; ms: number; cpuMs: number };
}

/**
 * How `count` PBXs fit in one process here: `[]` (as they are), a `prlimit` wrapper that raises
 * the limit, or the one-line reason they do not fit (the hard limit only root raises).
 */
function oneProcessWrap(count: number): string[] | string {
  const need = descriptorsNeeded(count);
  const limit = readOpenFileLimit();
  if (!limit || limit.soft >= need) return [];
  const wrap = ['prlimit', `--nofile=${Math.max(need, limit.soft)}:${Math.max(need, limit.hard)}`];
  // Root without CAP_SYS_RESOURCE (a container) may not raise the hard limit either.
  if (limit.hard >= need || spawnSync(wrap[0]!, [wrap[1]!, 'true'], { stdio: 'ignore' }).status === 0)
    return wrap;
  return `the hard open-file limit ${limit.hard} is below the ${fmt(need)} descriptors ${fmt(count)} PBXs need in one process (2 each, plus 256) and cannot be raised here`;
}

/**
 * Shards of `count` PBXs such that each shard fits under this process's hard open-file limit. The
 * controller holds one multiplexed connection per shard (issue 31 §4), whatever the fleet's size.
 */
function shardsFor(count: number): number {
  const hard = readOpenFileLimit()?.hard ?? Number.POSITIVE_INFINITY;
  return Math.max(2, Math.ceil(count / largestFleetUnder(hard, FDS_PER_SHARD_PBX)));
}

async function measure(count: number, layout: 'whole' | 'sharded'): Promise<Row | string> {
  let fleet: FleetUnderTest;
  const pool = await pickPool(count);
  if (layout === 'whole') {
    const wrap = oneProcessWrap(count);
    if (typeof wrap === 'string') return wrap;
    fleet = await wholeFleet(count, pool, wrap);
  } else {
    const shards = shardsFor(count);
    fleet = await shardedFleet(count, pool, shards);
  }
  const { ready } = fleet;
  const poolParsed = parseAddressPool(pool);
  try {
    // Idle: what the fleet costs with nobody asking, after the start has settled (the shards'
    // last inventories and the GC after the start; 30 s beyond 10,000 PBXs, else 2 s).
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS ?? (count > 10_000 ? 30_000 : 2_000)));
    await fleet.cpuMark();
    phase('idle');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const idleCpuPerSec = (await fleet.cpuRead()) / 3;

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
    const underPoll = new SitesPoller(ready.sitesUrl, ready.etag);
    const mcpMs: number[] = [];
    /** Sites each `fleet_attention` answer listed (those needing attention). */
    const mcpSites: number[] = [];
    const pending: Promise<unknown>[] = [];
    const interval = POLL_PERIOD_MS / count;
    // Every PBX once per period, in a fixed shuffled order, as a monitoring server spreads its
    // hosts over the check interval: consecutive fetches land on every shard, not one at a time.
    const order = spreadPollOrder(count);
    await fleet.cpuMark();
    phase('poll');
    const t0 = performance.now();
    let tick = 0;
    let nextSites = t0;
    let nextMcp = t0 + 500;
    let sitesOut = false;
    let mcpOut = false;
    let fetches = 0;
    let inFlight = 0;
    while (performance.now() - t0 < POLL_WINDOW_MS) {
      const due = t0 + tick * interval;
      const now = performance.now();
      if (due > now) await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - now)));
      // Several ticks may be due at once when timers are coarser than the interval.
      while (t0 + tick * interval <= performance.now() && performance.now() - t0 < POLL_WINDOW_MS) {
        const index = order[tick % count]!;
        tick++;
        // A poller that is this far behind has a saturated machine to report, not more sockets to
        // open: a tick beyond the bound counts as a failed fetch (this process's descriptors too
        // are bounded by the hard open-file limit).
        if (inFlight >= MAX_FETCHES_IN_FLIGHT) {
          pbxFetch.push(Number.POSITIVE_INFINITY);
          continue;
        }
        inFlight++;
        pending.push(
          fetchTcp(addressAt(poolParsed, index), 6556)
            .then(
              (r) => pbxFetch.push(r.ms),
              () => pbxFetch.push(Number.POSITIVE_INFINITY),
            )
            .finally(() => inFlight--),
        );
        fetches++;
        if (tick % 4 === 1)
          pending.push(
            fetchTcp(ready.bareNet.host, ready.bareNet.port).then(
              (r) => bareFetch.push(r.ms),
              () => bareFetch.push(Number.POSITIVE_INFINITY),
            ),
          );
      }
      // The /sites client and the MCP client each wait for their answer before they ask again,
      // as a poller's check and an assistant's call do: a tick while one is out is skipped.
      if (performance.now() >= nextSites) {
        nextSites += SITES_POLL_EVERY_MS;
        if (!sitesOut) {
          sitesOut = true;
          pending.push(underPoll.poll().finally(() => (sitesOut = false)));
        }
      }
      if (performance.now() >= nextMcp) {
        nextMcp += MCP_EVERY_MS;
        const m0 = performance.now();
        if (!mcpOut) {
          mcpOut = true;
          pending.push(
            mcp
              .callTool({ name: 'fleet_attention', arguments: {} })
              .then(
                (result) => {
                  mcpMs.push(performance.now() - m0);
                  const listed = (result.structuredContent as { sites?: unknown[] } | undefined)?.sites;
                  mcpSites.push(listed?.length ?? 0);
                },
                () => mcpMs.push(Number.POSITIVE_INFINITY),
              )
              .finally(() => (mcpOut = false)),
          );
        }
      }
    }
    await Promise.all(pending);
    const windowCpuMs = await fleet.cpuRead();
    const windowSec = (performance.now() - t0) / 1000;
    const fetchCpuUs = (windowCpuMs * 1000) / Math.max(1, fetches);
    const windowIdleShare = (idleCpuPerSec * windowSec) / Math.max(1e-9, windowCpuMs);
    // fleet_attention alone, sequentially, as `/sites` below: what the controller takes for a
    // call, beside the fleet's own activity but not behind the poller's load on the machine.
    const mcpAlone: number[] = [];
    for (let i = 0; i < 10; i++) {
      const m0 = performance.now();
      await mcp.callTool({ name: 'fleet_attention', arguments: {} }).then(
        () => mcpAlone.push(performance.now() - m0),
        () => mcpAlone.push(Number.POSITIVE_INFINITY),
      );
    }
    await mcp.close();

    // /sites alone, sequentially: 304 with the ETag, 200 without; bare HTTP alike.
    const seq = async (n: number, f: () => Promise<{ ms: number }>) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await f()).ms);
      return out;
    };
    phase('sites');
    const poller = new SitesPoller(ready.sitesUrl, ready.etag);
    for (let i = 0; i < 300; i++) await poller.poll();
    const bare304 = await seq(300, () => timedGet(ready.bareHttp, ready.etag));
    const n200 = count >= 10_000 ? 20 : 60;
    const sites200 = await seq(n200, () => timedGet(ready.sitesUrl));
    const bare200 = await seq(n200, () => timedGet(ready.bareHttp));

    // The fetches alone: 1,000 PBXs in turn, 4 at a time, nothing else asking; the fleet's CPU
    // over them (less what the idle fleet uses meanwhile) per fetch.
    phase('fetches');
    const alone = Math.min(1_000, count);
    await fleet.cpuMark();
    const a0 = performance.now();
    let nextPbx = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (nextPbx < alone) await fetchTcp(addressAt(poolParsed, nextPbx++), 6556).catch(() => {});
      }),
    );
    const aloneCpuMs = (await fleet.cpuRead()) - idleCpuPerSec * ((performance.now() - a0) / 1000);
    const fetchAloneCpuUs = (aloneCpuMs * 1000) / alone;

    // Events end to end: 2 from each of up to 20,000 PBXs at once (a burst well above the field's rate).
    phase('events');
    const events = await fleet.events(Math.min(count, count > 10_000 ? 20_000 : 2_000), 2);
    phase('end');
    return {
      count,
      fetchAloneCpuUs,
      layout: fleet.layout,
      ready,
      pbxFetch,
      bareFetch,
      fetchCpuUs,
      idleCpuPerSec,
      windowIdleShare,
      sites304: poller.notModified,
      sites304Changed: poller.changed,
      bare304,
      sites200,
      bare200,
      sites304UnderPoll: underPoll.notModified,
      sites304UnderPollChanged: underPoll.changed,
      mcp: mcpMs,
      mcpAlone,
      mcpSites,
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
  // What it will write is checked before a fleet starts (a bad value: one line, exit 2).
  cpuProfDir(CPU_PROF_DIR, 'BENCH_FLEET_SCALE_CPU_PROF');
  checkNumbers();
  console.log('\n## Fleet at field scale (issue 22): pooled PBXs, one address each');
  console.log(
    `poll window ${fmt(POLL_WINDOW_MS / 1000)} s per size; every PBX fetched once per 60 s, spread evenly; ${cpus().length} cores, load average ${loadavg()
      .map((l) => fmt(l, 1))
      .join(' ')} at the start`,
  );
  // A size that does not fit in one process here is measured twice instead: the largest fleet that
  // fits in one process, and the size itself as a controller with shards.
  const runs: { count: number; layout: 'whole' | 'sharded' }[] = [];
  for (const count of COUNTS) {
    const wrap = oneProcessWrap(count);
    if (typeof wrap !== 'string') {
      runs.push({ count, layout: 'whole' });
      continue;
    }
    console.log(`N = ${fmt(count)} in one process: not measured: ${wrap}`);
    const largest = largestFleetUnder(readOpenFileLimit()?.hard ?? 0);
    if (largest > (runs.at(-1)?.count ?? 0)) runs.push({ count: largest, layout: 'whole' });
    runs.push({ count, layout: 'sharded' });
  }
  for (const count of SHARDED)
    if (!runs.some((run) => run.count === count && run.layout === 'sharded'))
      runs.push({ count, layout: 'sharded' });
  const measured: Row[] = [];
  if (PBX_COUNT !== undefined) {
    // One size, as it fits: in one process, else a controller with as many shards as it needs.
    runs.length = 0;
    const count = Number(PBX_COUNT);
    runs.push({ count, layout: typeof oneProcessWrap(count) === 'string' ? 'sharded' : 'whole' });
  }
  for (const { count, layout } of runs) {
    const result = await measure(count, layout);
    if (typeof result === 'string') {
      console.log(`N = ${fmt(count)} (${layout}): not measured: ${result}`);
      continue;
    }
    const r = result;
    const rssPerPbx = (r.ready.rssFleet - r.ready.rssController) / r.count / 1024;
    const smaller = measured.at(-1);
    measured.push(r);
    // Per PBX between two sizes of one layout: fixed costs (code, heap growth) cancel out.
    const slope =
      smaller && smaller.layout === r.layout
        ? `; ${fmt((r.ready.rssFleet - r.ready.rssController - (smaller.ready.rssFleet - smaller.ready.rssController)) / (r.count - smaller.count) / 1024, 1)} KiB per PBX from N = ${fmt(smaller.count)}`
        : '';
    const failed = r.pbxFetch.filter((v) => !Number.isFinite(v)).length;
    const startBudget = r.count > 10_000 ? 120 : 30;
    console.log(
      `\nN = ${fmt(r.count)}, ${r.layout}${r.ready.gc ? '' : ' (no --expose-gc: RSS figures include garbage)'}; load average ${loadavg()
        .map((l) => fmt(l, 1))
        .join(' ')} at the end`,
    );
    console.log(
      `  figure                                   measured                    bare baseline            budget`,
    );
    console.log(
      `  start until every ingest link is up      ${fmt(r.ready.linksUpMs / 1000, 2)} s (listening ${fmt(r.ready.listeningMs / 1000, 2)} s, ${fmt(r.ready.startCpuMs / 1000, 1)} s CPU)`.padEnd(
        100,
      ) + `< ${startBudget} s     ${met(r.ready.linksUpMs / 1000, startBudget)}`,
    );
    console.log(
      `  RSS per active PBX                       ${fmt(rssPerPbx, 1)} KiB (before the PBXs ${fmt(r.ready.rssController / 2 ** 20)} MiB, after ${fmt(r.ready.rssFleet / 2 ** 20)} MiB${slope})`.padEnd(
        100,
      ) + `≤ 64 KiB    ${rssPerPbx <= 64 ? 'met' : `MISSED (${fmt(rssPerPbx / 64, 2)}× the budget)`}`,
    );
    const c = r.ready.controller;
    if (c) {
      const perSite = (c.rssLinked - c.rssEmpty) / r.count;
      const heapPerSite = (c.heapLinked - c.heapEmpty) / r.count;
      console.log(
        `  controller RSS with every link up        ${fmt(c.rssLinked / 2 ** 20)} MiB (empty ${fmt(c.rssEmpty / 2 ** 20)} MiB, sites registered ${fmt(c.rssSites / 2 ** 20)} MiB)`.padEnd(
          100,
        ) + `< 1.5 GB    ${met(c.rssLinked / 1e9, 1.5)}`,
      );
      console.log(
        `  controller memory per site               ${fmt(perSite, 0)} B RSS, ${fmt(heapPerSite, 0)} B JS heap (from the empty process); ${fmt(c.tcpConnections)} ingest TCP connections`.padEnd(
          100,
        ) + 'printed',
      );
    }
    console.log(
      `  data-endpoint fetch p50 / p99            ${pq(r.pbxFetch.filter(Number.isFinite)).padEnd(28)}${pq(r.bareFetch).padEnd(25)}p99 < 50 ms  ${met(quantile(r.pbxFetch, 0.99), 50)}  (${fmt(r.pbxFetch.length)} fetches, ${failed} failed, ${fmt(r.ready.agentBytes)} bytes each)`,
    );
    console.log(
      `  /sites 304 p50 / p99 (sequential)        ${pq(r.sites304).padEnd(28)}${pq(r.bare304).padEnd(25)}p99 < 5 ms   ${met(quantile(r.sites304, 0.99), 5)}  (${r.sites304.length} of 300 GETs with the last ETag; ${r.sites304Changed.length} found the list changed: 200 in ${pq(r.sites304Changed)})`,
    );
    console.log(
      `  /sites 304 p50 / p99 (beside the poller) ${pq(r.sites304UnderPoll).padEnd(28)}${''.padEnd(25)}printed   (${r.sites304UnderPoll.length} 304s; ${r.sites304UnderPollChanged.length} found the list changed: 200 in ${pq(r.sites304UnderPollChanged)})`,
    );
    console.log(
      `  /sites 200 p50 / p99, body               ${`${pq(r.sites200)}, ${fmt(r.ready.sitesBytes)} B`.padEnd(28)}${pq(r.bare200).padEnd(25)}p50 < 100 ms ${met(quantile(r.sites200, 0.5), 100)}`,
    );
    console.log(
      `  fleet_attention p50 / p99 (sequential)   ${pq(r.mcpAlone).padEnd(28)}${'-'.padEnd(25)}p50 < 100 ms ${met(quantile(r.mcpAlone, 0.5), 100)}  (${r.mcpAlone.length} calls after the poll window)`,
    );
    console.log(
      `  fleet_attention p50 / p99 (beside poller)${pq(r.mcp).padEnd(28)}${'-'.padEnd(25)}printed   (${r.mcp.length} calls, ${fmt(Math.max(0, ...r.mcpSites))} sites needing attention at most)`,
    );
    const perSecond = r.events.accepted / (r.events.ms / 1000);
    console.log(
      `  events forwarded end to end              ${`${fmt(perSecond)} /s (${fmt(r.events.accepted)} of ${fmt(r.events.raised)})`.padEnd(28)}${'-'.padEnd(25)}≥ 20,000/s  ${metAtLeast(perSecond, 20_000)}`,
    );
    console.log(
      `  CPU per PBX-fetch (fetches alone)        ${`${fmt(r.fetchAloneCpuUs, 1)} µs`.padEnd(28)}${'-'.padEnd(25)}printed   (1,000 fetches 4 at a time, the idle fleet's CPU taken off)`,
    );
    console.log(
      `  CPU per PBX-fetch (poll window)          ${`${fmt(r.fetchCpuUs, 1)} µs`.padEnd(28)}${'-'.padEnd(25)}printed   (the window's CPU / fetches, /sites and MCP included; the idle fleet alone: ${fmt(r.idleCpuPerSec, 1)} ms CPU/s, ${fmt(r.windowIdleShare * 100)} % of it)`,
    );
    console.log(
      `  CPU per event                            ${`${fmt((r.events.cpuMs * 1000) / Math.max(1, r.events.accepted), 1)} µs`.padEnd(28)}${'-'.padEnd(25)}printed   (PBX, link and controller together)`,
    );
  }
}
