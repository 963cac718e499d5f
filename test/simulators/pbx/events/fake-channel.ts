import { EventEmitter } from 'node:events';
import type {
  ChannelEvents,
  ControllerChannel,
  LinkState,
} from '../../../../simulators/pbx/events/controller-link.ts';
import type { EventMessage, PbxMessage } from '../../../../simulators/shared/wire/ingest-protocol.ts';

/**
 * An in-memory link with a model controller behind it: it records every message, applies each
 * event sequence number once (as the real ingest listener does), and acknowledges on `deliver()`.
 */
export class FakeChannel extends EventEmitter<ChannelEvents> implements ControllerChannel {
  state: LinkState = 'down';
  /** Every message written, re-sends included. */
  readonly wire: PbxMessage[] = [];
  /** Events the model controller applied, each sequence number once. */
  readonly applied: EventMessage[] = [];
  private lastSeq = 0;
  private unacked: number[] = [];

  send(message: PbxMessage): void {
    if (this.state !== 'up') throw new Error('send while not up');
    this.wire.push(structuredClone(message));
    if (message.type !== 'event') return;
    if (message.seq > this.lastSeq) {
      this.lastSeq = message.seq;
      this.applied.push(structuredClone(message));
    }
    this.unacked.push(message.seq);
  }

  /** Acknowledges everything received so far. */
  deliver(): void {
    const seqs = this.unacked;
    this.unacked = [];
    for (const seq of seqs) this.emit('ack', seq);
  }

  up(): void {
    this.state = 'up';
    this.emit('up', this.lastSeq);
  }

  /** The link drops; acknowledgements not yet delivered are lost with it. */
  down(): void {
    if (this.state !== 'up') return;
    this.state = 'down';
    this.unacked = [];
    this.emit('down');
  }

  cut(): void {
    this.down();
    this.state = 'cut';
  }

  restore(): void {
    if (this.state === 'cut') this.state = 'down';
  }

  reconnectNow(): void {}

  async close(): Promise<void> {
    this.down();
    this.state = 'disabled';
  }

  events(): EventMessage[] {
    return this.wire.filter((m): m is EventMessage => m.type === 'event');
  }
}
