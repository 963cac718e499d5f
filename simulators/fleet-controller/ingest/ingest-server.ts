import { timingSafeEqual } from 'node:crypto';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import {
  asEvent,
  asHello,
  asInventory,
  type ControllerMessage,
  encodeLine,
  LineReader,
  parseLine,
  type RefusalReason,
} from '../../shared/wire/ingest-protocol.ts';
import type { RequestLogger } from '../api/api-core.ts';
import { type FleetState, sha256Hex } from '../model/fleet-state.ts';
import { TurnBatch } from './turn-batch.ts';

/** A PBX that sends nothing after connecting is dropped after this long (real time). */
const HELLO_TIMEOUT_MS = 10_000;
const MAX_CONNECTIONS = 5_000;
/** Lines (and characters of them) applied in one transaction at most; more are applied at once. */
const MAX_BATCH_LINES = 4_096;
const MAX_BATCH_CHARS = 4 * 1024 * 1024;

interface Session {
  socket: Socket;
  siteId: string | null;
  stream: string | null;
  /** Refused or cut: further lines are ignored and it no longer counts as connected. */
  closed: boolean;
  /** Answers held back until the batch that produced them is committed, in order. */
  outbox: string;
  /** Close the connection once the outbox is written (a refusal). */
  ending: boolean;
}

export interface IngestServer {
  server: Server;
  /** `tcp://host:port` */
  url: string;
  /** Live connections per site (the control plane shows them). */
  connections(siteId: string): number;
  close(): Promise<void>;
}

/**
 * The controller's ingest listener for the PBX link (EVENT-UNSPEC-TRANSPORT, `ingest-protocol.ts`).
 * Each valid event becomes a report on the site's items (EVENT-FIRST-REPORT-OPENS,
 * EVENT-REPEAT-MERGED, EVENT-THROTTLE-SUPPRESSED); a sequence number already processed for the
 * stream is acknowledged again but not applied twice. Live connections make the site reachable
 * (finding `offline`). A link the control plane cuts is closed and refused until restored.
 *
 * Lines are applied in batches: everything read from all connections in one event-loop turn
 * goes into one `state.atomically` block — with a data directory one LMDB transaction, one
 * fsync — and the answers of that batch (`welcome`, `ack`, `refused`) leave only after it has
 * committed, each connection's in the order of its lines. An acknowledged event is therefore
 * durable, and a `welcome` never names a sequence number that a crash could still lose.
 */
export async function startIngestServer(
  state: FleetState,
  options: { host: string; port: number; log?: RequestLogger },
): Promise<IngestServer> {
  const sessions = new Set<Session>();
  const log = options.log ?? (() => {});

  const recount = (siteId: string) => {
    let count = 0;
    for (const s of sessions) if (s.siteId === siteId && !s.closed) count++;
    state.setConnections(siteId, count);
  };

  /** Sessions with answers waiting for the running batch to commit; `null` outside a batch. */
  let held: Set<Session> | null = null;

  const release = (session: Session) => {
    const { socket, outbox, ending } = session;
    session.outbox = '';
    if (socket.destroyed) return;
    if (ending) {
      socket.end(outbox);
      // A peer that never closes its side is dropped after a grace period.
      socket.setTimeout(HELLO_TIMEOUT_MS, () => socket.destroy());
    } else if (outbox !== '' && socket.writable) {
      socket.write(outbox);
    }
  };

  const send = (session: Session, message: ControllerMessage) => {
    session.outbox += encodeLine(message);
    if (held) held.add(session);
    else release(session);
  };

  const refuse = (session: Session, reason: RefusalReason) => {
    if (session.closed) return;
    session.closed = true;
    session.ending = true;
    log({ face: 'ingest', method: 'REFUSE', path: session.siteId ?? '-', status: 403 });
    send(session, { type: 'refused', reason });
    if (session.siteId !== null) recount(session.siteId);
  };

  const onCut = (siteId: string) => {
    for (const s of sessions) if (s.siteId === siteId) refuse(s, 'link-cut');
  };
  state.on('link-cut', onCut);

  const handleLine = (session: Session, line: string) => {
    const msg = parseLine(line);
    if (session.siteId === null) {
      const hello = msg && asHello(msg);
      if (!hello) return refuse(session, 'bad-hello');
      session.socket.setTimeout(0);
      const link = state.links.get(hello.siteId);
      if (!state.sites.has(hello.siteId) || !link) return refuse(session, 'unknown-site');
      const given = Buffer.from(sha256Hex(hello.key), 'hex');
      if (!timingSafeEqual(given, Buffer.from(link.keySha256, 'hex'))) return refuse(session, 'bad-key');
      if (link.cut) return refuse(session, 'link-cut');
      session.siteId = hello.siteId;
      session.stream = `${hello.siteId}\u0000${hello.stream}`;
      recount(hello.siteId);
      log({ face: 'ingest', method: 'HELLO', path: hello.siteId, status: 200 });
      return send(session, { type: 'welcome', lastSeq: state.lastSequence(session.stream) });
    }
    const siteId = session.siteId;
    if (!state.sites.has(siteId) || !state.links.has(siteId)) return refuse(session, 'unknown-site');
    if (msg?.type === 'inventory') {
      const inventory = asInventory(msg['inventory']);
      if (inventory) state.setInventory(siteId, inventory);
      else state.stats.invalid++;
      return;
    }
    const event = msg && asEvent(msg);
    if (!event) {
      state.stats.invalid++;
      const seq = msg?.['seq'];
      if (typeof seq === 'number' && Number.isSafeInteger(seq)) send(session, { type: 'ack', seq });
      return;
    }
    if (state.acceptSequence(session.stream ?? '', event.seq)) {
      state.report(siteId, { ...event.event, suppressed: event.suppressed });
    }
    send(session, { type: 'ack', seq: event.seq });
  };

  const batch = new TurnBatch<{ session: Session; line: string }>(
    (work) => {
      const answered = new Set<Session>();
      held = answered;
      try {
        state.atomically(() => {
          for (const { session, line } of work) if (!session.closed) handleLine(session, line);
        });
      } catch (error) {
        // Not committed: nothing of the batch is answered; the PBXs re-send after reconnecting.
        for (const session of answered) {
          session.outbox = '';
          session.socket.destroy();
        }
        throw error;
      } finally {
        held = null;
      }
      for (const session of answered) release(session);
    },
    MAX_BATCH_LINES,
    MAX_BATCH_CHARS,
  );

  const server = createServer((socket) => {
    const session: Session = {
      socket,
      siteId: null,
      stream: null,
      closed: false,
      outbox: '',
      ending: false,
    };
    sessions.add(session);
    const reader = new LineReader();
    socket.setNoDelay(true);
    socket.setTimeout(HELLO_TIMEOUT_MS, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      let lines: string[];
      try {
        lines = reader.push(chunk);
      } catch {
        socket.destroy();
        return;
      }
      for (const line of lines) if (line.trim() !== '') batch.add({ session, line }, line.length);
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      sessions.delete(session);
      if (session.siteId !== null) recount(session.siteId);
    });
  });
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `tcp://${options.host}:${port}`,
    connections(siteId) {
      let count = 0;
      for (const s of sessions) if (s.siteId === siteId && !s.closed) count++;
      return count;
    },
    async close() {
      // What has arrived is applied (and committed) before the listener goes.
      batch.flush();
      state.off('link-cut', onCut);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sessions) s.socket.destroy();
      });
    },
  };
}
