import { type ScryptCost, start as startFleet } from '../../simulators/fleet-controller/index.ts';
import type { WebRoute } from '../../simulators/pbx/index.ts';
import { DEFAULT_XMLRPC_CREDENTIALS } from '../core/default-credentials.ts';
import { describeFuzzTarget, type FuzzTarget } from './fuzz-target.ts';

export interface InProcessOptions {
  /** Lower scrypt cost for tests (wrong passwords cost one hash each). */
  scryptCost?: ScryptCost;
  /**
   * Wraps the PBX web server's handler (tests seed a deviation with it, e.g. a 500 on a NUL byte).
   * Receives the real handler of each route.
   */
  wrapWeb?: (route: WebRoute) => WebRoute;
}

/**
 * A simulated PBX and fleet controller in this process, described like `simulate --json` does, for
 * tests (fast, and a deviation can be injected). The memory read is this process's.
 */
export async function startInProcessTarget(options: InProcessOptions = {}): Promise<FuzzTarget> {
  const {
    MAINTENANCE_BASE_PATH,
    pbxNow,
    pbxState,
    start: startPbx,
  } = await import('../../simulators/pbx/index.ts');
  const pbx = await startPbx({
    monitoringPort: 0,
    clock: { mode: 'frozen' },
    ...(options.wrapWeb ? { wrapWebRoute: options.wrapWeb } : {}),
  });
  const fleet = await startFleet({
    clock: { start: pbxNow(pbx) },
    ...(options.scryptCost ? { scryptCost: options.scryptCost } : {}),
  });
  const monitoring = /^tcp:\/\/(.+):(\d+)$/.exec(pbx.urls.monitoring ?? '');
  const state = pbxState(pbx);
  const described = await describeFuzzTarget(
    {
      name: 'embedded',
      pbx: {
        webUrl: pbx.urls.web,
        controlUrl: pbx.urls.control,
        ...(monitoring ? { monitoring: { host: monitoring[1] ?? '', port: Number(monitoring[2]) } } : {}),
        xmlrpc: {
          path: '/xml-rpc',
          instanceName: state.monitoring.instanceName,
          authParam: state.monitoring.authParam,
          ...DEFAULT_XMLRPC_CREDENTIALS,
        },
        listedClientAddress: '127.0.0.1',
        unlistedClientAddress: '127.0.0.2',
      },
      maintenance: { basePath: MAINTENANCE_BASE_PATH },
      fleet: {
        apiUrl: fleet.urls.api,
        mcpUrl: fleet.urls.mcp,
        controlUrl: fleet.urls.control,
        accounts: {
          partner: { email: 'anna.admin@nordlicht.example', password: 'Nordlicht-Demo-1' },
          viewer: { email: 'vera.viewer@nordlicht.example', password: 'Nordlicht-Demo-3' },
        },
        sites: { own: 'site-hamburg', foreign: 'site-muenchen' },
        mcpTokens: { readOnly: 'demo-anna-read-only-3Hs6PdJ1cR5yF0uE' },
      },
    },
    null,
  );
  return {
    ...described,
    rss: () => process.memoryUsage().rss,
    async close() {
      await fleet.close();
      await pbx.close();
    },
  };
}
