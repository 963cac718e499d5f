import { request } from 'undici';
import type { Effects } from '../../shared/control/control-operation.ts';
import type { EventStream } from '../../shared/control/event-stream.ts';
import type { PbxStore } from '../state/store.ts';
import type { ChangeNotice, CONSOLE_OPERATIONS, ServedFace } from './console-operations.ts';
import type { EndpointStatus } from './control-api.ts';

type FacePath = ServedFace['path'];

/** Longest body of a face the console shows (a `large` scenario's JSON is well below). */
const MAX_FACE_BYTES = 256 * 1024;
/** A face that has not answered by then is shown as not answering. */
const FACE_TIMEOUT_MS = 3_000;
/** Changes closer together than this go out as one event (field activity can log in bursts). */
const COALESCE_MS = 50;

/** The store's events the change feed forwards, each under its own event name. */
const CHANGE_EVENTS = ['change', 'faults', 'log', 'reset', 'clock'] as const;

/** What `watchChanges` and `servedFaces` do for one PBX (console-operations.ts). */
export function consoleEffects(
  store: PbxStore,
  endpoint: { status(): EndpointStatus },
): Effects<typeof CONSOLE_OPERATIONS> {
  const changes: EventStream<ChangeNotice> = (send) => {
    const pending = new Set<string>();
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      timer = undefined;
      const notice = { revision: store.revision, at: store.clock.now() };
      for (const name of pending) send(name === 'change' ? 'state' : name, notice);
      pending.clear();
    };
    const listeners = CHANGE_EVENTS.map((name) => {
      const listener = () => {
        pending.add(name);
        timer ??= setTimeout(flush, COALESCE_MS);
      };
      store.on(name, listener);
      return () => store.off(name, listener);
    });
    return () => {
      if (timer) clearTimeout(timer);
      for (const off of listeners) off();
    };
  };
  return {
    watchChanges: () => changes,
    servedFaces: async () => {
      const status = endpoint.status();
      const base = status.state === 'listening' ? `http://${hostForUrl(status.host)}:${status.port}` : null;
      const fetchFace = (path: FacePath) => (base ? fetchFaceAt(base, path) : notListening(path, status));
      return {
        agentText: await fetchFace('/checkmk'),
        json: await fetchFace('/json'),
        xml: await fetchFace('/xml'),
        at: store.clock.now(),
      };
    },
  };
}

function notListening(path: FacePath, status: EndpointStatus): ServedFace {
  return { path, status: null, contentType: null, body: '', error: `the data endpoint is ${status.state}` };
}

async function fetchFaceAt(base: string, path: FacePath): Promise<ServedFace> {
  try {
    const answer = await request(`${base}${path}`, {
      headersTimeout: FACE_TIMEOUT_MS,
      bodyTimeout: FACE_TIMEOUT_MS,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer.body) {
      const bytes = chunk as Buffer;
      if (size < MAX_FACE_BYTES) chunks.push(bytes.subarray(0, MAX_FACE_BYTES - size));
      size += bytes.length;
    }
    const type = answer.headers['content-type'];
    return {
      path,
      status: answer.statusCode,
      contentType: typeof type === 'string' ? type : null,
      body: Buffer.concat(chunks).toString('utf8'),
    };
  } catch (error) {
    return {
      path,
      status: null,
      contentType: null,
      body: '',
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

function hostForUrl(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
