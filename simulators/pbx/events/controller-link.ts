import { EventEmitter } from 'node:events';
import { connect } from 'node:net';
import type { LinkSocket } from '../../shared/wire/in-process-pipe.ts';
import {
  encodeLine,
  LineReader,
  type PbxMessage,
  PROTOCOL_VERSION,
  parseLine,
  type RefusalReason,
} from '../../shared/wire/ingest-protocol.ts';
import { onLines } from '../../shared/wire/on-lines.ts';

/** Where the PBX's management module reaches its controller (EVENT-UNSPEC-TRANSPORT). */
export interface ControllerSettings {
  /** The controller's ingest listener, `tcp://host:port`. */
  ingest: string;
  siteId: string;
  /** The ingest key the controller issued for this PBX (a secret: never logged). */
  key: string;
  /**
   * Opens a connection to the controller's ingest listener without a socket, when the controller
   * runs in this process (issue 22: an in-process pipe carrying the same lines, so a pooled fleet
   * holds no socket pair per PBX). Absent: TCP to `ingest`.
   */
  dial?: () => LinkSocket;
  /**
   * Hears each refusal of the controller (issue 29 item 5), as the link's `refused` event: a shard
   * stops at its first `bad-key` (a wrong fleet secret) instead of buffering events for ever.
   */
  onRefused?: (reason: RefusalReason) => void;
}

export type LinkState = 'disabled' | 'cut' | 'connecting' | 'up' | 'down';

export interface ChannelEvents {
  /** The controller welcomed us; `lastSeq` is the highest sequence it has processed for the stream. */
  up: [lastSeq: number];
  down: [];
  ack: [seq: number];
  refused: [reason: RefusalReason];
}

/** What the forwarder needs of a link; the TCP link below, or an in-memory one in tests. */
export interface ControllerChannel extends EventEmitter<ChannelEvents> {
  readonly state: LinkState;
  /** Writes a message; only called while `state` is `up`. */
  send(message: PbxMessage): void;
  /** PBX-side cut: disconnect and stay down until `restore()`. */
  cut(): void;
  restore(): void;
  /** Skips the reconnect back-off (tests, control plane). */
  reconnectNow(): void;
  close(): Promise<void>;
}

export interface LinkTiming {
  /** First reconnect delay, real ms; doubles up to `retryMaxMs`. */
  retryMinMs: number;
  retryMaxMs: number;
  /** A connection without `welcome` after this long is dropped. */
  helloTimeoutMs: number;
  /**
   * Delay after a refusal other than `link-cut` (wrong key, unknown site): no point in hurrying.
   * Each further refusal in a row doubles it, up to `refusedRetryMaxMs`; a `welcome` resets it.
   */
  refusedRetryMs: number;
  refusedRetryMaxMs: number;
}

const DEFAULT_TIMING: LinkTiming = {
  retryMinMs: 20,
  retryMaxMs: 500,
  helloTimeoutMs: 5_000,
  refusedRetryMs: 5_000,
  refusedRetryMaxMs: 60_000,
};

/**
 * The PBX end of the link to the controller (EVENT-UNSPEC-TRANSPORT): one TCP connection carrying
 * JSON lines (`ingest-protocol.ts`), or the same lines over an in-process pipe when the settings
 * bring a `dial` (a controller in this process). It says `hello` with site, key and stream id, becomes `up` on
 * `welcome`, and after any loss reconnects on its own with back-off. Reconnects run on real
 * timers: network retries are not simulated time, and a frozen virtual clock must not stall them.
 */
export class TcpControllerLink extends EventEmitter<ChannelEvents> implements ControllerChannel {
  private socket: LinkSocket | undefined;
  private current: LinkState = 'down';
  private retryMs: number;
  /** The back-off of refusals in a row (0: the last answer was no refusal). */
  private refusedMs = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly timing: LinkTiming;

  constructor(
    private readonly settings: ControllerSettings,
    private readonly stream: string,
    timing: Partial<LinkTiming> = {},
  ) {
    super();
    this.timing = { ...DEFAULT_TIMING, ...timing };
    this.retryMs = this.timing.retryMinMs;
    const url = new URL(settings.ingest);
    if (url.protocol !== 'tcp:' || !url.hostname || !url.port)
      throw new TypeError('ingest must be tcp://host:port');
    this.open();
  }

  get state(): LinkState {
    return this.current;
  }

  send(message: PbxMessage): void {
    if (this.current === 'up' && this.socket?.writable) this.socket.write(encodeLine(message));
  }

  cut(): void {
    if (this.closed) return;
    this.clearRetry();
    const wasUp = this.current === 'up';
    this.current = 'cut';
    this.socket?.destroy();
    this.socket = undefined;
    if (wasUp) this.emit('down');
  }

  restore(): void {
    if (this.closed || this.current !== 'cut') return;
    this.current = 'down';
    this.retryMs = this.timing.retryMinMs;
    this.open();
  }

  reconnectNow(): void {
    if (this.closed || this.current !== 'down') return;
    this.clearRetry();
    this.retryMs = this.timing.retryMinMs;
    this.open();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.clearRetry();
    const socket = this.socket;
    this.socket = undefined;
    if (this.current === 'up') this.emit('down');
    this.current = 'disabled';
    if (socket && !socket.destroyed) {
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.destroy();
      });
    }
  }

  private open(): void {
    const url = new URL(this.settings.ingest);
    this.current = 'connecting';
    const socket = this.settings.dial?.() ?? connect({ host: url.hostname, port: Number(url.port) });
    this.socket = socket;
    socket.setNoDelay(true);
    socket.setTimeout(this.timing.helloTimeoutMs, () => {
      if (this.current === 'connecting') socket.destroy();
    });
    const reader = new LineReader();
    socket.on('connect', () => {
      socket.write(
        encodeLine({
          type: 'hello',
          version: PROTOCOL_VERSION,
          siteId: this.settings.siteId,
          key: this.settings.key,
          stream: this.stream,
        }),
      );
    });
    onLines(socket, reader, (line) => this.onLine(socket, line));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.onClose(socket));
  }

  private onLine(socket: LinkSocket, line: string): void {
    if (socket !== this.socket) return;
    const msg = parseLine(line);
    if (!msg) return;
    if (msg.type === 'welcome' && this.current === 'connecting') {
      socket.setTimeout(0);
      this.current = 'up';
      this.retryMs = this.timing.retryMinMs;
      this.refusedMs = 0;
      const lastSeq = typeof msg['lastSeq'] === 'number' ? msg['lastSeq'] : 0;
      this.emit('up', lastSeq);
    } else if (msg.type === 'ack' && typeof msg['seq'] === 'number') {
      this.emit('ack', msg['seq']);
    } else if (msg.type === 'refused') {
      const reason = msg['reason'] as RefusalReason;
      if (reason !== 'link-cut') {
        const { refusedRetryMs, refusedRetryMaxMs } = this.timing;
        this.refusedMs =
          this.refusedMs === 0 ? refusedRetryMs : Math.min(refusedRetryMaxMs, this.refusedMs * 2);
        this.retryMs = Math.max(this.retryMs, this.refusedMs);
      }
      this.emit('refused', reason);
      this.settings.onRefused?.(reason);
    }
  }

  private onClose(socket: LinkSocket): void {
    if (socket !== this.socket) return;
    this.socket = undefined;
    if (this.closed || this.current === 'cut') return;
    const wasUp = this.current === 'up';
    this.current = 'down';
    if (wasUp) this.emit('down');
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    this.clearRetry();
    const delay = this.retryMs;
    this.retryMs = Math.max(this.timing.retryMinMs, Math.min(this.timing.retryMaxMs, this.retryMs * 2));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.closed && this.current === 'down') this.open();
    }, delay);
    this.retryTimer.unref();
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }
}
