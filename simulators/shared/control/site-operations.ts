import { z } from 'zod';
import type { SiteControlPlane } from '../http/site-control-plane.ts';
import { defineOperations, type Effects } from './control-operation.ts';

/**
 * The operation of a control plane that serves many PBXs at `/pbx/{siteId}/…` (issue 22;
 * schemas/fleet-control.openapi.yaml, tag `sites`): which sites it serves. Every request below
 * `/pbx/{siteId}` is that PBX's own control plane (schemas/pbx-control.openapi.yaml).
 */
export const SITE_OPERATIONS = defineOperations({
  listSites: {
    method: 'GET',
    path: '/pbx',
    summary: 'The site ids of the PBXs served at /pbx/{siteId}',
    tag: 'sites',
    answers: 'How many PBXs, and their site ids.',
    actsOn: 'the mounted PBXs (reads)',
    output: z.strictObject({
      count: z.int().min(0),
      siteIds: z.array(z.string()).describe('In the order the PBXs were started.'),
    }),
  },
});

/** What the site operations do on one `SiteControlPlane`. */
export function siteEffects(plane: SiteControlPlane): Effects<typeof SITE_OPERATIONS> {
  return { listSites: () => ({ count: plane.size, siteIds: plane.siteIds() }) };
}
