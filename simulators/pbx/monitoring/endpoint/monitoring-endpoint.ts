import { createServer, isIPv4, type Server, type Socket } from 'node:net';
import { type Clock, durationClock } from '../../../shared/clock.ts';
import { listen } from '../../../shared/http/listen.ts';
import { renderFormat } from '../../snapshot/render/render-format.ts';
import type { SnapshotCache } from '../../snapshot/snapshot.ts';
import type { EndpointStatus } from '../../state/endpoint-status.ts';
import { AllowListCache, activeRanges, rangeText } from '../../state/host-allow-list.ts';
import { isPbxRestarting } from '../../state/pbx-restarting.ts';
import type { PbxStore } from '../../state/store.ts';
import type { PbxState, SnapshotFormat } from '../../state/types.ts';
import { type AnswerContext, answerRequest, type EndpointRequest, type Rendering } from './answer-request.ts';
import { DEFAULT_ENDPOINT_LIMITS, type EndpointLimits } from './endpoint-limits.ts';
import {
  type ConnectionContext,
  type ConnectionPhase,
  type ServedConnection,
  serveConnection,
  type TimedAnswer,
} from './serve-connection.ts';

/** An admitted connection, as the endpoint counts it per peer address until it is answered. */
interface Admitted {
  socket: Socket;
  peer: string;
  /** The listener generation it was accepted under. */
  generation: number;
  waiting: boolean;
}

/** What a full table closes first: connections that have their answer, then silent ones, then partial heads. */
const EVICTION_ORDER: readonly ConnectionPhase[] = ['answered', 'silent', 'receiving'];

export interface MonitoringEndpointOptions {
  /** Overrides of the connection bounds (tests shorten the timeouts). */
  limits?: Partial<EndpointLimits>;
  /** The PBX's duration clock, for the raw-mode grace (serve-connection.ts); default real time. */
  durationClock?: Clock;
  /**
   * Answers a request in place of the renderers, or returns `undefined` to let them answer: a
   * replayed recording (simulators/pbx/replay.ts). Listening, the monitoring-hosts check
   * and the bounds stay the endpoint's.
   */
  answerOverride?: (request: EndpointRequest) => TimedAnswer | undefined;
}

export interface ApplyOptions {
  /** Restart the listener even when it already listens with the current settings (a module restart). */
  restart?: boolean;
}

/** Settings the endpoint cannot run with, e.g. a listen address that is not IPv4 (MON-IPV4-ONLY). */
export class EndpointConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EndpointConfigError';
  }
}

/**
 * The port-6556 data endpoint of a simulated PBX: the availability state machine of
 * monitoring-endpoint-and-xmlrpc.md ("States and transitions") around the per-connection core.
 *
 * - It should run when the tile is on, the licence is valid and the monitoring-hosts list has at
 *   least one active, valid entry (MON-STATE-LISTENING, MON-AUTH-EMPTY-LIST). With no such entry
 *   the port stays closed (refused), as the spec's "closed from outside" suggests for a machine
 *   whose firewall would drop it (MON-UNSPEC-HOSTS-LIST).
 * - It listens on `monitoring.host` (an IPv4 address only, MON-IPV4-ONLY) and `monitoring.port`
 *   (MON-PORT-DEFAULT, MON-PORT-CONFIGURABLE). A busy port is followed by port + 1, once, with a
 *   warning in the module UI (MON-STATE-PORT-FALLBACK, MON-UNSPEC-NEXT-PORT); with both busy the
 *   endpoint is `inactive` (MON-STATE-BOTH-PORTS-BUSY).
 * - Tile off or licence missing stops it and drops open connections (MON-STATE-TILE-OFF,
 *   MON-STATE-UNLICENSED).
 * - It follows the store by itself: a change of tile, licence, active hosts, host or port re-runs
 *   `apply()`; applies run one after another.
 * - Every connection is checked against the active entries at application level
 *   (MON-AUTH-UNLISTED-CLOSED); the simulator has no firewall of its own (MON-STATE-FIREWALL).
 */
export class MonitoringEndpoint {
  private readonly limits: EndpointLimits;
  private readonly durationClock: Clock;
  private readonly answerOverride: MonitoringEndpointOptions['answerOverride'];
  private server: Server | undefined;
  /** Open connections in acceptance order, with how far each has come. */
  private readonly sockets = new Map<Socket, ServedConnection>();
  /** Connections per peer address still waiting for their answer (entries at 0 are removed). */
  private readonly perAddress = new Map<string, number>();
  /** Counts up when the listener stops, so late closes of its connections leave `perAddress` alone. */
  private generation = 0;
  /** Addresses whose cap was hit, so the warning is written once per episode. */
  private readonly addressesAtCap = new Set<string>();
  /** The monitoring-hosts list as parsed for the check of each connection (MON-AUTH-HOSTS-CIDR). */
  private readonly allowList = new AllowListCache();
  /** What every connection is served with, made once; see `makeConnectionContext`. */
  private readonly connectionContext: ConnectionContext<Admitted>;
  private current: Omit<EndpointStatus, 'firewallOpenFor'>;
  private appliedKey: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private fallbackWarning: string | undefined;
  private atCapacity = false;
  private lastEphemeral: { host: string; port: number } | undefined;
  private reportedHosts: string | undefined;
  /** The settings the listener follows, as of the last store change looked at (`watchedKey`). */
  private watched: string | undefined;
  private readonly onChange = () => {
    if (this.closed) return;
    // Most changes (a maintenance command, a lookup, a call) touch nothing the listener follows:
    // they cost one short key instead of parsing the hosts list twice (issue 31 §3).
    const watched = this.watchedKey();
    if (watched === this.watched) return;
    this.watched = watched;
    this.reportInvalidHosts();
    if (this.reconcileKey() === this.appliedKey) return;
    this.apply().catch(() => {
      // Already in the module log; a store change must not produce an unhandled rejection.
    });
  };

  constructor(
    private readonly store: PbxStore,
    private readonly cache: SnapshotCache,
    options: MonitoringEndpointOptions = {},
  ) {
    this.limits = { ...DEFAULT_ENDPOINT_LIMITS, ...options.limits };
    this.durationClock = options.durationClock ?? durationClock();
    this.answerOverride = options.answerOverride;
    this.connectionContext = this.makeConnectionContext();
    const { host, port } = store.read().monitoring;
    this.current = { state: 'stopped', port: null, host, configuredPort: port };
    store.on('change', this.onChange);
  }

  /**
   * The module start: brings the listener in line with the state and reports where it is. Rejects
   * with `EndpointConfigError` for a non-IPv4 host or an invalid port, and with the socket error
   * for other listen failures (the endpoint is then `inactive`).
   */
  apply(options: ApplyOptions = {}): Promise<EndpointStatus> {
    const run = this.queue.then(() => this.applyNow(options.restart ?? false));
    this.queue = run.catch(() => {});
    return run;
  }

  /** Where the endpoint stands, with the firewall rules it implies (MON-STATE-FIREWALL). */
  status(): EndpointStatus {
    const firewallOpenFor =
      this.current.state === 'listening'
        ? activeRanges(this.store.read().monitoring.hosts).ranges.map(rangeText)
        : [];
    return { ...this.current, firewallOpenFor };
  }

  /** Connections open right now (diagnostics; tests check that bounds drop connections). */
  openConnections(): number {
    return this.sockets.size;
  }

  /** How far each open connection has come, oldest first (diagnostics for the table's tests). */
  connectionPhases(): ConnectionPhase[] {
    return [...this.sockets.values()].map((served) => served.phase());
  }

  /** Stops following the store, closes the listener and destroys every open connection. */
  async close(): Promise<void> {
    this.closed = true;
    this.store.off('change', this.onChange);
    await this.queue;
    await this.stopListener();
    this.current = { ...this.current, state: 'stopped', port: null };
  }

  private async applyNow(restart: boolean): Promise<EndpointStatus> {
    const settings = this.store.read().monitoring;
    const key = this.reconcileKey();
    const { host, port } = settings;
    this.appliedKey = key;
    this.reportInvalidHosts();
    if (this.closed || !this.shouldRun(this.store.read())) {
      await this.stopListener();
      this.setWarning(undefined);
      this.current = { state: 'stopped', port: null, host, configuredPort: port };
      return this.status();
    }
    const unchanged =
      this.server !== undefined && this.current.host === host && this.current.configuredPort === port;
    if (unchanged && !restart) {
      this.setWarning(this.fallbackWarning);
      return this.status();
    }
    await this.stopListener();
    this.current = { state: 'inactive', port: null, host, configuredPort: port };
    if (!isIPv4(host)) {
      this.setWarning(undefined);
      throw this.fail(
        new EndpointConfigError(`monitoring.host must be an IPv4 address (MON-IPV4-ONLY), got '${host}'`),
      );
    }
    if (!Number.isInteger(port) || port < 0 || port > 65_535) {
      this.setWarning(undefined);
      throw this.fail(
        new EndpointConfigError(`monitoring.port must be an integer from 0 to 65535, got ${port}`),
      );
    }
    if (port === 0) return this.listenEphemeral(host);
    const first = await this.tryListen(host, port);
    if (first.server) return this.listening(first.server, host, port, undefined);
    if (first.error.code !== 'EADDRINUSE') throw this.fail(first.error);
    const next = port + 1;
    const second = next <= 65_535 ? await this.tryListen(host, next) : undefined;
    if (second?.server) {
      return this.listening(
        second.server,
        host,
        port,
        `Port ${port} is busy: the monitoring endpoint listens on port ${next} instead.`,
      );
    }
    if (second && second.error.code !== 'EADDRINUSE') throw this.fail(second.error);
    this.setWarning(undefined);
    this.store.log(
      'error',
      'monitoring',
      `ports ${port} and ${next} are busy: the data endpoint is inactive`,
      { host, port },
    );
    return this.status();
  }

  /**
   * Port 0: an ephemeral port, preferably the one this endpoint had before, so switching the tile
   * off and on keeps the address a test has noted. There is no fallback warning: port 0 names no port.
   */
  private async listenEphemeral(host: string): Promise<EndpointStatus> {
    const previous = this.lastEphemeral?.host === host ? this.lastEphemeral.port : undefined;
    const reused = previous === undefined ? undefined : await this.tryListen(host, previous);
    const attempt = reused?.server ? reused : await this.tryListen(host, 0);
    if (!attempt.server) throw this.fail(attempt.error);
    return this.listening(attempt.server, host, 0, undefined);
  }

  private listening(
    server: Server,
    host: string,
    configuredPort: number,
    warning: string | undefined,
  ): EndpointStatus {
    this.server = server;
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : configuredPort;
    this.current = { state: 'listening', port, host, configuredPort };
    if (configuredPort === 0) this.lastEphemeral = { host, port };
    this.setWarning(warning);
    this.store.log('info', 'monitoring', `data endpoint listening on ${host}:${port}`, {
      host,
      port,
      configuredPort,
    });
    return this.status();
  }

  private fail(error: Error): Error {
    this.store.log('error', 'monitoring', `data endpoint cannot listen: ${error.message}`);
    return error;
  }

  private shouldRun(state: Readonly<PbxState>): boolean {
    return (
      state.monitoring.tileOn && state.licence.valid && activeRanges(state.monitoring.hosts).ranges.length > 0
    );
  }

  /**
   * Writes each invalid active monitoring-hosts entry to the module log, once per distinct list.
   * Such an entry matches nobody; the valid entries still work.
   */
  private reportInvalidHosts(): void {
    const hosts = this.store.read().monitoring.hosts;
    const text = JSON.stringify(hosts);
    if (text === this.reportedHosts) return;
    this.reportedHosts = text;
    for (const error of activeRanges(hosts).invalid) {
      this.store.log('error', 'monitoring', `${error.message}; the entry is ignored`, { entry: error.entry });
    }
  }

  /**
   * Everything `reportInvalidHosts` and `reconcileKey` read: tile, licence, host, port and the
   * hosts list's entries. While it stays the same, both would answer as they did.
   */
  private watchedKey(): string {
    const { monitoring, licence } = this.store.read();
    let key = `${monitoring.tileOn}|${licence.valid}|${monitoring.host}|${monitoring.port}`;
    for (const host of monitoring.hosts) key += `\n${host.active ? '+' : '-'}${host.entry}`;
    return key;
  }

  /** What decides the listener: run or not, and where. Other changes leave it alone. */
  private reconcileKey(): string {
    const state = this.store.read();
    return JSON.stringify([this.shouldRun(state), state.monitoring.host, state.monitoring.port]);
  }

  private tryListen(
    host: string,
    port: number,
  ): Promise<{ server: Server; error?: undefined } | { server?: undefined; error: NodeJS.ErrnoException }> {
    const server = createServer({ allowHalfOpen: true }, (socket) => this.accept(socket));
    return listen(server, { host, port, exclusive: true }).then(
      () => {
        server.on('error', (error) =>
          this.store.log('error', 'monitoring', `data endpoint error: ${error.message}`),
        );
        return { server };
      },
      (error: NodeJS.ErrnoException) => ({ error }),
    );
  }

  /**
   * Admits a connection within the bounds of MON-UNSPEC-LIMITS (docs/simulator.md, "Limits").
   *
   * - Per peer address only connections still waiting for their answer count: one address may not
   *   hold more than `maxConnectionsPerAddress` of them (one more is closed at once without a
   *   byte). An answered connection that only waits for its client to close does not count, so a
   *   poller that keeps its own concurrency at that number or below is never refused, however late
   *   its closes are seen here.
   * - The table holds `maxConnections`. When it is full, the newcomer is taken and the connection
   *   that has come least far is closed to make room: the oldest answered one, else the oldest
   *   that has sent nothing, else the oldest with a partial request head. Silent sockets, from one
   *   address or a thousand, can therefore never keep a listed client with a request to make
   *   from being served (issue 20, item 1).
   */
  private accept(socket: Socket): void {
    if (isPbxRestarting(this.store.read(), this.store.clock.now())) {
      // The PBX is restarting (maintenance `RestartPbx`): the service is down, so the connection is
      // dropped without a byte. The listener stays bound so an ephemeral port does not change.
      socket.on('error', () => {});
      socket.destroy();
      return;
    }
    const peer = socket.remoteAddress ?? '';
    const fromPeer = this.perAddress.get(peer) ?? 0;
    if (fromPeer >= this.limits.maxConnectionsPerAddress) {
      socket.on('error', () => {});
      socket.destroy();
      if (!this.addressesAtCap.has(peer)) {
        this.addressesAtCap.add(peer);
        this.store.log(
          'warning',
          'monitoring',
          `connection limit ${this.limits.maxConnectionsPerAddress} per address reached for ${peer}: its new connections are closed`,
        );
      }
      return;
    }
    this.addressesAtCap.delete(peer);
    if (this.sockets.size >= this.limits.maxConnections) this.makeRoom();
    else this.atCapacity = false;
    this.perAddress.set(peer, fromPeer + 1);
    const context = this.connectionContext;
    context.rawGraceMs = this.store.read().monitoring.rawGraceMs;
    const admitted: Admitted = { socket, peer, generation: this.generation, waiting: true };
    const served = serveConnection(socket, context, admitted);
    if (!socket.destroyed) this.sockets.set(socket, served);
  }

  /**
   * What every connection is served with, made once (issue 31 §3: nothing but the connection's
   * own object per connection). `rawGraceMs` is set from the settings before each connection.
   */
  private makeConnectionContext(): ConnectionContext<Admitted> {
    const store = this.store;
    // The core's context, made once too: the default format is read when the core asks for it.
    const answerContext: AnswerContext = {
      get defaultFormat() {
        return store.read().monitoring.defaultFormat;
      },
      render: (format) => this.render(format),
      onRenderError: (error, format) =>
        store.log(
          'error',
          'monitoring',
          `rendering ${format} failed: ${error instanceof Error ? error.message : String(error)}`,
        ),
    };
    return {
      limits: this.limits,
      rawGraceMs: 0,
      durationClock: this.durationClock,
      isAllowed: (address) => {
        const allowed = this.allowList.allows(address, store.read().monitoring.hosts);
        if (!allowed) store.log('info', 'monitoring', `connection from unlisted address ${address} closed`);
        return allowed;
      },
      answer: (request) => this.answerOverride?.(request) ?? answerRequest(request, answerContext),
      onAnswered: (admitted) => this.answered(admitted),
      onClosed: (admitted) => {
        this.sockets.delete(admitted.socket);
        this.answered(admitted);
      },
    };
  }

  /** A connection no longer waits for its answer: it stops counting against its address. */
  private answered(admitted: Admitted): void {
    if (!admitted.waiting || admitted.generation !== this.generation) return;
    admitted.waiting = false;
    const left = (this.perAddress.get(admitted.peer) ?? 1) - 1;
    if (left > 0) this.perAddress.set(admitted.peer, left);
    else this.perAddress.delete(admitted.peer);
  }

  /**
   * Closes the connection that has come least far (see `accept`) to free one slot. Map order is
   * acceptance order, so the first match of each phase is the oldest.
   */
  private makeRoom(): void {
    if (!this.atCapacity) {
      this.atCapacity = true;
      this.store.log(
        'warning',
        'monitoring',
        `connection limit ${this.limits.maxConnections} reached: the oldest idle connections are closed to make room`,
      );
    }
    for (const phase of EVICTION_ORDER) {
      for (const [socket, served] of this.sockets) {
        if (served.phase() !== phase) continue;
        this.sockets.delete(socket);
        socket.destroy();
        return;
      }
    }
  }

  private render(format: SnapshotFormat): Rendering {
    const jsonError = this.store.hasFault('json-serialisation-error');
    const body = renderFormat(this.cache.get(), format, {
      renderError: this.store.hasFault('render-error'),
      jsonError,
    });
    return { body, failed: jsonError && format === 'json' };
  }

  private async stopListener(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets.keys()) socket.destroy();
    this.sockets.clear();
    this.perAddress.clear();
    this.generation++;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The port-fallback warning stands while the fallback does (MON-STATE-PORT-FALLBACK). */
  private setWarning(text: string | undefined): void {
    if (this.fallbackWarning && this.fallbackWarning !== text) this.store.clearWarning(this.fallbackWarning);
    this.fallbackWarning = text;
    // Also after a store reset cleared the UI warnings while the fallback still stands.
    if (text && !this.store.warnings().includes(text)) this.store.warn(text);
  }
}
