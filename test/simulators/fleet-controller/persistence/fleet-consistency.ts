import type { FleetState } from '../../../../simulators/fleet-controller/model/fleet-state.ts';

/** The ingest stream the crash writer uses (site, then its stream id, as the controller keys it). */
export const CRASH_SITE = 'site-kiel';
export const CRASH_STREAM = 'crash-stream';
export const CRASH_INGEST_MODULE = 'Ingest';

/** The PBXs the batched-ingestion crash test floods: one stream each, its events in `Strom <n>`. */
export const INGEST_PBXS = ['site-hamburg', 'site-kiel', 'site-bremen', 'site-muenchen'].map((siteId, n) => ({
  siteId,
  key: `ingest-key-${n}`,
  stream: `flood-${n}`,
  module: `Strom ${n}`,
}));

/** Occurrences the events of one flood stream made (each processed sequence number adds one). */
export function streamOccurrences(state: FleetState, pbx: (typeof INGEST_PBXS)[number]): number {
  return state.attention.book
    .itemsOf(pbx.siteId)
    .filter((item) => item.module === pbx.module)
    .reduce((sum, item) => sum + item.occurrences, 0);
}

/**
 * Everything that is wrong with a restored state, as readable lines (empty: consistent).
 * Checks, over whatever the crash writer (fixtures/crash-writer.ts) left behind:
 * - ids are unique and below the counters, history sequence numbers unique and increasing;
 * - no acknowledgement without its history entry (same item, partner access and time);
 * - no history entry without its acknowledgement: an entry written after the item's last report
 *   must still be the item's open-cycle acknowledgement (the writer gives every report and every
 *   acknowledgement its own controller-clock millisecond, reports at = clock);
 * - no duplicated history for one item and partner access (one entry per cycle: distinct times);
 * - counters agree with items: `accepted` is the sum of occurrences, and the crash stream's last
 *   processed sequence number equals the occurrences its events made (item and stream position
 *   were written in one transaction).
 */
export function consistencyProblems(state: FleetState): string[] {
  const problems: string[] = [];
  const counters = state.counters();
  const items = [...state.access.sites.keys()].flatMap((siteId) => state.attention.book.itemsOf(siteId));
  const ids = new Set<number>();
  for (const item of items) {
    if (ids.has(item.id)) problems.push(`item id ${item.id} appears twice`);
    ids.add(item.id);
    if (state.attention.book.get(item.id) !== item) problems.push(`item ${item.id} is not found by its id`);
    if (item.id >= counters.nextItemId)
      problems.push(`item ${item.id} is not below nextItemId ${counters.nextItemId}`);
  }
  let previousSeq = 0;
  const byItemPartner = new Map<string, number[]>();
  for (const h of state.attention.history) {
    if (h.seq <= previousSeq) problems.push(`history seq ${h.seq} after ${previousSeq}`);
    previousSeq = h.seq;
    if (h.seq > counters.historySeq)
      problems.push(`history seq ${h.seq} above the counter ${counters.historySeq}`);
    const item = state.attention.book.get(h.attention.id);
    if (!item || item.siteId !== h.siteId) {
      problems.push(`history ${h.seq} names item ${h.attention.id}, which is not there`);
      continue;
    }
    const key = `${item.id}/${h.partnerId}`;
    byItemPartner.set(key, [...(byItemPartner.get(key) ?? []), h.createdAt]);
    if (h.createdAt > item.lastAt && item.acks.get(h.partnerId)?.at !== h.createdAt) {
      problems.push(`history ${h.seq} (item ${item.id}, ${h.partnerId}) has no acknowledgement`);
    }
  }
  for (const [key, times] of byItemPartner) {
    if (new Set(times).size !== times.length)
      problems.push(`duplicated history for ${key}: ${times.join(', ')}`);
  }
  for (const item of items) {
    for (const [partnerId, ack] of item.acks) {
      if (!byItemPartner.get(`${item.id}/${partnerId}`)?.includes(ack.at))
        problems.push(`acknowledgement of item ${item.id} by ${partnerId} at ${ack.at} has no history entry`);
    }
  }
  const occurrences = items.reduce((sum, item) => sum + item.occurrences, 0);
  if (state.ingest.stats.accepted !== occurrences)
    problems.push(`stats.accepted ${state.ingest.stats.accepted} but ${occurrences} occurrences`);
  const streamed = state.attention.book
    .itemsOf(CRASH_SITE)
    .filter((item) => item.module === CRASH_INGEST_MODULE)
    .reduce((sum, item) => sum + item.occurrences, 0);
  const lastSeq = state.ingest.lastSequence(`${CRASH_SITE}\u0000${CRASH_STREAM}`);
  if (lastSeq !== streamed) problems.push(`stream at seq ${lastSeq} but ${streamed} ingested occurrences`);
  return problems;
}
