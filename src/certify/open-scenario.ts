import { createServer } from 'node:net';
import { type PbxHandle, start } from '../../simulators/pbx/index.ts';
import type { PbxState } from '../../simulators/pbx/state/types.ts';
import { xmlrpcAuthValue } from '../../simulators/pbx/xmlrpc/auth.ts';
import { DEFAULT_XMLRPC_CREDENTIALS } from '../cli/default-credentials.ts';
import { AnswerProxy, fetchRaw } from './answer-proxy.ts';
import type { PlaceholderValues } from './command-line.ts';
import { applyAgentExtension, extendAgentText } from './extension-overlay.ts';
import type { ScenarioSetup } from './scenario-catalog.ts';

/** Where every listener of a certification run binds. */
export const CERTIFY_HOST = '127.0.0.1';

/** A scenario set up on its own fresh simulator, ready for one plug-in run. */
export interface OpenScenario {
  values: PlaceholderValues;
  /** What the scenario did that the evidence should show (proxy, extension mode, …). */
  notes: Record<string, unknown>;
  /**
   * The agent text a fetcher at `{host}:{port}` gets, read by the harness itself after the run
   * (`null`: connection refused). Same clock, same state: the text the plug-in was served.
   */
  servedText(): Promise<string | null>;
  close(): Promise<void>;
}

/** What the simulator starts from: a named scenario or a complete state (scenario files, generated states). */
export type ScenarioBase = { scenario: string } | { state: PbxState };

/**
 * Starts a fresh simulator (frozen clock, ephemeral ports, 127.0.0.1) for `setup` through the
 * TypeScript API, applies the scenario's field situation through its control plane (or a proxy
 * where the simulator has no switch for it), and tells the placeholder values.
 */
export async function openScenario(setup: ScenarioSetup, base?: ScenarioBase): Promise<OpenScenario> {
  const scenario =
    base === undefined
      ? setup.kind === 'named'
        ? setup.scenario
        : 'healthy'
      : 'state' in base
        ? base.state
        : base.scenario;
  const handle = await start({ scenario, host: CERTIFY_HOST, monitoringPort: 0, clock: { mode: 'frozen' } });
  const notes: Record<string, unknown> = {};
  let proxy: AnswerProxy | null = null;
  try {
    const endpoint = await monitoringAddress(handle);
    if (handle.urls.monitoring === null)
      notes['endpoint'] = 'not listening in this scenario: the port refuses connections';
    let address = endpoint;
    let transform: ((text: string) => string) | undefined;
    switch (setup.kind) {
      case 'named':
        break;
      case 'endpoint-down':
        await handle.control.setTile(false);
        notes['endpoint'] = 'stopped (tile off): the port refuses connections';
        break;
      case 'host-unlisted':
        await handle.control.setMonitoringHosts([{ entry: '192.0.2.10/32', active: true }]);
        notes['monitoringHosts'] = ['192.0.2.10/32'];
        break;
      case 'slow-answer':
        proxy = new AnswerProxy({ upstream: endpoint, host: CERTIFY_HOST, delayMs: setup.delayMs });
        address = await proxy.start();
        notes['proxy'] = `holds the answer back ${setup.delayMs} ms`;
        break;
      case 'extension': {
        const mode = await applyAgentExtension(handle.control);
        notes['extension'] =
          mode === 'state' ? 'set through the state (agentExtensions)' : 'added by the proxy';
        if (mode === 'proxy') {
          transform = extendAgentText;
          proxy = new AnswerProxy({ upstream: endpoint, host: CERTIFY_HOST, transform });
          address = await proxy.start();
        }
        break;
      }
      case 'render-error':
        await handle.control.injectFault('render-error');
        notes['fault'] = 'render-error';
        break;
      case 'non-ascii-names':
        await patchNonAsciiNames(handle);
        notes['names'] = 'module, instance and peer names with umlauts and ß';
        break;
    }
    const web = new URL(handle.urls.web).origin;
    const values: PlaceholderValues = {
      host: address.host,
      port: String(address.port),
      web,
      xmlrpc: `${web}/xml-rpc`,
      login: DEFAULT_XMLRPC_CREDENTIALS.login,
      auth: xmlrpcAuthValue(DEFAULT_XMLRPC_CREDENTIALS.login, DEFAULT_XMLRPC_CREDENTIALS.password),
    };
    const served = async () => {
      // Read from the endpoint itself (a slow proxy would only add its delay).
      const text = await fetchRaw(endpoint);
      return text !== null && transform ? (text.startsWith('<<<') ? transform(text) : text) : text;
    };
    const opened = proxy;
    return {
      values,
      notes,
      servedText: served,
      close: async () => {
        await opened?.close();
        await handle.close();
      },
    };
  } catch (error) {
    await proxy?.close();
    await handle.close();
    throw error;
  }
}

/**
 * The data endpoint's address; when the scenario leaves it stopped (e.g. `unlicensed`: no module
 * licence), a port that refuses connections, as a stopped endpoint's port does.
 */
async function monitoringAddress(handle: PbxHandle): Promise<{ host: string; port: number }> {
  const match = /^tcp:\/\/(.+):(\d+)$/.exec(handle.urls.monitoring ?? '');
  if (match) return { host: match[1] as string, port: Number(match[2]) };
  return { host: CERTIFY_HOST, port: await refusingPort(CERTIFY_HOST) };
}

/** An ephemeral port that was just free and is closed again, so connecting to it is refused. */
async function refusingPort(host: string): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no free port to refuse with');
  return address.port;
}

const NON_ASCII = ['Überwachung', 'Müller Büro', 'Straße', 'Größenprüfung', 'Zürich Süd', 'Ärztehaus'];

/**
 * Renames modules, their instances and peers to non-ASCII names, keeping every other field of the
 * simulator's current state (so the patch fits whatever the state's item shape is).
 */
async function patchNonAsciiNames(handle: PbxHandle): Promise<void> {
  const state = (await handle.control.getState()) as unknown as {
    modules: { name: string; instances: { name: string }[] }[];
    peers: { name: string }[];
  };
  const pick = (index: number) => NON_ASCII[index % NON_ASCII.length] as string;
  await handle.control.patchState({
    modules: state.modules.map((module, index) => ({
      ...module,
      name: index === 0 ? pick(0) : `${module.name} ${pick(index)}`,
      instances: module.instances.map((instance, i) => ({
        ...instance,
        name: `${pick(index + i + 1)}-${i}`,
      })),
    })),
    peers: state.peers.map((peer, index) => ({
      ...peer,
      name: index % 2 === 0 ? `${pick(index).replace(/ /g, '-')}-${index}` : peer.name,
    })),
  });
}
