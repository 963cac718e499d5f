import { createHash } from 'node:crypto';
import { compareSites, siteView, visibleSites } from '../model/caller-view.ts';
import type { FleetState } from '../model/fleet-state.ts';
import type { ApiResponse } from './api-messages.ts';

/**
 * A caller's site list as sent: its UTF-8 bytes as consecutive blocks (`chunks`, written as they
 * are with one `writev`), their length and the ETag. `body` and `bytes`, the whole text and its
 * bytes in one piece, are joined only when read (tests, tools); the answer path never reads them.
 */
export interface RenderedSiteList {
  chunks: readonly Buffer[];
  length: number;
  etag: string;
  readonly body: string;
  readonly bytes: Buffer;
}

/** A rendered list with its two answers ready: the 304 and the 200 to a GET (issue 31 §3). */
export interface CachedSiteList extends RenderedSiteList {
  notModified: ApiResponse;
  ok: ApiResponse;
}

/** The JSON type of every answer (FLEET-JSON-UTF8). */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * FLEET-SITES-LIST, FLEET-SITES-NOT-MODIFIED, FLEET-UNSPEC-ETAG: the 304 carries the ETag and the
 * caching headers and no body; the 200 the same headers, the JSON type and the bytes, as blocks.
 */
function withAnswers(list: RenderedSiteList): CachedSiteList {
  const common = { etag: list.etag, 'cache-control': 'private, no-cache', vary: 'Authorization' };
  const ok = { ...common, 'content-type': JSON_TYPE, 'content-length': String(list.length) };
  const answer = (status: number, headers: Record<string, string>, withBody: boolean): ApiResponse => {
    const response: ApiResponse = {
      status,
      headers: Object.freeze(headers),
      rawHeaders: Object.freeze(Object.entries(headers).flat()),
    };
    if (withBody) {
      response.chunks = list.chunks;
      Object.defineProperties(response, {
        body: { get: () => list.body, enumerable: true },
        bytes: { get: () => list.bytes, enumerable: true },
      });
    }
    return Object.freeze(response);
  };
  return Object.assign(list, { notModified: answer(304, common, false), ok: answer(200, ok, true) });
}

/** Bound on cached lists (one per partner access); the oldest goes first. */
const MAX_ENTRIES = 1_000;

/**
 * Sites per block of a rendered list (issue 31 §4): at 100,000 sites a list is 10 MB, and under
 * field activity some site changes every few milliseconds. A change encodes and hashes the one
 * block of about 10 KB that holds the site, not the whole list. The sites touched between two
 * GETs fall anywhere in the list, so the smaller the block, the fewer bytes are encoded again: with
 * blocks of 1,000 sites, encoding blocks was still about a sixth of the controller's busy time in
 * a 100,000-PBX poll window; 1,000 hashes of 32 bytes for the ETag cost nothing beside it.
 */
export const SITES_PER_BLOCK = 100;

/** One block: the UTF-8 bytes of its sites' entries with the separators, and their SHA-256. */
interface Block {
  bytes: Buffer;
  hash: Buffer;
}

/**
 * A site list in parts: each listed site's entry as JSON text, the sites in list order
 * (FLEET-UNSPEC-ORDERING), and the list's bytes in blocks of `blockSize` sites in that order.
 * Block `i` holds the sites at positions `i × blockSize` to `(i + 1) × blockSize − 1`, led by `[`
 * (the first) or `,` (the others); the list ends with `]`. The blocks' bytes one after the other
 * are exactly the UTF-8 of `JSON.stringify(siteList(…))`.
 */
interface SiteListParts {
  /** siteId → its display name when rendered (the order follows it) and its entry's JSON. */
  entries: Map<string, { displayName: string; json: string }>;
  order: string[];
  /** siteId → its position in `order`. */
  position: Map<string, number>;
  blocks: Block[];
}

const CLOSE = Buffer.from(']');
const EMPTY = Buffer.from('[]');

function renderParts(state: FleetState, partnerId: string, blockSize: number): SiteListParts {
  const entries: SiteListParts['entries'] = new Map();
  const order: string[] = [];
  for (const { site, right } of visibleSites(state, partnerId)) {
    entries.set(site.id, {
      displayName: site.displayName,
      json: JSON.stringify(siteView(state, site, right)),
    });
    order.push(site.id);
  }
  const parts: SiteListParts = { entries, order, position: new Map(), blocks: [] };
  placeAll(parts, blockSize);
  return parts;
}

/** Numbers every site by its place and encodes every block (after a whole rendering or a reorder). */
function placeAll(parts: SiteListParts, blockSize: number): void {
  parts.position = new Map(parts.order.map((siteId, at) => [siteId, at]));
  parts.blocks = [];
  for (let block = 0; block * blockSize < parts.order.length; block++)
    parts.blocks.push(encodeBlock(parts, block, blockSize));
}

function encodeBlock(parts: SiteListParts, block: number, blockSize: number): Block {
  const from = block * blockSize;
  const ids = parts.order.slice(from, from + blockSize);
  const text = (block === 0 ? '[' : ',') + ids.map((siteId) => parts.entries.get(siteId)!.json).join(',');
  const bytes = Buffer.from(text, 'utf8');
  return { bytes, hash: createHash('sha256').update(bytes).digest() };
}

/**
 * The list as sent. FLEET-UNSPEC-ETAG: a strong ETag, the SHA-256 (base64url, first 32
 * characters) of the blocks' SHA-256 hashes in order, so it is a function of the exact bytes the
 * caller receives (and the block size): it differs per caller's view and changes exactly when
 * anything the caller sees changes, including findings other than `events`.
 */
function joined(parts: SiteListParts): RenderedSiteList {
  const chunks = parts.blocks.length === 0 ? [EMPTY] : [...parts.blocks.map((b) => b.bytes), CLOSE];
  const hash = createHash('sha256');
  for (const block of parts.blocks) hash.update(block.hash);
  if (parts.blocks.length === 0) hash.update(EMPTY);
  const etag = `"${hash.digest('base64url').slice(0, 32)}"`;
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  let whole: Buffer | undefined;
  const bytes = () => (whole ??= Buffer.concat(chunks, length));
  return {
    chunks,
    length,
    etag,
    get bytes() {
      return bytes();
    },
    get body() {
      return bytes().toString('utf8');
    },
  };
}

/**
 * Renders again only the entries of `touched` sites (issue 31 §4: at 100,000 sites a whole
 * rendering took 100 ms and more, and field activity changes some site many times a second), and
 * encodes again only the blocks holding them (all of them after a change of order).
 * Returns `false`, having changed nothing the caller keeps, when a touched site came into or went
 * out of the partner's view: the list must then be rendered whole.
 */
function renderTouched(
  state: FleetState,
  partnerId: string,
  parts: SiteListParts,
  touched: string[],
  blockSize: number,
): boolean {
  const rights = state.access.rights.get(partnerId);
  const fresh: [string, { displayName: string; json: string }][] = [];
  let reorder = false;
  for (const siteId of touched) {
    const right = rights?.get(siteId);
    const site = state.access.sites.get(siteId);
    const had = parts.entries.get(siteId);
    if (!right || !site) {
      if (had) return false;
      continue;
    }
    if (!had) return false;
    if (had.displayName !== site.displayName) reorder = true;
    fresh.push([
      siteId,
      { displayName: site.displayName, json: JSON.stringify(siteView(state, site, right)) },
    ]);
  }
  const dirty = new Set<number>();
  for (const [siteId, entry] of fresh) {
    if (parts.entries.get(siteId)!.json !== entry.json)
      dirty.add(Math.floor(parts.position.get(siteId)! / blockSize));
    parts.entries.set(siteId, entry);
  }
  if (reorder) {
    const named = parts.order.map((id) => ({
      site: { id, displayName: parts.entries.get(id)!.displayName },
    }));
    parts.order = named.sort(compareSites).map((n) => n.site.id);
    placeAll(parts, blockSize);
    return true;
  }
  for (const block of dirty) parts.blocks[block] = encodeBlock(parts, block, blockSize);
  return true;
}

/**
 * Renders the site list `partnerId` sees, uncached (FLEET-SITES-LIST, FLEET-UNSPEC-ETAG), in blocks
 * of `blockSize` sites.
 */
export function renderSiteList(
  state: FleetState,
  partnerId: string,
  blockSize = SITES_PER_BLOCK,
): RenderedSiteList {
  return joined(renderParts(state, partnerId, blockSize));
}

/**
 * The rendered site list of each partner access, kept until `FleetState.viewRevision` says that
 * something it shows has changed (FLEET-SITES-NOT-MODIFIED, FLEET-UNSPEC-ETAG). A 304 then costs a
 * lookup and a header comparison instead of rendering and hashing the whole list.
 *
 * The key is the partner access alone: the list depends on its rights, the sites, their items
 * and acknowledgements by that partner, inventories and reachability, never on the account or its
 * role (those only matter to history and acknowledging), nor on the controller clock — findings
 * compare times inside the inventory (PBX clock), so a list rendered earlier stays exact.
 */
export class SiteListCache {
  private readonly entries = new Map<string, CachedSiteList & { revision: number; parts: SiteListParts }>();

  constructor(
    private readonly state: FleetState,
    private readonly blockSize = SITES_PER_BLOCK,
  ) {
    if (!Number.isSafeInteger(blockSize) || blockSize < 1)
      throw new RangeError(`sites per block must be a whole number ≥ 1, not ${blockSize}`);
  }

  get(partnerId: string): CachedSiteList {
    const revision = this.state.viewRevision(partnerId);
    const cached = this.entries.get(partnerId);
    if (cached?.revision === revision) return cached;
    // Only the sites touched since the kept rendering are rendered again, when that is all that
    // changed, and only their blocks encoded and hashed again; the ETag is hashed from the blocks'
    // hashes.
    const touched = cached && this.state.sitesTouchedSince(partnerId, cached.revision);
    const parts =
      cached && touched && renderTouched(this.state, partnerId, cached.parts, touched, this.blockSize)
        ? cached.parts
        : renderParts(this.state, partnerId, this.blockSize);
    const fresh = Object.assign(withAnswers(joined(parts)), { revision, parts });
    this.entries.delete(partnerId);
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(partnerId, fresh);
    return fresh;
  }
}
