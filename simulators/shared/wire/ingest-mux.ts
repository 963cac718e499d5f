import { connect, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { inProcessPipe, type LinkSocket } from './in-process-pipe.ts';
import { LineReader, MAX_LINE_BYTES } from './ingest-protocol.ts';
import { onLines } from './on-lines.ts';

/**
 * Many ingest sessions over one TCP connection (issue 31 §4): a shard of 10,000 PBXs opens one
 * connection to the controller instead of 10,000, so the controller's descriptors no longer bound
 * the fleet. Each session on it is still a whole ingest session (ingest-protocol.ts): its own
 * `hello` with site and key, its own `welcome` or `refused`, events, acknowledgements, batches and
 * cuts. Only the bytes share a connection.
 *
 * The connection's first line is {@link MUX_HELLO_LINE}. Every later line, either way, is a frame
 * `<channel>\t<line>`: `channel` a decimal number from 1 that the dialling side picks for each
 * session, rising, `line` one line of the ingest protocol without its newline. A frame with an
 * empty line closes the channel in both directions, from either side; a channel above every one
 * the accepting side has seen begins with its first frame, and frames still in flight for a
 * closed one are dropped. A frame that is not of this form ends the whole connection. A PBX on its own
 * (single, fake or real) never sends the mux line and keeps its one connection per session.
 */
export const MUX_HELLO_LINE = '{"type":"mux","version":1}';

/** Bound on one frame: an ingest line at its bound plus the channel number and the tab. */
export const MAX_FRAME_BYTES = MAX_LINE_BYTES + 16;

const FRAME = /^([1-9][0-9]{0,9})\t/;

/**
 * One session's end of a multiplexed connection: a socket as the ingest link and listener use it
 * (data, end, destroy, idle timeout), whose bytes travel as frames on the carrier. Ending or
 * destroying it closes the channel on both sides; a closed carrier destroys all its channels.
 */
export class MuxChannel extends Duplex implements LinkSocket {
  private partial = '';
  private closeSent = false;
  private remoteClosed = false;
  private idleMs = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  /** A dialled channel waiting for its turn to open (`MuxDialer`) is not idle: no timer runs yet. */
  private opened: boolean;
  /** Called once, at the first frame from the other side or when the channel goes. */
  private onAnswer: (() => void) | undefined;
  /** Where this session's lines go when its reader takes them whole (`takeLines`). */
  private lineHandler: ((line: string) => void) | undefined;

  constructor(
    readonly channel: number,
    private readonly carrier: MuxCarrier,
    opened = true,
  ) {
    super({ allowHalfOpen: false });
    this.opened = opened;
  }

  /** The dialling side opens the channel: `connect`, and the idle timer from now on. */
  open(onAnswer: () => void): void {
    if (this.destroyed) {
      onAnswer();
      return;
    }
    this.onAnswer = onAnswer;
    this.opened = true;
    if (this.idleMs > 0) this.setTimeout(this.idleMs);
    this.emit('connect');
  }

  override _read(): void {}

  /**
   * The session's reader (`onLines`) takes each line as the carrier delivers it, instead of the
   * line going through this stream as bytes and being split again (issue 31 §4: a shard's 10,000
   * sessions spent a good share of each event on it). Bounded as a line read from a socket is.
   */
  takeLines(handle: (line: string) => void): void {
    this.lineHandler = handle;
  }

  /**
   * Writes whole lines of text straight into frames; anything else goes the stream's way. Both
   * end in `frames`, in the order written (the stream's `_write` runs at once: nothing is held).
   */
  override write(
    chunk: unknown,
    encoding?: BufferEncoding | ((error?: Error | null) => void),
    callback?: (error?: Error | null) => void,
  ): boolean {
    if (
      typeof chunk !== 'string' ||
      this.destroyed ||
      this.writableEnded ||
      this.writableCorked > 0 ||
      this.writableLength > 0
    )
      return super.write(chunk, encoding as BufferEncoding, callback);
    this.frames(chunk);
    const done = typeof encoding === 'function' ? encoding : callback;
    if (done) process.nextTick(done);
    return true;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.frames(chunk.toString('utf8'));
    callback();
  }

  /** Sends each whole line of `chunk` as a frame, keeping a partial last line for the next. */
  private frames(chunk: string): void {
    this.touch();
    const text = this.partial + chunk;
    const last = text.lastIndexOf('\n');
    this.partial = text.slice(last + 1);
    if (last >= 0) {
      let start = 0;
      for (let at = text.indexOf('\n'); at >= 0 && at <= last; at = text.indexOf('\n', start)) {
        const line = text.slice(start, at);
        if (line !== '') this.carrier.send(this.channel, line);
        start = at + 1;
      }
    }
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.sendClose();
    // A close is for both directions: nothing more is read, and the channel goes.
    if (!this.remoteClosed) this.push(null);
    if (!this.readableFlowing) this.resume();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.disarm();
    this.answered();
    this.sendClose();
    this.carrier.forget(this.channel);
    callback(error);
  }

  /** A line for this session arrived on the carrier. */
  deliver(line: string): void {
    this.answered();
    this.touch();
    if (!this.lineHandler) {
      this.push(`${line}\n`);
      return;
    }
    // The frame's bound leaves room for the channel number: the line's own bound is checked here.
    if (line.length > MAX_LINE_BYTES / 3 && Buffer.byteLength(line) > MAX_LINE_BYTES) {
      this.destroy();
      return;
    }
    this.lineHandler(line);
  }

  /** The other side closed the channel: no more data, and the channel goes. */
  closedByPeer(): void {
    this.answered();
    this.remoteClosed = true;
    this.push(null);
    // An end nobody reads would otherwise keep the channel: read it out and go.
    if (!this.readableFlowing) this.resume();
  }

  setNoDelay(): this {
    return this;
  }

  setTimeout(ms: number, callback?: () => void): this {
    if (callback) this.once('timeout', callback);
    this.idleMs = ms;
    this.disarm();
    if (ms > 0 && !this.destroyed && this.opened) {
      this.idleTimer = setTimeout(() => this.emit('timeout'), ms);
      this.idleTimer.unref();
    }
    return this;
  }

  private answered(): void {
    const onAnswer = this.onAnswer;
    this.onAnswer = undefined;
    onAnswer?.();
  }

  private sendClose(): void {
    if (this.closeSent || this.remoteClosed) return;
    this.closeSent = true;
    this.carrier.send(this.channel, '');
  }

  private touch(): void {
    if (this.idleTimer && this.idleMs > 0) this.idleTimer.refresh();
  }

  private disarm(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}

/**
 * The frames of one multiplexed connection, either side: writes each channel's lines as frames
 * (the frames of one turn leave in one write), and hands each arriving frame to its channel.
 * On the accepting side `accept` is given each new channel; the dialling side opens its own.
 */
export class MuxCarrier {
  private readonly channels = new Map<number, MuxChannel>();
  /** The highest channel the other side opened: frames still in flight for a closed one are dropped. */
  private highestOpened = 0;
  private out: string[] = [];
  private flushing = false;

  constructor(
    private readonly socket: LinkSocket,
    private readonly accept?: {
      channel(channel: MuxChannel): void;
      allows(open: number): boolean;
      /**
       * A channel `allows` turned away, with its first line (the session's hello): the line to
       * answer it with before it is closed, so its session hears why; none: closed at once.
       */
      turnedAway?(firstLine: string): string | undefined;
    },
  ) {
    socket.on('close', () => {
      for (const channel of [...this.channels.values()]) channel.destroy();
      this.channels.clear();
    });
  }

  get size(): number {
    return this.channels.size;
  }

  get destroyed(): boolean {
    return this.socket.destroyed;
  }

  /** A channel opened by this side (the dialling side: `opened` false until its turn comes). */
  open(channel: number, opened = true): MuxChannel {
    const opened_ = new MuxChannel(channel, this, opened);
    this.channels.set(channel, opened_);
    return opened_;
  }

  /** Handles one line of the connection after the mux line; a malformed frame ends the connection. */
  receive(frame: string): void {
    const head = FRAME.exec(frame);
    if (!head) {
      this.socket.destroy();
      return;
    }
    const id = Number(head[1]);
    const line = frame.slice(head[0].length);
    let channel = this.channels.get(id);
    if (!channel) {
      if (line === '' || !this.accept || id <= this.highestOpened) return;
      this.highestOpened = id;
      if (!this.accept.allows(this.channels.size)) {
        const answer = this.accept.turnedAway?.(line);
        if (answer !== undefined) this.send(id, answer);
        this.send(id, '');
        return;
      }
      channel = this.open(id);
      this.accept.channel(channel);
    }
    if (line === '') channel.closedByPeer();
    else channel.deliver(line);
  }

  send(channel: number, line: string): void {
    if (this.socket.destroyed) return;
    this.out.push(`${channel}\t${line}\n`);
    if (this.flushing) return;
    this.flushing = true;
    process.nextTick(() => this.flush());
  }

  forget(channel: number): void {
    this.channels.delete(channel);
  }

  private flush(): void {
    this.flushing = false;
    const out = this.out;
    this.out = [];
    if (out.length > 0 && this.socket.writable) this.socket.write(out.join(''));
  }
}

/** Sessions of one connection that may wait for their first answer at once (`MuxDialer`). */
export const MAX_OPENING = 256;

/**
 * The dialling side for a shard (issue 31 §4): `dial()` opens a session on the shard's one
 * connection to the controller's ingest listener, opening that connection when there is none.
 * It fits `ControllerSettings.dial` of the PBX's controller link, which then speaks its whole
 * session over the channel as over its own socket: when the connection is lost, every channel
 * closes and each PBX's link reconnects on its own back-off, dialling a fresh connection.
 *
 * At most `MAX_OPENING` sessions wait for their first answer (`welcome` or `refused`) at a time;
 * the others wait for their turn before their `connect`, and their idle timers (the link's hello
 * timeout) start with it. So 10,000 PBXs starting at once send their hellos in waves the
 * controller answers within the timeout, instead of all at once, timing out and dialling again
 * while it is still busy with the first ones.
 */
export class MuxDialer {
  private carrier: { mux: MuxCarrier; socket: Socket; connected: boolean } | undefined;
  private nextChannel = 1;
  private closed = false;
  private waiting: MuxChannel[] = [];
  private opening = 0;

  /**
   * `onUnreachable` hears why a connection to the controller failed (refused, unreachable, reset),
   * each time; the sessions on it close and their links retry on their own back-off.
   */
  constructor(
    private readonly ingest: string,
    private readonly onUnreachable?: (why: string) => void,
  ) {
    const url = new URL(ingest);
    if (url.protocol !== 'tcp:' || !url.hostname || !url.port)
      throw new TypeError('ingest must be tcp://host:port');
  }

  /** Connections opened so far (1 while the first one holds). */
  connectionsOpened = 0;

  dial = (): LinkSocket => {
    if (this.closed) {
      // A closed dialer connects nothing: the link sees its connection close at once.
      const [dialling, accepting] = inProcessPipe();
      accepting.destroy();
      return dialling;
    }
    const carrier = this.current();
    const channel = carrier.mux.open(this.nextChannel++, false);
    this.waiting.push(channel);
    process.nextTick(() => this.pump());
    return channel;
  };

  close(): void {
    this.closed = true;
    this.carrier?.socket.destroy();
    this.carrier = undefined;
  }

  /** Opens waiting channels while fewer than `MAX_OPENING` wait for their first answer. */
  private pump(): void {
    const carrier = this.carrier;
    if (!carrier?.connected || carrier.socket.destroyed) return;
    while (this.opening < MAX_OPENING && this.waiting.length > 0) {
      const channel = this.waiting.shift()!;
      if (channel.destroyed) continue;
      this.opening++;
      let done = false;
      channel.open(() => {
        if (done) return;
        done = true;
        this.opening--;
        this.pump();
      });
    }
  }

  private current(): { mux: MuxCarrier; socket: Socket; connected: boolean } {
    if (this.carrier && !this.carrier.socket.destroyed) return this.carrier;
    const url = new URL(this.ingest);
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    const carrier = { mux: new MuxCarrier(socket as LinkSocket), socket, connected: false };
    this.carrier = carrier;
    this.connectionsOpened++;
    this.nextChannel = 1;
    // The channels of a lost connection are gone with it (destroyed: they answer their turn).
    this.waiting = [];
    this.opening = 0;
    socket.setNoDelay(true);
    // Written first, before any frame (a socket keeps what is written before it connects).
    socket.write(`${MUX_HELLO_LINE}\n`);
    socket.on('connect', () => {
      carrier.connected = true;
      this.pump();
    });
    const reader = new LineReader(MAX_FRAME_BYTES);
    onLines(socket, reader, (line) => carrier.mux.receive(line));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.onUnreachable?.(error.code ?? error.message);
      socket.destroy();
    });
    return carrier;
  }
}
