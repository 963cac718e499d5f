import { endianness } from 'node:os';
import type { Severity } from '../../shared/wire/severity.ts';
import type { AttentionItem } from '../model/types.ts';
import { DataFormatError } from './data-format-error.ts';

/**
 * The part of an attention item a merge rarely changes, kept as JSON in the `items` table (store
 * format 2): who it belongs to, its merge key, the fields that follow the latest report but seldom
 * change, and the acknowledgements of the open cycle as a list. Written when the item is created,
 * acknowledged, or merged with a report that changes one of these (issue 31 §3).
 */
export interface StoredItemDetails {
  id: number;
  siteId: string;
  module: string;
  moduleId?: string;
  subject: string;
  description?: string;
  acks: { partnerId: string; at: number }[];
}

/**
 * The part every merge changes, in the `itemCounts` table: `firstAt`, `lastAt`, `occurrences`,
 * `suppressed` and the severity's code, five little-endian float64 (every one a safe integer). A
 * batch of 500 merges writes 500 of these 40-byte values instead of 500 JSON records of ~250
 * bytes each (issue 31 §3: the records' encoding was a third of the ingest listener's time).
 */
export const ITEM_COUNTS_BYTES = 40;

/** The severity codes of `itemCounts`: part of the on-disk format, whatever order SEVERITIES has. */
export const STORED_SEVERITIES: readonly Severity[] = ['INFO', 'WARNING', 'ERROR', 'CRITICAL'];
const SEVERITY_CODE = new Map(STORED_SEVERITIES.map((severity, code) => [severity, code]));

/**
 * The details of `item`, its fields named one by one: a rest-and-spread copy cost a tenth of the
 * ingest listener's time with a data directory (issue 31 §3). A required field added to
 * `AttentionItem` fails to compile in `fromStoredItem`; an optional one must be added here.
 */
export function toItemDetails(item: AttentionItem): StoredItemDetails {
  const acks: StoredItemDetails['acks'] = [];
  for (const [partnerId, ack] of item.acks) acks.push({ partnerId, at: ack.at });
  const stored: StoredItemDetails = {
    id: item.id,
    siteId: item.siteId,
    module: item.module,
    subject: item.subject,
    acks,
  };
  if (item.moduleId !== undefined) stored.moduleId = item.moduleId;
  if (item.description !== undefined) stored.description = item.description;
  return stored;
}

/** Whether this machine's float64 layout is the stored one (a Float64Array then writes it as is). */
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * The counts of each of `items` as a value of its own, all views of one buffer (one allocation
 * per batch; a `Float64Array` fills it: five `writeDoubleLE` calls and a `Buffer` view per item
 * were a twentieth of the ingest listener's time, issue 31 §3).
 */
export function encodeItemCounts(items: readonly AttentionItem[]): Uint8Array[] {
  const buffer = new ArrayBuffer(items.length * ITEM_COUNTS_BYTES);
  const values: Uint8Array[] = new Array(items.length);
  const numbers = LITTLE_ENDIAN ? new Float64Array(buffer) : null;
  const view = numbers ? null : new DataView(buffer);
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const at = i * 5;
    const code = SEVERITY_CODE.get(item.severity) ?? -1;
    if (numbers) {
      numbers[at] = item.firstAt;
      numbers[at + 1] = item.lastAt;
      numbers[at + 2] = item.occurrences;
      numbers[at + 3] = item.suppressed;
      numbers[at + 4] = code;
    } else {
      const offset = at * 8;
      view!.setFloat64(offset, item.firstAt, true);
      view!.setFloat64(offset + 8, item.lastAt, true);
      view!.setFloat64(offset + 16, item.occurrences, true);
      view!.setFloat64(offset + 24, item.suppressed, true);
      view!.setFloat64(offset + 32, code, true);
    }
    values[i] = new Uint8Array(buffer, i * ITEM_COUNTS_BYTES, ITEM_COUNTS_BYTES);
  }
  return values;
}

/** The counts of `item` as a value of their own. */
export function itemCounts(item: AttentionItem): Uint8Array {
  return encodeItemCounts([item])[0]!;
}

/** The item a details record and its counts make; a damaged or foreign value is a `DataFormatError`. */
export function fromStoredItem(details: StoredItemDetails, counts: Uint8Array | undefined): AttentionItem {
  if (counts === undefined || counts.length !== ITEM_COUNTS_BYTES)
    throw new DataFormatError(`attention item ${details.id} has no readable counts record`);
  const view = Buffer.from(counts.buffer, counts.byteOffset, counts.length);
  const number = (offset: number) => {
    const value = view.readDoubleLE(offset);
    if (!Number.isSafeInteger(value))
      throw new DataFormatError(`attention item ${details.id} has a damaged counts record`);
    return value;
  };
  const severity = STORED_SEVERITIES[number(32)];
  if (severity === undefined)
    throw new DataFormatError(`attention item ${details.id} has an unknown severity code`);
  const item: AttentionItem = {
    id: details.id,
    siteId: details.siteId,
    module: details.module,
    subject: details.subject,
    severity,
    firstAt: number(0),
    lastAt: number(8),
    occurrences: number(16),
    suppressed: number(24),
    acks: new Map(details.acks.map((a) => [a.partnerId, { at: a.at }])),
  };
  if (details.moduleId !== undefined) item.moduleId = details.moduleId;
  if (details.description !== undefined) item.description = details.description;
  return item;
}

/** An item as store format 1 kept it: one JSON record, rewritten whole on every merge. */
export interface StoredItemV1 extends Omit<AttentionItem, 'acks'> {
  acks: { partnerId: string; at: number }[];
}

/** A format-1 record as the two parts of format 2 (the migration of an older data directory). */
export function splitItemV1(stored: StoredItemV1): { details: StoredItemDetails; counts: Uint8Array } {
  const numbers = [stored.id, stored.firstAt, stored.lastAt, stored.occurrences, stored.suppressed];
  if (
    !numbers.every(Number.isSafeInteger) ||
    !SEVERITY_CODE.has(stored.severity) ||
    typeof stored.siteId !== 'string' ||
    typeof stored.module !== 'string' ||
    typeof stored.subject !== 'string' ||
    !Array.isArray(stored.acks)
  )
    throw new DataFormatError(`attention item ${String(stored.id)} of store format 1 is not readable`);
  const item: AttentionItem = {
    ...stored,
    acks: new Map(stored.acks.map((a) => [a.partnerId, { at: a.at }])),
  };
  return { details: toItemDetails(item), counts: itemCounts(item) };
}
