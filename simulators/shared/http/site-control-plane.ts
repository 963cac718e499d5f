import {
  createControlDispatcher,
  errorResponse,
  type RawControlRequest,
  type RawControlResponse,
} from './control-dispatch.ts';
import type { ControlRoute } from './control-route.ts';

/** Where a site-addressed control plane mounts the PBXs: `/pbx/{siteId}/…`. */
export const SITE_CONTROL_PREFIX = '/pbx';

type Dispatch = (request: RawControlRequest) => Promise<RawControlResponse>;

interface SiteEntry {
  routes: readonly ControlRoute[] | (() => readonly ControlRoute[]);
  dispatch?: Dispatch;
}

/**
 * One control plane for a whole fleet of simulated PBXs (issue 22): every PBX's route table (the
 * same table its own control listener would serve, schemas/pbx-control.openapi.yaml) is reached at
 * `/pbx/{siteId}/…` on the controller's control plane instead of one listener per PBX, so a client
 * of a single PBX's plane works unchanged with `…/pbx/{siteId}` as its base URL. `GET /pbx` lists
 * the site ids (`SITE_OPERATIONS`, served beside the plane's own routes by the control server). Each site's dispatcher is compiled on its first request and kept.
 */
export class SiteControlPlane {
  private readonly sites = new Map<string, SiteEntry>();

  /**
   * Mounts a PBX's control routes at `/pbx/{siteId}`; given as a function, they are asked for at
   * the site's first request (a PBX builds them on first use).
   */
  add(siteId: string, routes: readonly ControlRoute[] | (() => readonly ControlRoute[])): void {
    this.sites.set(siteId, { routes });
  }

  remove(siteId: string): void {
    this.sites.delete(siteId);
  }

  get size(): number {
    return this.sites.size;
  }

  siteIds(): string[] {
    return [...this.sites.keys()];
  }

  /** `…/pbx/{siteId}` under a control plane's base URL. */
  static siteUrl(controlUrl: string, siteId: string): string {
    return `${controlUrl.replace(/\/+$/, '')}${SITE_CONTROL_PREFIX}/${encodeURIComponent(siteId)}`;
  }

  /**
   * Answers a request under `/pbx`, or returns `undefined` for any other path (the plane's own
   * routes then answer it). An unknown site is 404 `not_found`; a site's own errors are its
   * plane's (the PBX control plane's codes).
   */
  dispatch(request: RawControlRequest): Promise<RawControlResponse> | undefined {
    const queryAt = request.url.indexOf('?');
    const path = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    if (path !== SITE_CONTROL_PREFIX && !path.startsWith(`${SITE_CONTROL_PREFIX}/`)) return undefined;
    const rest = path.slice(SITE_CONTROL_PREFIX.length + 1);
    // `/pbx` itself is the declared `listSites` (simulators/shared/control/site-operations.ts).
    if (rest === '') return undefined;
    const slash = rest.indexOf('/');
    const rawSite = slash === -1 ? rest : rest.slice(0, slash);
    let siteId: string;
    try {
      siteId = decodeURIComponent(rawSite);
    } catch {
      return Promise.resolve(errorResponse(400, 'invalid_request', 'the path is not valid percent-encoding'));
    }
    const entry = this.sites.get(siteId);
    if (!entry)
      return Promise.resolve(
        errorResponse(404, 'not_found', `no PBX of site ${siteId} on this control plane`),
      );
    entry.dispatch ??= createControlDispatcher(
      typeof entry.routes === 'function' ? entry.routes() : entry.routes,
    );
    const inner = slash === -1 ? '/' : rest.slice(slash);
    const query = queryAt === -1 ? '' : request.url.slice(queryAt);
    return entry.dispatch({ ...request, url: `${inner}${query}` });
  }
}
