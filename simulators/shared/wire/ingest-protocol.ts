import type { PbxInventory } from './pbx-inventory.ts';
import { isSeverity, type Severity } from './severity.ts';

/**
 * The link between a PBX's management module and the controller (EVENT-UNSPEC-TRANSPORT): one
 * long-lived TCP connection per PBX to the controller's ingest listener, carrying JSON objects one
 * per line (UTF-8, `\n`-terminated, at most `MAX_LINE_BYTES` each).
 *
 * PBX → controller:
 * - `hello` first: site, the PBX's ingest key, and a stream id that names this forwarder instance;
 * - `event`: one forwarded attention event with its sequence number and the withheld count of its
 *   module and subject (`suppressed`);
 * - `inventory`: what the findings are evaluated from, on connect and whenever it changes.
 *
 * controller → PBX:
 * - `welcome` with the highest sequence number of this stream already processed, so re-sent
 *   messages are recognised and each event counts exactly once;
 * - `refused` (unknown site, wrong key, link cut, or `connection-limit`: the listener holds as many
 *   connections and shard channels as it takes) and the connection closes;
 * - `ack` per processed event.
 */
export const PROTOCOL_VERSION = 1;

/** Bound on one line; a longer one closes the connection (bad input never grows a buffer unbounded). */
export const MAX_LINE_BYTES = 256 * 1024;

/** An attention event as the PBX sends it (the fields of EVENT-UNSPEC-ATTENTIONEVENT-FIELDS). */
export interface WireAttentionEvent {
  module: string;
  moduleId?: string;
  subject: string;
  description?: string;
  severity: Severity;
  /** Time of the event by the PBX clock, ms since 1970 UTC. */
  at: number;
}

export interface HelloMessage {
  type: 'hello';
  version: number;
  siteId: string;
  key: string;
  stream: string;
}
export interface EventMessage {
  type: 'event';
  seq: number;
  event: WireAttentionEvent;
  suppressed: number;
}
export interface InventoryMessage {
  type: 'inventory';
  inventory: PbxInventory;
}
export type PbxMessage = HelloMessage | EventMessage | InventoryMessage;

export type RefusalReason = 'bad-hello' | 'unknown-site' | 'bad-key' | 'link-cut' | 'connection-limit';
export type ControllerMessage =
  | { type: 'welcome'; lastSeq: number }
  | { type: 'refused'; reason: RefusalReason }
  | { type: 'ack'; seq: number };

export function encodeLine(message: PbxMessage | ControllerMessage): string {
  // The most frequent line, one per event: the bytes JSON.stringify gives, without building them.
  if (message.type === 'ack') return `{"type":"ack","seq":${message.seq}}\n`;
  return `${JSON.stringify(message)}\n`;
}

/** Splits a byte stream into lines; throws `LineTooLongError` past `MAX_LINE_BYTES` without a newline. */
export class LineReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private maxBytes = MAX_LINE_BYTES) {}

  /** Raises the bound for the lines still to come (a connection that turned out to carry frames). */
  allow(maxBytes: number): void {
    this.maxBytes = maxBytes;
  }

  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, start)) {
      const part = chunk.subarray(start, i);
      if (this.pendingBytes + part.length > this.maxBytes) throw new LineTooLongError();
      // A line that came whole in this chunk is decoded where it lies, without a copy.
      lines.push(
        this.pending.length === 0
          ? part.toString('utf8')
          : Buffer.concat([...this.pending, part]).toString('utf8'),
      );
      this.pending = [];
      this.pendingBytes = 0;
      start = i + 1;
    }
    const rest = chunk.subarray(start);
    if (rest.length > 0) {
      this.pendingBytes += rest.length;
      if (this.pendingBytes > this.maxBytes) throw new LineTooLongError();
      this.pending.push(rest);
    }
    return lines;
  }
}

export class LineTooLongError extends Error {
  override name = 'LineTooLongError';
}

/** Parses one line as an object with a string `type`, or `null`. */
export function parseLine(line: string): ({ type: string } & Record<string, unknown>) | null {
  try {
    const value: unknown = JSON.parse(line);
    if (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      typeof (value as { type?: unknown }).type === 'string'
    ) {
      return value as { type: string } & Record<string, unknown>;
    }
  } catch {
    // fall through
  }
  return null;
}

export function asHello(msg: Record<string, unknown>): HelloMessage | null {
  const { siteId, key, stream, version } = msg;
  if (
    msg['type'] !== 'hello' ||
    typeof siteId !== 'string' ||
    typeof key !== 'string' ||
    typeof stream !== 'string'
  )
    return null;
  if (stream.length === 0 || stream.length > 200) return null;
  return {
    type: 'hello',
    version: typeof version === 'number' ? version : PROTOCOL_VERSION,
    siteId,
    key,
    stream,
  };
}

/** Validates an `event` message; `null` when malformed (it is then counted as invalid and acknowledged). */
export function asEvent(msg: Record<string, unknown>): EventMessage | null {
  const { seq, event, suppressed } = msg;
  if (msg['type'] !== 'event' || !isCount(seq) || seq < 1 || !isCount(suppressed)) return null;
  if (typeof event !== 'object' || event === null) return null;
  const e = event as Record<string, unknown>;
  if (typeof e['module'] !== 'string' || e['module'] === '' || typeof e['subject'] !== 'string') return null;
  if (!isSeverity(e['severity']) || typeof e['at'] !== 'number' || !Number.isSafeInteger(e['at']))
    return null;
  if (e['moduleId'] !== undefined && typeof e['moduleId'] !== 'string') return null;
  if (e['description'] !== undefined && typeof e['description'] !== 'string') return null;
  const wire: WireAttentionEvent = {
    module: e['module'],
    subject: e['subject'],
    severity: e['severity'],
    at: e['at'],
  };
  if (typeof e['moduleId'] === 'string') wire.moduleId = e['moduleId'];
  if (typeof e['description'] === 'string') wire.description = e['description'];
  return { type: 'event', seq, event: wire, suppressed };
}

/** Validates and copies an inventory (from the link or the control plane); `null` when malformed. */
export function asInventory(value: unknown): PbxInventory | null {
  if (!isObject(value)) return null;
  const { at, pbxVersion, updateKind, sipProviders, backups, modules } = value;
  if (typeof at !== 'number' || typeof pbxVersion !== 'string' || typeof updateKind !== 'string') return null;
  if (!Array.isArray(sipProviders) || !Array.isArray(backups) || !Array.isArray(modules)) return null;
  const inventory: PbxInventory = { at, pbxVersion, updateKind, sipProviders: [], backups: [], modules: [] };
  for (const p of sipProviders) {
    if (!isObject(p) || typeof p['uri'] !== 'string' || typeof p['registered'] !== 'boolean') return null;
    inventory.sipProviders.push({ uri: p['uri'], registered: p['registered'] });
  }
  for (const b of backups) {
    if (!isObject(b) || typeof b['target'] !== 'string') return null;
    const run = b['lastRun'];
    const success = b['lastSuccessAt'];
    if (
      run !== null &&
      !(isObject(run) && typeof run['time'] === 'number' && typeof run['result'] === 'string')
    )
      return null;
    if (success !== null && typeof success !== 'number') return null;
    inventory.backups.push({
      target: b['target'],
      lastRun: run === null ? null : { time: run['time'] as number, result: run['result'] as string },
      lastSuccessAt: success,
    });
  }
  for (const m of modules) {
    if (
      !isObject(m) ||
      typeof m['name'] !== 'string' ||
      typeof m['id'] !== 'string' ||
      typeof m['worstStatus'] !== 'number'
    ) {
      return null;
    }
    inventory.modules.push({ name: m['name'], id: m['id'], worstStatus: m['worstStatus'] });
  }
  return inventory;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
