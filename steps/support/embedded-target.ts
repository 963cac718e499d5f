import { httpPbxControl, MAINTENANCE_BASE_PATH, type PbxHandle, start } from '../../simulators/pbx/index.ts';
import { durationClock, type VirtualClock } from '../../simulators/shared/index.ts';
import { loopbackEdgeClientAddresses } from '../../src/core/cidr-edges.ts';
import { freePortBelowEphemeral } from './port-holder.ts';
import type { MonitoringAddress, OpenedTarget } from './target.ts';

/** Set to `1`: the embedded simulator times its waits in real time and the harness sleeps through them. */
export const REAL_WAITS_ENV = 'PBX_CONFORMANCE_REAL_WAITS';

/** The fixtures of the embedded simulator: its default user and names (default-state.ts, test-vectors.md). */
const EMBEDDED_XMLRPC = {
  path: '/xml-rpc',
  instanceName: 'Monitoring',
  authParam: 'de.vendor.pbx.auth',
  login: '123',
  password: 'Pass123',
} as const;

export interface EmbeddedTargetOptions {
  name?: string;
  /**
   * Leave the data endpoint on the simulator's default port (6556) instead of an ephemeral one.
   * Only for the one scenario that proves the default (MON-PORT-DEFAULT), and only after checking
   * that the port is free.
   */
  defaultMonitoringPort?: boolean;
  /** PEM certificates the web resolver's runtime trusts besides Node's roots (RESOLVER-TLS-TRUST-STORE). */
  resolverTrustedCa?: string[];
  /**
   * The address every listener of the simulator binds (default 127.0.0.1). The port-fallback
   * scenarios give the simulator a loopback address of its own, where consecutive free ports are
   * easy to find (MON-STATE-PORT-FALLBACK, MON-STATE-BOTH-PORTS-BUSY).
   */
  host?: string;
}

/**
 * A fresh simulated PBX for one scenario: data endpoint on a free port below the ephemeral range
 * (`freePortBelowEphemeral`: no other program's `listen(0)` takes it once the scenario has closed
 * it), web server and control plane on ephemeral ports, frozen virtual clock, and a duration
 * clock the harness can advance: a silent client's raw-mode grace and a reference endpoint's
 * answer delay pass on it without sleeping (docs/design.md). With
 * `PBX_CONFORMANCE_REAL_WAITS=1` the simulator times its waits in real time and the harness sleeps
 * through them as against a remote PBX (`npm run bench -- suite` compares the two). It is driven
 * through its HTTP control plane (not the in-process one) so that every scenario also exercises
 * the control plane a plug-in vendor would use.
 */
export async function openEmbeddedTarget(options: EmbeddedTargetOptions = {}): Promise<OpenedTarget> {
  const name = options.name ?? 'simulator';
  const waits = process.env[REAL_WAITS_ENV] === '1' ? undefined : durationClock();
  const handle = await startSimulator(options, waits);
  const control = httpPbxControl(handle.urls.control);
  return {
    target: {
      name,
      kind: 'embedded',
      pbx: {
        webUrl: handle.urls.web,
        monitoring: parseTcpUrl(handle.urls.monitoring),
        xmlrpc: { ...EMBEDDED_XMLRPC },
        listedClientAddress: '127.0.0.1',
        unlistedClientAddress: '127.0.0.2',
        edgeClientAddresses: loopbackEdgeClientAddresses(),
        control,
        controlUrl: handle.urls.control,
        maintenance: {
          basePath: MAINTENANCE_BASE_PATH,
          control,
          storedTokenRecords: async () =>
            (await control.storedTokenRecords()).map((record) => ({ ...record })),
        },
        ...(waits ? { durationClock: waits } : {}),
      },
    },
    close: async () => {
      await handle.close();
      waits?.dispose();
    },
  };
}

/** How often a simulator is started again when its data endpoint's port was taken in between. */
const PORT_ATTEMPTS = 3;

async function startSimulator(
  options: EmbeddedTargetOptions,
  waits: VirtualClock | undefined,
): Promise<PbxHandle> {
  for (let attempt = 1; ; attempt++) {
    const port = options.defaultMonitoringPort
      ? undefined
      : ((await freePortBelowEphemeral(options.host ?? '127.0.0.1')) ?? 0);
    const handle = await start({
      ...(options.host ? { host: options.host } : {}),
      ...(port === undefined ? {} : { monitoringPort: port }),
      clock: { mode: 'frozen' },
      ...(waits ? { durationClock: waits } : {}),
      ...(options.resolverTrustedCa ? { resolver: { trustedCa: options.resolverTrustedCa } } : {}),
    });
    const listening = parseTcpUrl(handle.urls.monitoring)?.port;
    if (!port || listening === port || attempt >= PORT_ATTEMPTS) return handle;
    // Another program took the port between the check and the listen (the simulator fell back
    // to the next one): start afresh on another.
    await handle.close();
  }
}

/** `tcp://127.0.0.1:40123` → `{ host, port }`; `null` stays `null`. */
export function parseTcpUrl(url: string | null): MonitoringAddress | null {
  if (url === null) return null;
  const match = /^tcp:\/\/(.+):(\d+)$/.exec(url);
  if (!match) throw new Error(`not a tcp://host:port URL: ${url}`);
  return { host: match[1]!, port: Number(match[2]) };
}
