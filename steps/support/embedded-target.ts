import { httpPbxControl, MAINTENANCE_BASE_PATH } from '../../simulators/pbx/index.ts';
import { loopbackEdgeClientAddresses } from '../../src/core/cidr-edges.ts';
import { simulatorThread, type ThreadPbx } from './simulator-thread.ts';
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
 * the control plane a plug-in vendor would use. It runs on the simulator thread
 * (simulator-thread.ts, issue 31 §1), which the harness reaches only through those URLs and, for
 * the duration clock, by message.
 */
export async function openEmbeddedTarget(options: EmbeddedTargetOptions = {}): Promise<OpenedTarget> {
  const name = options.name ?? 'simulator';
  const waits = process.env[REAL_WAITS_ENV] !== '1';
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
        ...(waits ? { durationClock: { advance: (ms: number) => handle.advance(ms) } } : {}),
      },
    },
    close: () => handle.close(),
  };
}

/**
 * Starts the PBX on the simulator thread, which picks the data endpoint's port below the ephemeral
 * range and starts again on another when that port was taken in between. A scenario's default PBX
 * (no options) is the spare the thread started while the scenario before ran.
 */
function startSimulator(options: EmbeddedTargetOptions, waits: boolean): Promise<ThreadPbx> {
  const fresh = options.defaultMonitoringPort === undefined && !options.host && !options.resolverTrustedCa;
  return simulatorThread.startPbx(
    {
      ...(options.host ? { host: options.host } : {}),
      ...(options.defaultMonitoringPort ? {} : { monitoringPort: 'below-ephemeral' as const }),
      clock: { mode: 'frozen' },
      ...(waits ? { durationClock: true } : {}),
      ...(options.resolverTrustedCa ? { resolver: { trustedCa: options.resolverTrustedCa } } : {}),
    },
    { spare: fresh },
  );
}

/** `tcp://127.0.0.1:40123` → `{ host, port }`; `null` stays `null`. */
export function parseTcpUrl(url: string | null): MonitoringAddress | null {
  if (url === null) return null;
  const match = /^tcp:\/\/(.+):(\d+)$/.exec(url);
  if (!match) throw new Error(`not a tcp://host:port URL: ${url}`);
  return { host: match[1]!, port: Number(match[2]) };
}
