import type { AttentionItem } from '../model/types.ts';

/** An attention item as kept in the database: the acknowledgements of the open cycle as a list. */
export interface StoredItem extends Omit<AttentionItem, 'acks'> {
  acks: { partnerId: string; at: number }[];
}

/**
 * The stored form of `item`, its fields named one by one: a rest-and-spread copy cost a tenth of
 * the ingest listener's time with a data directory, one item written per event (issue 31 §3).
 * A required field added to `AttentionItem` fails to compile here; an optional one must be added.
 */
export function toStoredItem(item: AttentionItem): StoredItem {
  const acks: StoredItem['acks'] = [];
  for (const [partnerId, ack] of item.acks) acks.push({ partnerId, at: ack.at });
  const stored: StoredItem = {
    id: item.id,
    siteId: item.siteId,
    module: item.module,
    subject: item.subject,
    severity: item.severity,
    firstAt: item.firstAt,
    lastAt: item.lastAt,
    occurrences: item.occurrences,
    suppressed: item.suppressed,
    acks,
  };
  if (item.moduleId !== undefined) stored.moduleId = item.moduleId;
  if (item.description !== undefined) stored.description = item.description;
  return stored;
}

export function fromStoredItem(stored: StoredItem): AttentionItem {
  const { acks, ...rest } = stored;
  return { ...rest, acks: new Map(acks.map((a) => [a.partnerId, { at: a.at }])) };
}
