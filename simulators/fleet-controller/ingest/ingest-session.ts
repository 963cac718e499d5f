import { timingSafeEqual } from 'node:crypto';
import {
  asEvent,
  asHello,
  asInventory,
  type ControllerMessage,
  parseLine,
  type RefusalReason,
} from '../../shared/wire/ingest-protocol.ts';
import type { PbxInventory } from '../../shared/wire/pbx-inventory.ts';
import type { RequestLogger } from '../api/api-core.ts';
import type { AttentionReport } from '../model/types.ts';

/**
 * What one ingest session needs of the controller, and nothing more: the session is a socket-free
 * state machine over this port, so it can be driven line by line in unit tests.
 */
export interface IngestPort {
  /** The registered link of a known site; `undefined` for an unknown site or one without a PBX. */
  link(siteId: string): { keySha256: string; cut: boolean } | undefined;
  /** Lowercase hex SHA-256 of a presented ingest key (compared with `keySha256` in constant time). */
  hashKey(key: string): string;
  lastSequence(stream: string): number;
  /** Whether `seq` is new for `stream` (and remembers it); a repeat is counted as a duplicate. */
  acceptSequence(stream: string, seq: number): boolean;
  report(siteId: string, report: AttentionReport): void;
  /** Keeps `inventory` as the site's: a fresh one (`asInventory`'s) that nothing else holds. */
  setInventory(siteId: string, inventory: PbxInventory): void;
  /** A malformed line from a PBX that said hello (counted in the control plane's stats). */
  countInvalid(): void;
}

/**
 * One PBX connection on the ingest link (EVENT-UNSPEC-TRANSPORT; the protocol is
 * simulators/shared/wire/ingest-protocol.ts): lines in, answers out, no socket.
 *
 * - The first line must be a `hello` naming a known site with its key; otherwise `refused`
 *   (`bad-hello`, `unknown-site`, `bad-key`, `link-cut`) and the session is over.
 * - Each valid `event` is reported once per stream and sequence number (EVENT-FIRST-REPORT-OPENS,
 *   EVENT-REPEAT-MERGED, EVENT-THROTTLE-SUPPRESSED) and acknowledged; a repeat is acknowledged
 *   again but not applied twice. A malformed event is counted and, when it carries a usable
 *   `seq`, acknowledged so the PBX does not re-send it for ever.
 * - `inventory` replaces the site's inventory (FLEET-FINDINGS-SELF-CLEARING).
 */
export class IngestSession {
  /** The site after a successful hello. */
  siteId: string | null = null;
  /** Refused or cut: further lines are ignored and the session no longer counts as connected. */
  closed = false;
  /** Why the session was refused (the site its hello named, the reason), for the controller's log. */
  refusal: { reason: RefusalReason; siteId: string | null } | null = null;
  /** The site the hello named, known or not (for `refusal`). */
  private claimedSite: string | null = null;
  private stream: string | null = null;

  constructor(
    private readonly port: IngestPort,
    private readonly log: RequestLogger = () => {},
  ) {}

  /** Whether the session counts as a live connection of `siteId`. */
  connectedTo(siteId: string): boolean {
    return this.siteId === siteId && !this.closed;
  }

  /** Handles one line (without its newline) and returns the answers to send, in order. */
  receive(line: string): ControllerMessage[] {
    if (this.closed) return [];
    const msg = parseLine(line);
    if (this.siteId === null) return this.hello(msg);
    const siteId = this.siteId;
    if (this.port.link(siteId) === undefined) return this.refuse('unknown-site');
    if (msg?.type === 'inventory') {
      const inventory = asInventory(msg['inventory']);
      if (inventory) this.port.setInventory(siteId, inventory);
      else this.port.countInvalid();
      return [];
    }
    const event = msg && asEvent(msg);
    if (!event) {
      this.port.countInvalid();
      const seq = msg?.['seq'];
      return typeof seq === 'number' && Number.isSafeInteger(seq) ? [{ type: 'ack', seq }] : [];
    }
    if (this.port.acceptSequence(this.stream ?? '', event.seq)) {
      // `asEvent` made the event a copy of its own: it becomes the report as it is. An object
      // spread here cost more than the rest of the report's merge (issue 31 §3).
      const report = event.event as AttentionReport;
      report.suppressed = event.suppressed;
      this.port.report(siteId, report);
    }
    return [{ type: 'ack', seq: event.seq }];
  }

  /** The control plane cut the site's link: the session is refused (`link-cut`). */
  cut(): ControllerMessage[] {
    return this.refuse('link-cut');
  }

  private hello(msg: ReturnType<typeof parseLine>): ControllerMessage[] {
    const hello = msg && asHello(msg);
    if (!hello) return this.refuse('bad-hello');
    this.claimedSite = hello.siteId;
    const link = this.port.link(hello.siteId);
    if (!link) return this.refuse('unknown-site');
    const given = Buffer.from(this.port.hashKey(hello.key), 'hex');
    const expected = Buffer.from(link.keySha256, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return this.refuse('bad-key');
    }
    if (link.cut) return this.refuse('link-cut');
    this.siteId = hello.siteId;
    this.stream = `${hello.siteId}\u0000${hello.stream}`;
    this.log({ face: 'ingest', method: 'HELLO', path: hello.siteId, status: 200 });
    return [{ type: 'welcome', lastSeq: this.port.lastSequence(this.stream) }];
  }

  private refuse(reason: RefusalReason): ControllerMessage[] {
    if (this.closed) return [];
    this.closed = true;
    this.refusal = { reason, siteId: this.siteId ?? this.claimedSite };
    this.log({ face: 'ingest', method: 'REFUSE', path: this.siteId ?? '-', status: 403 });
    return [{ type: 'refused', reason }];
  }
}
