import { siteList } from '../model/caller-view.ts';
import type { FleetState } from '../model/fleet-state.ts';
import { etagOf } from './etag.ts';

/** A caller's site list as sent: the JSON text, its UTF-8 bytes and its ETag. */
export interface RenderedSiteList {
  body: string;
  bytes: Buffer;
  etag: string;
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
  private readonly entries = new Map<string, RenderedSiteList & { revision: number }>();

  constructor(private readonly state: FleetState) {}

  get(partnerId: string): RenderedSiteList {
    const revision = this.state.viewRevision(partnerId);
    const cached = this.entries.get(partnerId);
    if (cached?.revision === revision) return cached;
    const fresh = { ...renderSiteList(this.state, partnerId), revision };
    this.entries.delete(partnerId);
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(partnerId, fresh);
    return fresh;
  }
}
