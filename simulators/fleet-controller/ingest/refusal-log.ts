import type { RefusalReason } from '../../shared/wire/ingest-protocol.ts';

/** Peers (and reasons) remembered at most: past it one more line says the rest go unlogged. */
const MAX_REMEMBERED = 1_000;

/** What each refusal tells the operator (EVENT-UNSPEC-TRANSPORT; the key itself is never shown). */
const MEANING: Record<RefusalReason, string> = {
  'bad-key': "its ingest key is not the site's (a shard with another fleet secret?)",
  'unknown-site': 'no PBX is registered for that site here (a shard of a fleet of another size?)',
  'bad-hello': 'its first line is not a hello of this protocol',
  'link-cut': "the control plane cut the site's link",
  'connection-limit':
    'the listener holds as many connections (shard channels included) as it takes; the link retries after its back-off',
};

/**
 * The controller's log of refused PBX links (issue 29 item 5): one line for each peer address and
 * reason, the first time, naming the peer, the site the hello named and the reason, never the key.
 * A shard retrying 10,000 sessions with a wrong fleet secret over one connection, and again after
 * each back-off, gives one line, not 10,000 per attempt. A peer is the remote address without its
 * port (a reconnect has a new port), `in-process` for a PBX of this process.
 */
export class RefusalLog {
  private readonly seen = new Set<string>();
  private full = false;

  constructor(private readonly warn: (line: string) => void) {}

  note(peer: string, refusal: { reason: RefusalReason; siteId: string | null }): void {
    const key = `${peer}\u0000${refusal.reason}`;
    if (this.seen.has(key) || this.full) return;
    if (this.seen.size >= MAX_REMEMBERED) {
      this.full = true;
      this.warn(
        `ingest: refused links from more than ${MAX_REMEMBERED} peers; further refusals are not logged`,
      );
      return;
    }
    this.seen.add(key);
    const site = refusal.siteId === null ? '' : ` for site ${JSON.stringify(refusal.siteId.slice(0, 80))}`;
    this.warn(
      `ingest: refused a PBX link from ${peer}${site}: ${refusal.reason}, ${MEANING[refusal.reason]} (logged once per peer and reason)`,
    );
  }
}

/** The peer of a connection as `RefusalLog` names it. */
export function peerOf(socket: { remoteAddress?: string | undefined }): string {
  const address = socket.remoteAddress;
  if (address === undefined) return 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
