import type { Server } from 'node:http';
import { Agent, request } from 'undici';
import { httpPbxControl, start } from '../simulators/pbx/index.ts';
import { cpuLine } from './cpu-line.ts';
import { FACE_GOALS, goalVerdict } from './face-goals.ts';
import { bareAnswerServer, median, recordAnswer } from './http-load.ts';
import { fmt } from './load.ts';
import { LoadWorker } from './load-worker.ts';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 2000);
const WARMUP_MS = 300;
const CONCURRENCY = 32;
/** The accepted command every request of the row posts. */
export const MAINTENANCE_COMMAND_PATH = '/fp/7ce0d8df/api/v1/system-functions/DeleteTemporaryFiles';

/** The request of the row, to the face and to its bare server alike. */
export function maintenanceCommand(secret: string) {
  return {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: '{}',
  } as const;
}

/**
 * The row's bare server: the face's own answer to an accepted command, recorded from `faceUrl`
 * (which runs that one command) and sent again byte for byte once each request's body has been
 * read, at the same path (issue 31 §3: before, the bare answer left out `Cache-Control` and
 * `Content-Length` and went out chunked, so the load worker read another answer from each side).
 */
export async function bareMaintenanceServer(
  faceUrl: string,
  secret: string,
): Promise<{ server: Server; url: string }> {
  const command = maintenanceCommand(secret);
  const answer = await recordAnswer(faceUrl, { ...command, headers: { ...command.headers } });
  if (answer.status !== 200) throw new Error(`POST ${faceUrl} answered ${answer.status}`);
  const bare = await bareAnswerServer(() => answer, { readBody: true });
  return { server: bare.server, url: `${bare.url}${MAINTENANCE_COMMAND_PATH}` };
}

/**
 * Issue 3 §6: accepted commands per second at concurrency 32 against a bare node:http server in the
 * same run (the ceiling), the load generated on another thread (bench/load-worker.ts) with the
 * same settings for both; and the answer time of a wrong token against a right one (constant-time
 * comparison; measured here, never asserted).
 */
export async function benchMaintenance(): Promise<void> {
  console.log('\n## Maintenance API (interface A)');
  const sim = await start({ monitoringPort: 0, clock: { mode: 'frozen' } });
  let bare: { server: Server; url: string } | undefined;
  const dispatcher = new Agent({ connections: 1, pipelining: 1 });
  const load = await LoadWorker.start();
  try {
    const { secret } = await httpPbxControl(sim.urls.control).createToken({ label: 'bench', actor: 'admin' });
    const post = (url: string) => ({ kind: 'http', url, ...maintenanceCommand(secret) }) as const;
    const faceUrl = `${sim.urls.web}${MAINTENANCE_COMMAND_PATH}`;
    bare = await bareMaintenanceServer(faceUrl, secret);
    while ((await sim.control.waitIdle()).pending > 0);
    const { sut, ceiling, ratio } = await load.compare(post(faceUrl), post(bare.url), {
      concurrency: CONCURRENCY,
      durationMs: DURATION_MS,
      warmupMs: WARMUP_MS,
      settle: async () => {
        // Every accepted command has run (`waitIdle` waits at most 10 s at a time).
        while ((await sim.control.waitIdle()).pending > 0);
      },
    });
    console.log(`accepted commands/s at concurrency ${CONCURRENCY} (client on its own thread)`);
    console.log(
      `  simulator ${fmt(sut.perSecond)}   bare http ${fmt(ceiling.perSecond)}   ratio ${fmt(ratio, 2)}   ${goalVerdict(ratio, FACE_GOALS.maintenance, sut.errors)}${sut.errors ? `   (${sut.errors} errors: ${sut.firstError})` : ''}`,
    );
    console.log(`  ${cpuLine('simulator', sut)}\n  ${cpuLine('bare http', ceiling)}`);

    const listUrl = `${sim.urls.web}/fp/7ce0d8df/api/v1/system-functions`;
    const wrong = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    const sample = async (token: string) => {
      const t0 = performance.now();
      const res = await request(listUrl, { dispatcher, headers: { authorization: `Bearer ${token}` } });
      await res.body.dump();
      return performance.now() - t0;
    };
    const right: number[] = [];
    const bad: number[] = [];
    for (let i = 0; i < 2000; i++) {
      right.push(await sample(secret));
      bad.push(await sample(wrong));
    }
    console.log('answer time, right token vs wrong token (median of 2,000 sequential requests each)');
    console.log(
      `  right ${fmt(median(right) * 1000, 1)} µs   wrong ${fmt(median(bad) * 1000, 1)} µs   difference ${fmt((median(bad) - median(right)) * 1000, 1)} µs`,
    );
  } finally {
    await load.close();
    await dispatcher.close();
    bare?.server.close();
    await sim.close();
  }
}
