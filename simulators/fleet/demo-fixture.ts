import { randomBytes } from 'node:crypto';
import type { FleetFixture } from '../fleet-controller/index.ts';

/** Partner that owns the sites added when `--pbx-count` exceeds the fixture's sites. */
const DEMO_SITE_OWNER = 'p-nordlicht';

/**
 * `base` with demo sites up to `count` sites (owned by Nordlicht when the fixture has it) and a
 * PBX (site and fresh ingest key) for each of the first `count` sites, in the fixture's order.
 */
export function demoFixture(
  base: FleetFixture,
  count: number,
  keyFor: (siteId: string) => string = () => randomBytes(32).toString('base64url'),
): FleetFixture {
  const fixture = structuredClone(base);
  const owner = fixture.partners.some((p) => p.id === DEMO_SITE_OWNER);
  const taken = new Set(fixture.sites.map((s) => s.id));
  for (let n = fixture.sites.length + 1; fixture.sites.length < count; n++) {
    const id = `site-demo-${n}`;
    if (taken.has(id)) continue;
    taken.add(id);
    fixture.sites.push({ id, displayName: `Demo-Standort ${n}` });
    if (owner) fixture.rights.push({ partnerId: DEMO_SITE_OWNER, siteId: id, kind: 'own' });
  }
  fixture.pbxs = fixture.sites.slice(0, count).map((site) => ({ siteId: site.id, key: keyFor(site.id) }));
  return fixture;
}
