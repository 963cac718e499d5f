/** EVENT-BUFFER-OFFLINE, EVENT-BUFFER-LIMIT: messages kept while the channel to the controller is down. */
export const OUTAGE_BUFFER_LIMIT = 20;

/**
 * The bounded buffer of messages produced while the link to the controller is down.
 *
 * EVENT-UNSPEC-BUFFER-OVERFLOW: when a 21st message arrives the oldest one is dropped, so the
 * newest 20 (the most current picture) are sent after reconnect. `push` returns the dropped
 * message so the forwarder can count it and keep its withheld count (`attention-forwarder.ts`).
 */
export class OutageBuffer<T> {
  private readonly items: T[] = [];

  constructor(readonly limit = OUTAGE_BUFFER_LIMIT) {}

  push(item: T): T | undefined {
    this.items.push(item);
    return this.items.length > this.limit ? this.items.shift() : undefined;
  }

  /** Removes and returns everything, oldest first. */
  drain(): T[] {
    return this.items.splice(0, this.items.length);
  }

  /** The buffered messages, oldest first (read-only view). */
  peek(): readonly T[] {
    return this.items;
  }

  get length(): number {
    return this.items.length;
  }

  clear(): void {
    this.items.length = 0;
  }
}
