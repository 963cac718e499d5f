import { createServer, type Server } from 'node:net';
import { listen } from '../../shared/http/listen.ts';
import { inProcessPipe, type LinkSocket } from '../../shared/wire/in-process-pipe.ts';
import { MAX_FRAME_BYTES, MUX_HELLO_LINE, MuxCarrier, MuxChannel } from '../../shared/wire/ingest-mux.ts';
import {
  type ControllerMessage,
  encodeLine,
  LineReader,
  parseLine,
} from '../../shared/wire/ingest-protocol.ts';
import { onLines } from '../../shared/wire/on-lines.ts';
import type { RequestLogger } from '../api/api-core.ts';
import type { FleetState } from '../model/fleet-state.ts';
import { sha256Hex } from '../model/sha256-hex.ts';
import { type IngestPort, IngestSession } from './ingest-session.ts';
import { peerOf, RefusalLog } from './refusal-log.ts';
import { TurnBatch } from './turn-batch.ts';

/** A PBX that sends nothing after connecting is dropped after this long (real time). */
const HELLO_TIMEOUT_MS = 10_000;
/** TCP connections at most: this many, or two per registered PBX where that is more (a sharded fleet). */
const MAX_CONNECTIONS = 5_000;
/**
 * Sockets past the limit still taken, to be told `refused connection-limit` and closed; past these
 * Node closes a newcomer at once, so a flood never holds more than a bounded number of sockets.
 */
const TURN_AWAY_SOCKETS = 256;
/** Lines (and characters of them) applied in one transaction at most; more are applied at once. */
const MAX_BATCH_LINES = 4_096;
const MAX_BATCH_CHARS = 4 * 1024 * 1024;

/** A connection: the socket-free session plus what the listener keeps for writing its answers. */
interface Connection {
  socket: LinkSocket;
  session: IngestSession;
  /** The session is over (a refusal): its last answers end the connection. */
  ending: boolean;
  /** The remote address (of the carrier, for a channel), `in-process` without one. */
  peer: string;
}

/**
 * Answers held back until what produced them is committed, per connection in the order of its
 * lines; `ends` when they end the connection (a refusal).
 */
type Outbox = Map<Connection, { text: string; ends: boolean }>;

export interface IngestServer {
  server: Server;
  /** `tcp://host:port` */
  url: string;
  /** Live connections per site (the control plane shows them). */
  connections(siteId: string): number;
  /**
   * A connection to this listener from the same process without a socket (issue 22): the PBX
   * end of an in-process pipe, served exactly as an accepted TCP connection (hello, batches,
   * answers after commit, cuts, counts). A pooled fleet's PBXs link this way.
   */
  connectInProcess(): LinkSocket;
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
 * goes into one `state.ingestBatch` — with a data directory one LMDB transaction, one fsync,
 * committed asynchronously while the next batch is applied — and the answers of that batch
 * (`welcome`, `ack`, `refused`) leave only after it and every earlier batch have committed, each
 * connection's in the order of its lines. An acknowledged event is therefore committed, and a
 * `welcome` never names a sequence number that a killed controller could still lose (LMDB's
 * overlapping sync flushes a commit to disk just after it: an OS crash may lose the last ones).
 */
export async function startIngestServer(
  state: FleetState,
  options: {
    host: string;
    port: number;
    log?: RequestLogger;
    /** Receives one line per peer and reason of a refused link (issue 29 item 5). */
    warn?: (line: string) => void;
    /**
     * Connections (a shard's channels included) taken before `connection-limit`, or twice the
     * registered PBXs where that is more; default 5,000 (tests take fewer).
     */
    maxConnections?: number;
  },
): Promise<IngestServer> {
  const connections = new Set<Connection>();
  const port = ingestPortOf(state);
  const log = options.log ?? (() => {});
  const warn = options.warn ?? (() => {});
  const refusals = new RefusalLog(warn);

  /** The connections that said hello for each site: counts and cuts look at a site's alone, not at all N. */
  const bySite = new Map<string, Set<Connection>>();
  const index = (connection: Connection) => {
    const { siteId } = connection.session;
    if (siteId === null) return;
    const own = bySite.get(siteId) ?? new Set<Connection>();
    own.add(connection);
    bySite.set(siteId, own);
  };
  const unindex = (connection: Connection) => {
    const { siteId } = connection.session;
    const own = siteId === null ? undefined : bySite.get(siteId);
    own?.delete(connection);
    if (own?.size === 0) bySite.delete(siteId!);
  };
  const count = (siteId: string) => {
    let live = 0;
    for (const c of bySite.get(siteId) ?? []) if (c.session.connectedTo(siteId)) live++;
    return live;
  };
  const recount = (siteId: string) => state.ingest.setConnections(siteId, count(siteId));

  /** The answers of the running batch; `null` outside a batch. */
  let held: Outbox | null = null;
  /**
   * Batches whose answers wait for their commit, or for an earlier batch's (with a data directory
   * a batch commits asynchronously, issue 31 §3). Outboxes are written in the order of the
   * batches, so a connection's answers keep the order of its lines and none leaves before
   * everything it acknowledges or names is committed; `releasing` settles when the last is written.
   */
  let waiting = 0;
  let releasing: Promise<void> = Promise.resolve();
  /** Answers made outside a batch (a cut) while batches wait: written after those batches. */
  let late: Outbox | null = null;

  const write = (connection: Connection, text: string, ends: boolean) => {
    const { socket } = connection;
    if (socket.destroyed) return;
    if (ends) {
      socket.end(text);
      // A peer that never closes its side is dropped after a grace period.
      socket.setTimeout(HELLO_TIMEOUT_MS, () => socket.destroy());
    } else if (text !== '' && socket.writable) {
      socket.write(text);
    }
  };
  const writeAll = (outbox: Outbox) => {
    for (const [connection, { text, ends }] of outbox) write(connection, text, ends);
  };

  /** Batches noticed not committed so far; an outbox made before the latest is not written. */
  let failures = 0;
  /** Failed batches not yet written to the operator since the first of a run of them. */
  let unreported = 0;
  /**
   * A batch that is not committed (a full disk, an I/O error) is not answered: no `ack`, no
   * `welcome`, and its connections close, so their PBXs reconnect and re-send what was not
   * acknowledged (EVENT-UNSPEC-TRANSPORT). Neither is any batch made before the failure was known
   * (its answers could name the lost batch's positions). The listener stays up; the journal writes
   * the lost batch's changes with the next commit, so the `welcome` of the reconnect, sent only
   * after that commit, names positions that are committed, and the re-sent events count once. The
   * operator reads the first failure of a run, with its cause and never a value, and the recovery.
   */
  const notCommitted = (outbox: Outbox, error: unknown) => {
    for (const connection of outbox.keys()) connection.socket.destroy();
    if (unreported++ > 0) return;
    const message = error instanceof Error ? error.message : String(error);
    warn(
      `ingest: a batch of ingested lines was not committed (${(message.split('\n')[0] ?? '').slice(0, 200)}): nothing of it was acknowledged and its ${outbox.size} connection(s) were closed, so their PBXs re-send; its changes go with the next commit (further failures are counted until a commit succeeds)`,
    );
  };
  const committedAgain = () => {
    if (unreported === 0) return;
    warn(`ingest: batches commit again, after ${unreported} not committed`);
    unreported = 0;
  };

  /** Writes `outbox` once `committed` has settled and every earlier outbox is written. */
  const release = (outbox: Outbox, committed: Promise<void> | null) => {
    if (committed === null && waiting === 0) return writeAll(outbox);
    waiting++;
    late = null;
    const failuresBefore = failures;
    // Its outcome is taken at once (a rejection is never left unhandled) and acted on in order.
    const outcome =
      committed === null
        ? null
        : committed.then(
            () => null,
            (error: unknown) => error,
          );
    releasing = releasing
      .then(() => outcome)
      .then((error) => {
        waiting--;
        if (error !== null) {
          failures++;
          notCommitted(outbox, error);
        } else if (failures > failuresBefore) {
          // An earlier batch was not committed: answered by nothing, as it was.
          for (const connection of outbox.keys()) connection.socket.destroy();
        } else {
          if (committed !== null) committedAgain();
          writeAll(outbox);
        }
      });
  };

  /** Queues a session's answers; a refusal ends the connection and changes the site's count. */
  const answer = (connection: Connection, messages: ControllerMessage[], siteBefore: string | null) => {
    if (messages.length === 0) return;
    let text = '';
    for (const message of messages) text += encodeLine(message);
    const { session } = connection;
    if (session.refusal && !connection.ending) refusals.note(connection.peer, session.refusal);
    if (session.closed) connection.ending = true;
    else if (siteBefore === null && session.siteId !== null) {
      // Welcomed: the hello timeout is over.
      connection.socket.setTimeout(0);
      index(connection);
    }
    const siteId = session.siteId ?? siteBefore;
    if (siteId !== null && (session.closed || siteBefore === null)) recount(siteId);
    let outbox = held;
    if (!outbox && waiting > 0) {
      if (!late) {
        const fresh: Outbox = new Map();
        release(fresh, null);
        late = fresh;
      }
      outbox = late;
    }
    if (!outbox) return write(connection, text, session.closed);
    const queued = outbox.get(connection);
    if (queued) {
      queued.text += text;
      queued.ends ||= session.closed;
    } else outbox.set(connection, { text, ends: session.closed });
  };

  const onCut = (siteId: string) => {
    for (const c of [...(bySite.get(siteId) ?? [])]) answer(c, c.session.cut(), siteId);
  };
  state.on('link-cut', onCut);

  const batch = new TurnBatch<{ connection: Connection; line: string }>(
    (work) => {
      const outbox: Outbox = new Map();
      held = outbox;
      let committed: Promise<void> | null;
      try {
        ({ committed } = state.ingestBatch(() => {
          for (const { connection, line } of work) {
            const before = connection.session.siteId;
            answer(connection, connection.session.receive(line), before);
          }
        }));
      } catch (error) {
        // Not applied whole: nothing of the batch is answered; the PBXs re-send after reconnecting.
        failures++;
        notCommitted(outbox, error);
        return;
      } finally {
        held = null;
      }
      release(outbox, committed);
    },
    MAX_BATCH_LINES,
    MAX_BATCH_CHARS,
  );

  let closed = false;
  /** Connections carrying many sessions (ingest-mux.ts): a shard's. */
  const carriers = new Set<LinkSocket>();
  /**
   * A connection whose first line is the mux line carries many sessions, each a channel accepted
   * here like a connection of its own (issue 31 §4). Channels count against the connection limit;
   * a carrier without channels is dropped after the hello timeout, as a silent connection is.
   */
  const carry = (socket: LinkSocket, reader: LineReader, peer: string): ((line: string) => void) => {
    carriers.add(socket);
    reader.allow(MAX_FRAME_BYTES);
    const idle = () => {
      if (mux.size === 0) socket.setTimeout(HELLO_TIMEOUT_MS);
    };
    const mux = new MuxCarrier(socket, {
      allows: () => !closed && connections.size < connectionLimit(),
      // At the limit the channel's session hears it, as a connection of its own hears any other
      // refusal, and the operator reads it once per peer (a closed listener just closes).
      turnedAway: (hello) => {
        if (closed) return undefined;
        const siteId = parseLine(hello)?.['siteId'];
        refusals.note(peer, {
          reason: 'connection-limit',
          siteId: typeof siteId === 'string' ? siteId : null,
        });
        return JSON.stringify({ type: 'refused', reason: 'connection-limit' } satisfies ControllerMessage);
      },
      channel: (channel) => {
        socket.setTimeout(0);
        channel.once('close', idle);
        accept(channel, peer);
      },
    });
    socket.once('close', () => carriers.delete(socket));
    return (line) => mux.receive(line);
  };

  /**
   * A plain connection that arrived past the limit: its first line (a hello) is answered
   * `refused connection-limit` and the connection closes, as a shard channel turned away is
   * answered, and the operator reads it once per peer. A first line that is the mux line makes a
   * carrier instead, whose sessions are counted and turned away one by one.
   */
  const turnAway = (connection: Connection, hello: string) => {
    connection.ending = true;
    connection.session.closed = true;
    const siteId = parseLine(hello)?.['siteId'];
    refusals.note(connection.peer, {
      reason: 'connection-limit',
      siteId: typeof siteId === 'string' ? siteId : null,
    });
    write(connection, encodeLine({ type: 'refused', reason: 'connection-limit' }), true);
  };

  const accept = (socket: LinkSocket, peer: string, pastLimit = false) => {
    const connection: Connection = {
      socket,
      session: new IngestSession(port, log),
      ending: false,
      peer,
    };
    connections.add(connection);
    const reader = new LineReader();
    socket.setNoDelay(true);
    socket.setTimeout(HELLO_TIMEOUT_MS, () => socket.destroy());
    /** Set once the first line was the mux line: the rest are frames (a TCP connection only). */
    let frames: ((line: string) => void) | undefined;
    let first = !(socket instanceof MuxChannel);
    onLines(socket, reader, (line) => {
      if (frames) frames(line);
      else if (first && line === MUX_HELLO_LINE) {
        connections.delete(connection);
        frames = carry(socket, reader, peer);
      } else if (connection.ending) {
        // Refused: what follows is not read.
      } else if (first && pastLimit) turnAway(connection, line);
      else if (line.trim() !== '') batch.add({ connection, line }, line.length);
      first = false;
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      connections.delete(connection);
      unindex(connection);
      if (connection.session.siteId !== null) recount(connection.session.siteId);
    });
  };
  const connectionLimit = () =>
    Math.max(options.maxConnections ?? MAX_CONNECTIONS, 2 * state.ingest.links.size);
  const server = createServer((socket) => {
    server.maxConnections = connectionLimit() + TURN_AWAY_SOCKETS;
    accept(socket, peerOf(socket), connections.size >= connectionLimit());
  });
  server.maxConnections = connectionLimit() + TURN_AWAY_SOCKETS;
  const { port: bound } = await listen(server, { port: options.port, host: options.host });
  return {
    server,
    url: `tcp://${options.host}:${bound}`,
    connections: count,
    connectInProcess() {
      const [dialling, accepting] = inProcessPipe();
      if (closed) accepting.destroy();
      else accept(accepting, 'in-process');
      return dialling;
    },
    async close() {
      closed = true;
      // What has arrived is applied and committed, and its answers written, before the listener goes.
      batch.flush();
      await releasing.catch(() => {});
      state.off('link-cut', onCut);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const c of connections) c.socket.destroy();
        for (const carrier of carriers) carrier.destroy();
      });
    },
  };
}

/** The fleet state as the port an ingest session works through. */
function ingestPortOf(state: FleetState): IngestPort {
  return {
    link: (siteId) => (state.access.sites.has(siteId) ? state.ingest.links.get(siteId) : undefined),
    hashKey: sha256Hex,
    lastSequence: (stream) => state.ingest.lastSequence(stream),
    acceptSequence: (stream, seq) => state.ingest.acceptSequence(stream, seq),
    report: (siteId, report) => {
      state.attention.report(siteId, report);
    },
    setInventory: (siteId, inventory) => state.ingest.setInventory(siteId, inventory),
    countInvalid: () => state.ingest.countInvalid(),
  };
}
