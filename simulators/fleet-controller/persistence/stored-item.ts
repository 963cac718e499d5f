import type { AttentionItem } from '../model/types.ts';

/** An attention item as kept in the database: the acknowledgements of the open cycle as a list. */
export interface StoredItem extends Omit<AttentionItem, 'acks'> {
  acks: { partnerId: string; at: number }[];
}

export function toStoredItem(item: AttentionItem): StoredItem {
  const { acks, ...rest } = item;
  return { ...rest, acks: [...acks].map(([partnerId, ack]) => ({ partnerId, at: ack.at })) };
}

export function fromStoredItem(stored: StoredItem): AttentionItem {
  const { acks, ...rest } = stored;
  return { ...rest, acks: new Map(acks.map((a) => [a.partnerId, { at: a.at }])) };
}
