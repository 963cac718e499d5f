import type { TargetFile } from '../core/target-file.ts';

/** One TCP endpoint a target file names, with the fields that name it. */
export interface TargetEndpoint {
  /** The target file fields naming it, e.g. `pbx.webUrl`; several when they share host and port. */
  names: string[];
  host: string;
  port: number;
  /**
   * The data endpoint may be closed on purpose (monitoring tile off, empty hosts list: scenarios
   * test exactly that), so it alone never makes a target count as unreachable.
   */
  mayBeClosed: boolean;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/**
 * Every interface a (validated) target file names, as host and port, one entry per distinct
 * address. XML-RPC and the maintenance API live under `pbx.webUrl` and add nothing; the resolver's
 * `endpointHost` is an address of the harness itself, not of the target.
 */
export function targetEndpoints(target: TargetFile): TargetEndpoint[] {
  const found: TargetEndpoint[] = [];
  const add = (name: string, host: string, port: number, mayBeClosed = false): void => {
    const same = found.find((e) => e.host === host && e.port === port);
    if (same) {
      same.names.push(name);
      same.mayBeClosed &&= mayBeClosed;
    } else {
      found.push({ names: [name], host, port, mayBeClosed });
    }
  };
  const addUrl = (name: string, value: unknown): void => {
    if (typeof value !== 'string') return;
    const address = urlAddress(value);
    if (address) add(name, address.host, address.port);
  };

  const { pbx } = target;
  addUrl('pbx.webUrl', pbx.webUrl);
  add('pbx.monitoring', pbx.monitoring.host, pbx.monitoring.port, true);
  addUrl('pbx.controlUrl', pbx.controlUrl);
  const fleet = target['fleet'];
  if (isRecord(fleet)) {
    addUrl('fleet.apiUrl', fleet['apiUrl']);
    addUrl('fleet.mcpUrl', fleet['mcpUrl']);
    addUrl('fleet.controlUrl', fleet['controlUrl']);
    const pbxs = fleet['pbxs'];
    if (Array.isArray(pbxs)) {
      pbxs.forEach((entry: unknown, index) => {
        if (isRecord(entry)) addUrl(`fleet.pbxs[${index}].controlUrl`, entry['controlUrl']);
      });
    }
  }
  return found;
}

function urlAddress(value: string): { host: string; port: number } | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const port = url.port === '' ? DEFAULT_PORTS[url.protocol] : Number(url.port);
  if (port === undefined) return undefined;
  // URL keeps the brackets of an IPv6 literal; net.connect wants the bare address.
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
