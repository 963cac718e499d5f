import { siteList } from '../model/caller-view.ts';
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
 * Renders the site list `partnerId` sees, uncached (FLEET-SITES-LIST, FLEET-UNSPEC-ETAG: the ETag
 * is the hash of exactly these bytes).
 */
export function renderSiteList(state: FleetState, partnerId: string): RenderedSiteList {
  const body = JSON.stringify(siteList(state, partnerId));
  return { body, bytes: Buffer.from(body, 'utf8'), etag: etagOf(body) };
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
  private readonly entries = new Map<string, CachedSiteList & { revision: number }>();

  constructor(private readonly state: FleetState) {}

  get(partnerId: string): CachedSiteList {
    const revision = this.state.viewRevision(partnerId);
    const cached = this.entries.get(partnerId);
    if (cached?.revision === revision) return cached;
    const fresh = { ...withAnswers(renderSiteList(this.state, partnerId)), revision };
    this.entries.delete(partnerId);
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(partnerId, fresh);
    return fresh;
  }
}
