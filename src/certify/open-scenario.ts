import { connect } from 'node:net';
import { request } from 'undici';
import { type PbxHandle, type PbxState, type ReplayBinding, start } from '../../simulators/pbx/index.ts';
import { xmlRpcAuthValue } from '../clients/xmlrpc-auth-value.ts';
import { DEFAULT_XMLRPC_CREDENTIALS } from '../core/default-credentials.ts';
import { AnswerProxy, fetchRaw } from './answer-proxy.ts';
import type { PlaceholderValues } from './command-line.ts';
import { applyAgentExtension } from './extension-overlay.ts';
import type { ScenarioSetup } from './scenario-catalog.ts';
import { dropSections, dropSectionsOfAnswer } from './sections-missing.ts';

/** Where a scenario's listeners bind when no address of its own is given. */
export const CERTIFY_HOST = '127.0.0.1';

/** A scenario set up on its own fresh simulator, ready for one plug-in run. */
export interface OpenScenario {
  values: Omit<PlaceholderValues, 'timeout'>;
  /** What the scenario did that the evidence should show (proxy, extension mode, …). */
  notes: Record<string, unknown>;
  /**
   * The agent text a fetcher at `{host}:{port}` gets, read by the harness itself after the run
   * (`null`: connection refused). Same clock, same state: the text the plug-in was served.
   */
  servedText(): Promise<string | null>;
  /** The JSON snapshot the data endpoint serves (`GET /json`), or `null` when it serves none. */
  servedJson(): Promise<string | null>;
  close(): Promise<void>;
}

/**
 * What the simulator starts from: a named scenario or a complete state (scenario files, generated
 * states), or a recording's imported state with its replay (`certify-plugin --recording`).
 */
export type ScenarioBase = { scenario: string } | { state: PbxState; replay?: ReplayBinding };

/**
 * Starts a fresh simulator (frozen clock, ephemeral ports, 127.0.0.1) for `setup` through the
 * TypeScript API, applies the scenario's field situation through its control client in process (or
 * a proxy where the simulator has no switch for it), and tells the placeholder values. The
 * simulator starts no control listener: a plug-in under certification finds no control plane to
 * change the PBX it is judged against (issue 28 §4, "No control plane for the plug-in to find").
 */
export async function openScenario(
  setup: ScenarioSetup,
  base?: ScenarioBase,
  host: string = CERTIFY_HOST,
): Promise<OpenScenario> {
  const scenario =
    base === undefined
      ? setup.kind === 'named'
        ? setup.scenario
        : 'healthy'
      : 'state' in base
        ? base.state
        : base.scenario;
  const replay = base !== undefined && 'replay' in base ? base.replay : undefined;
  const handle = await start({
    scenario,
    host,
    monitoringPort: 0,
    clock: { mode: 'frozen' },
    controlListener: false,
    ...(replay ? { replay } : {}),
  });
  const notes: Record<string, unknown> = {};
  let proxy: AnswerProxy | null = null;
  let refusing: HeldPort | null = null;
  try {
    // The Linux sections come from the state, not from this machine: the same text on every
    // machine, and no process list of the host (command lines) in the evidence.
    await handle.control.patchState({ os: { linuxSectionsSource: 'synthetic' } });
    const listening = /^tcp:\/\/(.+):(\d+)$/.exec(handle.urls.monitoring ?? '');
    // A scenario that leaves the endpoint stopped (e.g. `unlicensed`: no module licence) gets a
    // port that refuses connections, as a stopped endpoint's port does.
    if (!listening) {
      refusing = await holdRefusingPort(handle.urls.web, host);
      notes['endpoint'] = 'not listening in this scenario; {port} refuses connections';
    }
    const endpoint = listening
      ? { host: listening[1] as string, port: Number(listening[2]) }
      : { host, port: (refusing as HeldPort).port };
    let address = endpoint;
    switch (setup.kind) {
      case 'named':
        break;
      case 'endpoint-down':
        await handle.control.setTile({ on: false });
        refusing ??= await holdRefusingPort(handle.urls.web, host);
        address = { host, port: refusing.port };
        notes['endpoint'] = 'stopped (tile off); {port} refuses connections';
        break;
      case 'host-unlisted':
        await handle.control.setMonitoringHosts([{ entry: '192.0.2.10/32', active: true }]);
        notes['monitoringHosts'] = ['192.0.2.10/32'];
        break;
      case 'slow-answer':
        proxy = new AnswerProxy({ upstream: endpoint, host, delayMs: setup.delayMs });
        address = await proxy.start();
        notes['proxy'] = `holds the answer back ${setup.delayMs} ms`;
        break;
      case 'sections-missing':
        proxy = new AnswerProxy({ upstream: endpoint, host, rewrite: dropSectionsOfAnswer });
        address = await proxy.start();
        notes['proxy'] = 'passes on the banner <<<monitor_agent>>> only: every other section left out';
        break;
      case 'extension':
        await applyAgentExtension(handle.control);
        notes['extension'] = 'unknown sections and extra key value lines (agentExtensions)';
        break;
      case 'render-error':
        await handle.control.injectFault({ name: 'render-error' });
        notes['fault'] = 'render-error';
        break;
      case 'non-ascii-names':
        await patchNonAsciiNames(handle);
        notes['names'] = 'module, instance and peer names with umlauts and ß';
        break;
    }
    const web = new URL(handle.urls.web).origin;
    const values: Omit<PlaceholderValues, 'timeout'> = {
      host: address.host,
      port: String(address.port),
      web,
      xmlrpc: `${web}/xml-rpc`,
      login: DEFAULT_XMLRPC_CREDENTIALS.login,
      auth: xmlRpcAuthValue(DEFAULT_XMLRPC_CREDENTIALS.login, DEFAULT_XMLRPC_CREDENTIALS.password),
    };
    const source = refusing && address.port === refusing.port ? address : endpoint;
    const served = async () => {
      // Read from the endpoint itself (a slow proxy would only add its delay).
      const text = await fetchRaw(source);
      return setup.kind === 'sections-missing' && text !== null ? dropSections(text) : text;
    };
    const opened = proxy;
    const held = refusing;
    return {
      values,
      notes,
      servedText: served,
      servedJson: () => fetchJson(source),
      close: async () => {
        held?.release();
        await opened?.close();
        await handle.close();
      },
    };
  } catch (error) {
    refusing?.release();
    await proxy?.close();
    await handle.close();
    throw error;
  }
}

interface HeldPort {
  port: number;
  release: () => void;
}

/**
 * A port on the scenario's address that refuses connections for as long as it is held: the local port of a
 * connection the harness keeps open to the simulator's web server. Nothing listens on it, so a
 * connect is refused; and while that connection holds the port, the kernel does not hand it to
 * another listener, unlike a port that was merely freed (a stopped endpoint's port can be taken by
 * any other process on a busy machine before the plug-in connects).
 */
async function holdRefusingPort(web: string, localAddress: string): Promise<HeldPort> {
  const url = new URL(web);
  const socket = connect({ host: url.hostname, port: Number(url.port), localAddress });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  socket.on('error', () => {});
  const port = socket.localPort;
  if (port === undefined) throw new Error('no local port to refuse with');
  return { port, release: () => socket.destroy() };
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

/** `GET /json` on the data endpoint (its HTTP mode); `null` when it answers no JSON. */
async function fetchJson(address: { host: string; port: number }): Promise<string | null> {
  try {
    const { statusCode, body } = await request(`http://${address.host}:${address.port}/json`, {
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    const text = await body.text();
    return statusCode === 200 ? text : null;
  } catch {
    return null;
  }
}
