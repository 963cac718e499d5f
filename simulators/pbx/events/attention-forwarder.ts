import { randomBytes } from 'node:crypto';
import type { TimerId } from '../../shared/clock.ts';
import type { EventMessage, WireAttentionEvent } from '../../shared/wire/ingest-protocol.ts';
import type { LogLevel, PbxStore } from '../state/store.ts';
import type { AttentionEvent } from './attention-event.ts';
import {
  type ControllerChannel,
  type ControllerSettings,
  type LinkState,
  TcpControllerLink,
} from './controller-link.ts';
import { ForwardingLimiter } from './forwarding-limiter.ts';
import { OutageBuffer } from './outage-buffer.ts';
import { inventoryKey, pbxInventory } from './pbx-inventory.ts';

/** What became of one raised event. */
export type RaiseOutcome =
  /** EVENT-NO-FORWARD-WITHOUT-PARTNER */
  | 'not-released'
  /** EVENT-THROTTLE-RATE: counted, reaches the controller as `suppressed` later (per module and subject). */
  | 'withheld'
  /** EVENT-FORWARD-WITH-PARTNER: written to the open link. */
  | 'sent'
  /** EVENT-BUFFER-OFFLINE: the link is down; kept for after the reconnect. */
  | 'buffered';

/**
 * Counters of the forwarder. They reconcile exactly:
 * `raised = notReleased + withheld + forwarded` and
 * `forwarded = delivered + dropped + buffered + inFlight`;
 * every withheld report is either in `pendingSuppressed` or was carried to the controller as
 * `suppressed` on a forwarded message.
 */
export interface ForwarderStats {
  raised: number;
  notReleased: number;
  withheld: number;
  forwarded: number;
  delivered: number;
  dropped: number;
  buffered: number;
  inFlight: number;
  /** Withheld reports not yet carried by a forwarded message, over all modules and subjects. */
  pendingSuppressed: number;
}

export interface ForwarderStatus {
  link: LinkState;
  /** Site the link is configured for, or `null`; the key is never shown. */
  siteId: string | null;
  stats: ForwarderStats;
}

interface Outgoing {
  /** The item the message merges into on the controller (`itemKey`): withheld counts follow it. */
  key: string;
  message: EventMessage;
}

export interface ForwarderOptions {
  /** The controller to connect to at start; `null`/absent: not configured (events are buffered). */
  controller?: ControllerSettings | null;
  /** Replaces the TCP link (unit tests). */
  channelFactory?: (settings: ControllerSettings, stream: string) => ControllerChannel;
  /** The inventory is re-sent this often on the PBX clock (default 5 minutes). */
  inventoryIntervalMs?: number;
}

const LEVEL: Record<WireAttentionEvent['severity'], LogLevel> = {
  INFO: 'info',
  WARNING: 'warning',
  ERROR: 'error',
  CRITICAL: 'error',
};

/**
 * The management module's side of attention events (maintenance-and-fleet-api.md, "Events",
 * "Limits"). Owned by the PBX composition root; reads and changes the one `PbxStore`.
 *
 * For every raised event, in order:
 * 1. EVENT-SYSTEM-REPORT: a system report is written (module log, source `events`, and
 *    `system.systemMessages` + 1; EVENT-UNSPEC-PARTNER-RELEASE: the simulator's form).
 * 2. EVENT-NO-FORWARD-WITHOUT-PARTNER: without `maintenance.partnerReleased` nothing else happens.
 * 3. EVENT-THROTTLE-BURST, EVENT-THROTTLE-RATE, EVENT-THROTTLE-PER-MODULE: the module's token
 *    bucket (`forwarding-limiter.ts`; the module is keyed by `moduleId`, or by the display name
 *    when the event has none) decides, per module and system as the spec says; a withheld report
 *    is counted for its module *and subject* (`itemKey`).
 * 4. EVENT-THROTTLE-SUPPRESSED, FLEET-ITEM-SUPPRESSED, EVENT-UNSPEC-THROTTLE-ALGORITHM: the item is
 *    identified by site, module and subject, and its `suppressed` counts the withheld reports *of
 *    that item*. So a forwarded report carries, as `suppressed`, the withheld reports of its own
 *    module and subject since the last forwarded one of them; the controller adds them to the item
 *    that report merges into. Withheld reports of another subject wait for a forwarded report of
 *    theirs (a subject whose reports were all withheld has no item to show them on).
 * 5. EVENT-BUFFER-OFFLINE, EVENT-BUFFER-LIMIT: with the link up the message is sent at once;
 *    otherwise it goes into the outage buffer of 20 (EVENT-UNSPEC-BUFFER-OVERFLOW: the oldest is
 *    dropped and counted as `dropped`, not as `suppressed`; the withheld count it carried moves to
 *    the next buffered message of its module and subject, or back to their pending count, so no
 *    withheld report goes uncounted). Messages sent before an outage but not yet acknowledged are
 *    kept apart and re-sent after the reconnect; the controller's `welcome` says which it already has.
 */
export class AttentionForwarder {
  private readonly limiter = new ForwardingLimiter();
  private readonly buffer = new OutageBuffer<Outgoing>();
  private readonly inFlight = new Map<number, Outgoing>();
  private readonly pending = new Map<string, number>();
  private counters = zeroCounters();
  private seq = 0;
  private stream = newStream();
  private channel: ControllerChannel | undefined;
  private settings: ControllerSettings | null = null;
  /** The controller this PBX started with, which `reset()` returns to. */
  private readonly initialSettings: ControllerSettings | null;
  /** `inventoryKey` of the inventory last sent ('' before the first on a link). */
  private lastInventory = '';
  /** Set while the forwarder's own system report changes the state: nothing the inventory shows. */
  private reporting = false;
  private inventoryTimer: TimerId | undefined;
  private refreshQueued: NodeJS.Immediate | undefined;
  private readonly channelFactory: (settings: ControllerSettings, stream: string) => ControllerChannel;
  private readonly inventoryIntervalMs: number;
  private readonly onStoreChange = () => {
    if (!this.reporting) this.sendInventory(false);
  };
  private readonly onStoreReset = () => this.reset();
  private closed = false;
  private lastRefusal: string | undefined;

  constructor(
    private readonly store: PbxStore,
    options: ForwarderOptions = {},
  ) {
    this.channelFactory =
      options.channelFactory ?? ((settings, stream) => new TcpControllerLink(settings, stream));
    this.inventoryIntervalMs = options.inventoryIntervalMs ?? 5 * 60 * 1000;
    store.on('change', this.onStoreChange);
    // The control plane's reset returns the PBX to its start: the module starts fresh too.
    store.on('reset', this.onStoreReset);
    this.initialSettings = options.controller ? { ...options.controller } : null;
    if (this.initialSettings) this.configure(this.initialSettings);
  }

  /** Raises an attention event as a module on this PBX would. */
  raise(event: AttentionEvent): RaiseOutcome {
    const now = this.store.clock.now();
    const wire: WireAttentionEvent = {
      module: event.module,
      subject: event.subject,
      severity: event.severity,
      at: event.at ?? now,
    };
    if (event.moduleId !== undefined) wire.moduleId = event.moduleId;
    if (event.description !== undefined) wire.description = event.description;
    this.counters.raised++;
    this.systemReport(wire);

    if (!this.store.read().maintenance.partnerReleased) {
      this.counters.notReleased++;
      return 'not-released';
    }
    const key = itemKey(wire);
    if (!this.limiter.take(wire.moduleId ?? wire.module, now)) {
      this.counters.withheld++;
      this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
      return 'withheld';
    }
    const suppressed = this.pending.get(key) ?? 0;
    this.pending.delete(key);
    const out: Outgoing = { key, message: { type: 'event', seq: ++this.seq, event: wire, suppressed } };
    this.counters.forwarded++;
    if (this.channel?.state === 'up') {
      this.inFlight.set(out.message.seq, out);
      this.channel.send(out.message);
      return 'sent';
    }
    this.bufferMessage(out);
    return 'buffered';
  }

  /** Connects to a controller (replacing any previous link), or with `null` disconnects. */
  configure(settings: ControllerSettings | null): void {
    const old = this.channel;
    this.channel = undefined;
    if (old) {
      this.moveInFlightToBuffer();
      void old.close();
    }
    this.settings = settings ? { ...settings } : null;
    if (settings && !this.closed) this.attach(this.channelFactory(settings, this.stream));
  }

  /** PBX-side cut of the link (EVENT-BUFFER-OFFLINE): stays down until `restore()`. */
  cut(): void {
    this.channel?.cut();
  }

  restore(): void {
    this.channel?.restore();
  }

  reconnectNow(): void {
    this.channel?.reconnectNow();
  }

  status(): ForwarderStatus {
    return {
      link: this.channel?.state ?? 'disabled',
      siteId: this.settings?.siteId ?? null,
      stats: this.stats(),
    };
  }

  stats(): ForwarderStats {
    let pendingSuppressed = 0;
    for (const n of this.pending.values()) pendingSuppressed += n;
    return {
      ...this.counters,
      buffered: this.buffer.length,
      inFlight: this.inFlight.size,
      pendingSuppressed,
    };
  }

  /**
   * Resolves once the link is up and nothing is buffered or unacknowledged; rejects after
   * `timeoutMs` of real time (the harness's own timeout, never the virtual clock).
   */
  whenDelivered(timeoutMs = 10_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const check = () => {
        if (this.channel?.state === 'up' && this.buffer.length === 0 && this.inFlight.size === 0)
          return resolve();
        if (Date.now() - started > timeoutMs)
          return reject(new Error(`attention events not delivered within ${timeoutMs} ms`));
        setTimeout(check, 5);
      };
      check();
    });
  }

  /**
   * Back to a fresh module: limiter, buffers, counters, a new stream; the link is re-opened with
   * the settings the PBX started with, whatever `configure` (`PUT /events/controller`, `null`
   * included) and `cut` did since (issue 20, item 18). Runs by itself on the store's `reset` event.
   */
  reset(): void {
    this.limiter.clear();
    this.buffer.clear();
    this.inFlight.clear();
    this.pending.clear();
    this.counters = zeroCounters();
    this.seq = 0;
    this.stream = newStream();
    this.lastInventory = '';
    this.configure(this.initialSettings);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.store.off('change', this.onStoreChange);
    this.store.off('reset', this.onStoreReset);
    this.stopInventoryTimer();
    if (this.refreshQueued) clearImmediate(this.refreshQueued);
    this.refreshQueued = undefined;
    const channel = this.channel;
    this.channel = undefined;
    await channel?.close();
  }

  private attach(channel: ControllerChannel): void {
    this.channel = channel;
    channel.on('up', (lastSeq) => {
      if (this.channel !== channel) return;
      this.lastRefusal = undefined;
      this.flush(channel, lastSeq);
      this.lastInventory = '';
      this.sendInventory(true);
      this.startInventoryTimer();
    });
    channel.on('ack', (seq) => {
      if (this.channel === channel && this.inFlight.delete(seq)) this.counters.delivered++;
    });
    channel.on('down', () => {
      if (this.channel === channel) this.stopInventoryTimer();
    });
    channel.on('refused', (reason) => {
      // One log line per change of reason, not one per reconnect attempt.
      if (this.channel !== channel || reason === this.lastRefusal) return;
      this.lastRefusal = reason;
      this.store.log('warning', 'events', `Controller refused the link: ${reason}`, { reason });
    });
  }

  /** After (re)connect: drop what the controller already has, re-send the rest, then the buffer. */
  private flush(channel: ControllerChannel, lastSeq: number): void {
    for (const [seq] of this.inFlight) {
      if (seq <= lastSeq) {
        this.inFlight.delete(seq);
        this.counters.delivered++;
      }
    }
    for (const out of this.inFlight.values()) channel.send(out.message);
    for (const out of this.buffer.drain()) {
      this.inFlight.set(out.message.seq, out);
      channel.send(out.message);
    }
  }

  private bufferMessage(out: Outgoing): void {
    const dropped = this.buffer.push(out);
    if (!dropped) return;
    this.counters.dropped++;
    const carried = dropped.message.suppressed;
    if (carried === 0) return;
    const next = this.buffer.peek().find((o) => o.key === dropped.key);
    if (next) next.message.suppressed += carried;
    else this.pending.set(dropped.key, (this.pending.get(dropped.key) ?? 0) + carried);
  }

  /** When the link is replaced, unacknowledged messages wait in front of the buffer. */
  private moveInFlightToBuffer(): void {
    const waiting = [...this.inFlight.values(), ...this.buffer.drain()];
    this.inFlight.clear();
    for (const out of waiting) this.bufferMessage(out);
  }

  private systemReport(event: WireAttentionEvent): void {
    // The count of system messages is no part of the inventory: no look at it for this change.
    this.reporting = true;
    try {
      this.store.update((s) => {
        s.system.systemMessages++;
      });
    } finally {
      this.reporting = false;
    }
    const data: Record<string, unknown> = {
      module: event.module,
      subject: event.subject,
      severity: event.severity,
      at: event.at,
    };
    if (event.moduleId !== undefined) data['moduleId'] = event.moduleId;
    this.store.log(
      LEVEL[event.severity],
      'events',
      `System report from ${event.module}: ${event.subject}`,
      data,
    );
  }

  /** Sends the inventory when it changed (or always with `force`), only while the link is up. */
  private sendInventory(force: boolean): void {
    const channel = this.channel;
    if (channel?.state !== 'up') return;
    const state = this.store.read();
    const key = inventoryKey(state);
    if (!force && key === this.lastInventory) return;
    this.lastInventory = key;
    channel.send({ type: 'inventory', inventory: pbxInventory(state, this.store.clock.now()) });
  }

  private startInventoryTimer(): void {
    this.stopInventoryTimer();
    if (this.closed) return;
    this.inventoryTimer = this.store.clock.setTimer(() => {
      this.inventoryTimer = undefined;
      this.queueInventoryRefresh();
      if (this.channel?.state === 'up') this.startInventoryTimer();
    }, this.inventoryIntervalMs);
  }

  /**
   * The periodic refresh is sent once the clock stops moving: a control-plane advance over years
   * fires the timer for every interval in one go, and only the state at its end is worth sending
   * (one line instead of hundreds of thousands queued on the link).
   */
  private queueInventoryRefresh(): void {
    if (this.refreshQueued) return;
    this.refreshQueued = setImmediate(() => {
      this.refreshQueued = undefined;
      if (!this.closed) this.sendInventory(true);
    });
  }

  private stopInventoryTimer(): void {
    if (this.inventoryTimer !== undefined) this.store.clock.clearTimer(this.inventoryTimer);
    this.inventoryTimer = undefined;
  }
}

/**
 * What withheld counts are kept under: the module's display name and the subject, as the controller
 * identifies an item by site, module and subject (EVENT-KEY-SITE-MODULE-SUBJECT,
 * FLEET-ITEM-SUPPRESSED). The subject is taken as raised; the controller merges subjects that agree
 * up to its cut into one item, which then adds the counts of both.
 */
function itemKey(event: WireAttentionEvent): string {
  return JSON.stringify([event.module, event.subject]);
}

function zeroCounters() {
  return { raised: 0, notReleased: 0, withheld: 0, forwarded: 0, delivered: 0, dropped: 0 };
}

function newStream(): string {
  return randomBytes(8).toString('hex');
}
