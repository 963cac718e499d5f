import { Agent, request } from 'undici';
import { resolveCaller, start } from '../simulators/pbx/index.ts';
import { startEndpointWorker } from './endpoint-worker.ts';
import { FACE_GOALS, goalVerdict } from './face-goals.ts';
import { fmt, type LoadResult, runLoad } from './load.ts';
import { threadCpuMs } from './thread-cpu.ts';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 1200);
const BODY = '{"name":"Anna Schmidt","company":"Beispiel GmbH"}';

/**
 * Issue 5 §6: resolutions per second of the simulated PBX's web resolver against a local
 * endpoint (node:http answering a fixed JSON body), next to a plain undici request loop against
 * the same endpoint in the same run: the difference is the client's overhead (number formats, URL
 * building, header set, search log, evaluation, state update). Here the system under test is the
 * client, so the endpoint runs on its own thread (bench/endpoint-worker.ts) and the resolver and
 * the undici loops share the main thread alike; the CPU each spends per lookup on that thread is
 * printed too. The resolver opens one connection per lookup (one agent per provider query), so the
 * loop is shown both with a kept-alive pool and with a fresh connection per request. Prints
 * figures; asserts nothing.
 */
export async function benchResolver(): Promise<void> {
  console.log('\n## Web resolver (outbound lookups)');
  const endpoint = await startEndpointWorker(BODY);
  const sim = await start({ monitoringPort: 0, clock: { mode: 'frozen' } });
  const url = `${endpoint.url}/lookup?tel=%2B49301234567`;
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
    const fetchWith = (dispatcher: Agent) => async () => {
      const response = await request(url, { dispatcher });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
    };
    const fresh = async () => {
      const agent = new Agent({ connections: 1, pipelining: 1 });
      try {
        await fetchWith(agent)();
      } finally {
        await agent.close();
      }
    };
    await runLoad(resolve, 4, 200); // warm-up
    console.log('lookups/s against a local endpoint (node:http on its own thread, fixed JSON body)');
    console.log(
      '  concurrency   resolver   undici keep-alive   undici new connection   resolver / keep-alive   resolver / new connection',
    );
    const cpu: [string, LoadResult & { cpuMs: number | null }][] = [];
    for (const concurrency of [1, 16]) {
      const pool = new Agent({ connections: concurrency, pipelining: 1 });
      try {
        await runLoad(fetchWith(pool), concurrency, 100); // warm-up: open the pool
        const sut = await measured(resolve, concurrency);
        const kept = await measured(fetchWith(pool), concurrency);
        const each = await measured(fresh, concurrency);
        const errors = sut.errors + kept.errors + each.errors;
        console.log(
          `  ${String(concurrency).padStart(11)}   ${fmt(sut.perSecond).padStart(8)}   ${fmt(kept.perSecond).padStart(17)}   ${fmt(each.perSecond).padStart(21)}   ${fmt(sut.perSecond / kept.perSecond, 2).padStart(21)}   ${fmt(sut.perSecond / each.perSecond, 2).padStart(25)}   ${goalVerdict(sut.perSecond / each.perSecond, FACE_GOALS.resolver, errors)}${errors ? `   (${errors} errors)` : ''}`,
        );
        if (concurrency === 16)
          cpu.push(['resolver', sut], ['undici keep-alive', kept], ['undici new conn.', each]);
      } finally {
        await pool.close();
      }
    }
    console.log('  client-thread CPU per lookup at concurrency 16:');
    for (const [name, result] of cpu) {
      const perLookup =
        result.cpuMs === null ? 'n/a' : `${fmt((result.cpuMs * 1000) / result.requests, 1)} µs`;
      console.log(`    ${name.padEnd(18)} ${perLookup}`);
    }
  } finally {
    await sim.close();
    await endpoint.close();
  }
}

/** `runLoad` on this thread with the thread's CPU time over the run. */
async function measured(
  task: () => Promise<unknown>,
  concurrency: number,
): Promise<LoadResult & { cpuMs: number | null }> {
  const before = threadCpuMs();
  const result = await runLoad(task, concurrency, DURATION_MS);
  const after = threadCpuMs();
  return { ...result, cpuMs: before === null || after === null ? null : after - before };
}
