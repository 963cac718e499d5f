import { connect, type Socket } from 'node:net';
import { threadId } from 'node:worker_threads';
import { encodeLine, LineReader, parseLine } from '../simulators/shared/index.ts';
import type { LoadResult } from './load.ts';
import { threadCpuMs } from './thread-cpu.ts';

/**
 * Simulated PBXs on the ingest link (EVENT-UNSPEC-TRANSPORT, docs/fleet-controller.md): each of
 * `concurrency` connections says `hello` as `pbxs[i % pbxs.length]` on a stream of its own, waits
 * for `welcome`, then keeps `window` `event` lines unacknowledged — as the PBX forwarder sends
 * them, without waiting for each `ack`. One acknowledged event is one request of the load run.
 */
export interface IngestTarget {
  kind: 'ingest';
  host: string;
  port: number;
  pbxs: { siteId: string; key: string }[];
  window: number;
  /** `at` (PBX clock) of a stream's first event; each later one is 1 ms later. */
  at: number;
}

export interface IngestLoadResult extends LoadResult {
  firstError?: string;
  clientCpuMs: number | null;
}

/** Bound on the wait for `welcome`, and for the last acks after the counted run. */
const ANSWER_TIMEOUT_MS = 10_000;
/** Subjects per stream: events repeat them, so the controller merges most into open items. */
const SUBJECTS = 50;

let runs = 0;

/**
 * Connects and greets, loads for `warmupMs` (not counted), calls `measuring`, counts the acks of
 * `durationMs`, then stops sending and waits for the window to drain before closing, so the server
 * is idle when this resolves and the next run starts on a quiet machine. Fresh stream ids per run,
 * so the controller applies every event (a known stream would answer re-sent numbers as duplicates).
 */
export async function runIngestLoad(
  target: IngestTarget,
  concurrency: number,
  warmupMs: number,
  durationMs: number,
  measuring: () => void,
): Promise<IngestLoadResult> {
  if (target.pbxs.length === 0) throw new Error('ingest target without PBXs');
  if (target.window < 1) throw new Error('ingest window below 1');
  const run = ++runs;
  let counting = false;
  let sending = true;
  let acked = 0;
  let errors = 0;
  let firstError: string | undefined;
  const fail = (error: Error) => {
    errors++;
    firstError ??= error.message;
  };
  const opened = await Promise.allSettled(
    Array.from({ length: concurrency }, (_, i) => {
      const pbx = target.pbxs[i % target.pbxs.length]!;
      return openLink(target, pbx, `bench-${threadId}-${run}-${i}`);
    }),
  );
  const links = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  const refused = opened.find((o) => o.status === 'rejected');
  if (refused) {
    for (const { socket } of links) socket.destroy();
    throw refused.reason;
  }
  const drained = links.map(
    (link) =>
      new Promise<void>((resolve) => {
        const { socket, reader } = link;
        let unacked = 0;
        let finished = false;
        const pump = () => {
          let out = '';
          for (; sending && unacked < target.window; unacked++) {
            const seq = ++link.seq;
            out += encodeLine({
              type: 'event',
              seq,
              event: {
                module: 'Bench',
                subject: `Meldung ${seq % SUBJECTS}`,
                severity: 'WARNING',
                at: target.at + seq,
              },
              suppressed: 0,
            });
          }
          if (out) socket.write(out);
          else if (unacked === 0) done();
        };
        const done = () => {
          finished = true;
          socket.removeAllListeners('data');
          resolve();
        };
        const broken = (error: Error) => {
          if (finished) return;
          fail(error);
          done();
          socket.destroy();
        };
        socket.on('data', (chunk: Buffer) => {
          let lines: string[];
          try {
            lines = reader.push(chunk);
          } catch (error) {
            return broken(error as Error);
          }
          for (const line of lines) {
            const message = parseLine(line);
            // Acks come in the order of the events: the oldest unacknowledged one is next.
            if (message?.type !== 'ack' || message['seq'] !== link.seq - unacked + 1) {
              return broken(new Error(`ingest answered ${line.slice(0, 200)}`));
            }
            unacked--;
            if (counting) acked++;
          }
          pump();
        });
        socket.removeAllListeners('error');
        socket.on('error', broken);
        socket.on('close', () => broken(new Error('ingest connection closed')));
        if (link.failure) broken(link.failure);
        else if (socket.destroyed) broken(new Error('ingest connection closed'));
        else pump();
      }),
  );
  await sleep(warmupMs);
  measuring();
  const cpuAtStart = threadCpuMs();
  const started = performance.now();
  counting = true;
  await sleep(durationMs);
  counting = false;
  sending = false;
  const seconds = (performance.now() - started) / 1000;
  const cpuAtEnd = threadCpuMs();
  const clientCpuMs = cpuAtStart === null || cpuAtEnd === null ? null : cpuAtEnd - cpuAtStart;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(drained),
    new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        fail(new Error(`acks still missing ${ANSWER_TIMEOUT_MS} ms after the run`));
        resolve();
      }, ANSWER_TIMEOUT_MS);
    }),
  ]);
  clearTimeout(timer);
  for (const { socket } of links) {
    socket.removeAllListeners('close');
    socket.destroy();
  }
  return {
    requests: acked,
    seconds,
    perSecond: acked / seconds,
    errors,
    clientCpuMs,
    ...(firstError === undefined ? {} : { firstError }),
  };
}

interface Link {
  socket: Socket;
  reader: LineReader;
  /** The last sequence number sent. */
  seq: number;
  /** An error between `welcome` and the start of the load. */
  failure?: Error;
}

/** Connects, sends `hello` and resolves on `welcome`, whose `lastSeq` the stream continues from. */
function openLink(target: IngestTarget, pbx: { siteId: string; key: string }, stream: string): Promise<Link> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: target.host, port: target.port });
    const reader = new LineReader();
    const refuse = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.setNoDelay(true);
    socket.setTimeout(ANSWER_TIMEOUT_MS, () => refuse(new Error('no welcome from the ingest listener')));
    socket.once('error', refuse);
    socket.on('connect', () => {
      socket.write(encodeLine({ type: 'hello', version: 1, siteId: pbx.siteId, key: pbx.key, stream }));
    });
    socket.on('data', (chunk: Buffer) => {
      let line: string | undefined;
      try {
        [line] = reader.push(chunk);
      } catch (error) {
        return refuse(error as Error);
      }
      if (line === undefined) return;
      const message = parseLine(line);
      const lastSeq = message?.['lastSeq'];
      if (message?.type !== 'welcome' || typeof lastSeq !== 'number') {
        return refuse(new Error(`ingest answered hello with ${line.slice(0, 200)}`));
      }
      socket.setTimeout(0);
      socket.removeAllListeners();
      const link: Link = { socket, reader, seq: lastSeq };
      socket.on('error', (error) => {
        link.failure ??= error;
      });
      resolve(link);
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
