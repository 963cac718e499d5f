import { Duplex } from 'node:stream';

/**
 * What the ingest link uses of a connection, at either end: a `net.Socket`, or one end of an
 * in-process pipe (`inProcessPipe`). Events: `connect` (the dialling end), `data`, `timeout`,
 * `error`, `close`.
 */
export interface LinkSocket extends Duplex {
  setNoDelay(noDelay?: boolean): this;
  /** Idle timeout as `net.Socket.setTimeout`: `timeout` after `ms` without traffic; 0 disarms it. */
  setTimeout(ms: number, callback?: () => void): this;
}

/**
 * One end of an in-process pipe. What one end writes the other reads, in order, one I/O turn
 * later (`setImmediate`), as over a socket; ending one end ends the other (no half-open pipe),
 * destroying one destroys the other.
 */
class PipeEnd extends Duplex implements LinkSocket {
  peer: PipeEnd | undefined;
  private idleMs = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor() {
    super({ allowHalfOpen: false });
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.touch();
    setImmediate(() => {
      const peer = this.peer;
      if (peer && !peer.destroyed) {
        peer.touch();
        peer.push(chunk);
      }
      callback();
    });
  }

  override _final(callback: (error?: Error | null) => void): void {
    setImmediate(() => {
      const peer = this.peer;
      if (peer && !peer.destroyed) peer.push(null);
      callback();
    });
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.disarm();
    const peer = this.peer;
    this.peer = undefined;
    if (peer && !peer.destroyed) peer.destroy();
    callback(error);
  }

  setNoDelay(): this {
    return this;
  }

  setTimeout(ms: number, callback?: () => void): this {
    if (callback) this.once('timeout', callback);
    this.idleMs = ms;
    this.disarm();
    if (ms > 0 && !this.destroyed) {
      this.idleTimer = setTimeout(() => this.emit('timeout'), ms);
      this.idleTimer.unref();
    }
    return this;
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
 * A connection between two parts of one process that speak a socket protocol (issue 22: a PBX and
 * the fleet controller in the same process link without a socket pair, so a fleet of N PBXs holds
 * 2N descriptors instead of 4N). Returns `[dialling end, accepting end]`; the dialling end emits
 * `connect` on the next tick, as a socket does once connected.
 */
export function inProcessPipe(): [LinkSocket, LinkSocket] {
  const dialling = new PipeEnd();
  const accepting = new PipeEnd();
  dialling.peer = accepting;
  accepting.peer = dialling;
  process.nextTick(() => {
    if (!dialling.destroyed) dialling.emit('connect');
  });
  return [dialling, accepting];
}
