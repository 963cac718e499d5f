import type { EndpointRequest } from './monitoring/endpoint/answer-request.ts';
import { selectFormat } from './monitoring/endpoint/select-format.ts';
import type { TimedAnswer } from './monitoring/endpoint/serve-connection.ts';
import {
  fetchBody,
  type RecordedHttpFetch,
  type RecordedStream,
  type Recording,
  type RecordingSample,
  sampleAt,
  streamBytes,
} from './recording/recording.ts';
import type { PbxStore } from './state/store.ts';
import type { SnapshotFormat } from './state/types.ts';
import type { MonitoringData } from './xmlrpc/monitoring-methods.ts';

export interface ReplayOptions {
  /** `recorded`: chunks go out with the recorded delays; `none`: at once, as one write. */
  timing: 'recorded' | 'none';
}

/** What a replayed PBX serves in place of its own renderings. */
export interface ReplayFaces {
  /** The recorded answer to a data-endpoint request, or `undefined` for the simulator's own. */
  endpointAnswer(request: EndpointRequest): TimedAnswer | undefined;
  /** The payloads of the XML-RPC data queries: the recorded `data` members. */
  xmlrpcData: MonitoringData;
}

/** Binds a recording to a PBX's store; `index.ts` calls it once the store exists. */
export type ReplayBinding = (store: PbxStore, own: MonitoringData) => ReplayFaces;

const FORMAT_PATHS: Record<SnapshotFormat, string> = { checkmk: '/checkmk', xml: '/xml', json: '/json' };

/**
 * Serves a recording (`simulate --recording`), byte-exact, on the simulator's own state machine:
 *
 * - The data endpoint still listens, stops and filters by the state (tile, licence, monitoring
 *   hosts; MON-STATE-LISTENING, MON-STATE-TILE-OFF, MON-AUTH-UNLISTED-CLOSED); only the bytes of an
 *   answer come from the recording. A raw connection gets the recorded raw bytes (MON-RAW-MODE);
 *   an HTTP request gets the recorded fetch with the same request line, else the recorded fetch
 *   of the format it selects (MON-QUERY-FORMAT, MON-UNKNOWN-PATH), HEAD its head only. Chunks
 *   keep their recorded delays (the raw answer's first one less the raw-mode grace the endpoint
 *   already waited), and the connection ends as recorded, after the recorded gap: a reset as a
 *   reset, an end as an end, and one the recorder gave up on is held open.
 * - The XML-RPC data queries answer with the recorded `data` members behind the real login check
 *   and the tile and licence rules (XMLRPC-AUTH-BEFORE-HANDLER, XMLRPC-GMD-TILE-OFF).
 * - What the recording lacks (OPTIONS, other methods, a format not fetched) and every injected
 *   fault (`render-error`, `json-serialisation-error`, `collection-error`) is the simulator's own
 *   answer from the state imported from the recording.
 * - A time series plays in order on the virtual clock: the sample recorded `atMs` after the first
 *   is served from `atMs` after the replay started.
 */
export function replayRecording(recording: Recording, options: ReplayOptions): ReplayBinding {
  return (store, own) => {
    const startedAt = store.clock.now();
    const current = (): RecordingSample | undefined => sampleAt(recording, store.clock.now() - startedAt);
    const faulty = () =>
      store.hasFault('render-error') ||
      store.hasFault('json-serialisation-error') ||
      store.hasFault('collection-error');
    return {
      endpointAnswer(request) {
        const endpoint = current()?.dataEndpoint;
        if (!endpoint || faulty()) return undefined;
        const defaultFormat = store.read().monitoring.defaultFormat;
        if (request.mode === 'raw') {
          if (defaultFormat === 'checkmk' && endpoint.raw) {
            return timed(
              endpoint.raw,
              streamBytes(endpoint.raw),
              store.read().monitoring.rawGraceMs,
              options,
            );
          }
          const fetch = formatFetch(endpoint.http, defaultFormat);
          return fetch ? { chunks: [{ delayMs: 0, bytes: fetchBody(fetch) }], close: 'end' } : undefined;
        }
        if (request.mode !== 'http') return undefined;
        const method = request.method === 'POST' ? 'GET' : request.method;
        if (method !== 'GET' && method !== 'HEAD') return undefined;
        const fetch =
          endpoint.http.find((candidate) => candidate.request === `GET ${request.target}`) ??
          formatFetch(endpoint.http, selectFormat(request.target, defaultFormat));
        if (!fetch) return undefined;
        if (method === 'HEAD') {
          const head = streamBytes(fetch).subarray(0, fetch.bodyOffset ?? 0);
          return { chunks: [{ delayMs: 0, bytes: head }], close: 'end' };
        }
        return timed(fetch, streamBytes(fetch), 0, options);
      },
      xmlrpcData: {
        agentText: () => recordedData(current()?.xmlrpc?.getMonitoringData?.value) ?? own.agentText(),
        localDocument: () =>
          recordedData(current()?.xmlrpc?.getMonitoringDataXml?.value) ?? own.localDocument(),
      },
    };
  };
}

/** The recorded fetch that serves `format` by its path (`GET /xml`), else by its query. */
function formatFetch(fetches: RecordedHttpFetch[], format: SnapshotFormat): RecordedHttpFetch | undefined {
  return (
    fetches.find((fetch) => fetch.request === `GET ${FORMAT_PATHS[format]}`) ??
    fetches.find((fetch) => fetch.request === `GET /?format=${format}`)
  );
}

function recordedData(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const data = (value as Record<string, unknown>)['data'];
  return typeof data === 'string' ? data : undefined;
}

/**
 * The recorded bytes cut into the recorded chunks, each delayed by its gap to the one before;
 * `alreadyWaitedMs` is taken off the first delay only (the raw-mode grace the endpoint has
 * waited), so the gaps between chunks stay as recorded.
 */
export function timed(
  stream: RecordedStream,
  bytes: Buffer,
  alreadyWaitedMs: number,
  options: ReplayOptions,
): TimedAnswer {
  // How the recorded connection ended: the server's reset or end, or the recorder giving up
  // while the server kept it open (replayed as held open, so a client gives up alike).
  const close: TimedAnswer['close'] =
    stream.close.by === 'client' ? 'hold' : stream.close.how === 'reset' ? 'reset' : 'end';
  const lastAt = stream.chunks.at(-1)?.atMs ?? 0;
  const closeDelayMs = Math.max(0, stream.close.atMs - Math.max(lastAt, alreadyWaitedMs));
  if (options.timing === 'none' || stream.chunks.length === 0)
    return { chunks: [{ delayMs: 0, bytes }], close, ...(close === 'end' ? {} : { closeDelayMs }) };
  const chunks: TimedAnswer['chunks'] = [];
  let offset = 0;
  for (const [index, chunk] of stream.chunks.entries()) {
    const last = index === stream.chunks.length - 1;
    const end = last ? bytes.length : Math.min(bytes.length, offset + chunk.length);
    const gap = index === 0 ? chunk.atMs - alreadyWaitedMs : chunk.atMs - stream.chunks[index - 1]!.atMs;
    chunks.push({ delayMs: Math.max(0, gap), bytes: bytes.subarray(offset, end) });
    offset = end;
  }
  return { chunks, close, closeDelayMs };
}
