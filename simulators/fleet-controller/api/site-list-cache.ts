import { compareSites, siteView, visibleSites } from '../model/caller-view.ts';
import type { FleetState } from '../model/fleet-state.ts';
import type { ApiResponse } from './api-messages.ts';
import { etagOf } from './etag.ts';

/** A caller's site list as sent: the JSON text, its UTF-8 bytes and its ETag. */
export interface RenderedSiteList {
  body: string;
  bytes: Buffer;
  etag: string;
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
 * caching headers and no body; the 200 the same headers, the JSON type and the bytes.
 */
function withAnswers(list: RenderedSiteList): CachedSiteList {
  const common = { etag: list.etag, 'cache-control': 'private, no-cache', vary: 'Authorization' };
  const ok = { ...common, 'content-type': JSON_TYPE, 'content-length': String(list.bytes.length) };
  const answer = (status: number, headers: Record<string, string>, withBody: boolean): ApiResponse =>
    Object.freeze({
      status,
      headers: Object.freeze(headers),
      rawHeaders: Object.freeze(Object.entries(headers).flat()),
      ...(withBody ? { body: list.body, bytes: list.bytes } : {}),
    });
  return { ...list, notModified: answer(304, common, false), ok: answer(200, ok, true) };
}

/** Bound on cached lists (one per partner access); the oldest goes first. */
const MAX_ENTRIES = 1_000;

/**
 * A site list in parts: each listed site's entry as JSON text, and the sites in list order
 * (FLEET-UNSPEC-ORDERING). Joined, the parts are exactly `JSON.stringify(siteList(…))`.
 */
interface SiteListParts {
  /** siteId → its display name when rendered (the order follows it) and its entry's JSON. */
  entries: Map<string, { displayName: string; json: string }>;
  order: string[];
}

function renderParts(state: FleetState, partnerId: string): SiteListParts {
  const entries: SiteListParts['entries'] = new Map();
  const order: string[] = [];
  for (const { site, right } of visibleSites(state, partnerId)) {
    entries.set(site.id, {
      displayName: site.displayName,
      json: JSON.stringify(siteView(state, site, right)),
    });
    order.push(site.id);
  }
  return { entries, order };
}

function joined(parts: SiteListParts): RenderedSiteList {
  const body = `[${parts.order.map((siteId) => parts.entries.get(siteId)!.json).join(',')}]`;
  const bytes = Buffer.from(body, 'utf8');
  return { body, bytes, etag: etagOf(bytes) };
}

/**
 * Renders again only the entries of `touched` sites (issue 31 §4: at 100,000 sites a whole
 * rendering took 100 ms and more, and field activity changes some site many times a second).
 * Returns `false`, having changed nothing the caller keeps, when a touched site came into or went
 * out of the partner's view: the list must then be rendered whole.
 */
function renderTouched(
  state: FleetState,
  partnerId: string,
  parts: SiteListParts,
  touched: string[],
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
  for (const [siteId, entry] of fresh) parts.entries.set(siteId, entry);
  if (reorder) {
    const named = parts.order.map((id) => ({
      site: { id, displayName: parts.entries.get(id)!.displayName },
    }));
    parts.order = named.sort(compareSites).map((n) => n.site.id);
  }
  return true;
}

/**
 * Renders the site list `partnerId` sees, uncached (FLEET-SITES-LIST, FLEET-UNSPEC-ETAG: the ETag
 * is the hash of exactly these bytes).
 */
export function renderSiteList(state: FleetState, partnerId: string): RenderedSiteList {
  return joined(renderParts(state, partnerId));
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

  constructor(private readonly state: FleetState) {}

  get(partnerId: string): CachedSiteList {
    const revision = this.state.viewRevision(partnerId);
    const cached = this.entries.get(partnerId);
    if (cached?.revision === revision) return cached;
    // Only the sites touched since the kept rendering are rendered again, when that is all that
    // changed; the parts are then joined and hashed afresh (the ETag is the hash of the bytes).
    const touched = cached && this.state.sitesTouchedSince(partnerId, cached.revision);
    const parts =
      cached && touched && renderTouched(this.state, partnerId, cached.parts, touched)
        ? cached.parts
        : renderParts(this.state, partnerId);
    const fresh = { ...withAnswers(joined(parts)), revision, parts };
    this.entries.delete(partnerId);
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(partnerId, fresh);
    return fresh;
  }
}
