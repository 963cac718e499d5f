import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { httpFleetControl } from '../../simulators/fleet-controller/index.ts';
import { xmlRpcAuthValue } from '../clients/xmlrpc-auth-value.ts';
import { PROJECT_ROOT, RUNNING_COMPILED } from '../core/project-paths.ts';
import type { FuzzTargetInfo } from './types.ts';

/** A target ready to fuzz: where its faces are, and how to watch and end it. */
export interface FuzzTarget {
  info: FuzzTargetInfo;
  /** Command names the maintenance API lists (empty without a token). */
  maintenanceCommands: string[];
  alive?: () => boolean;
  rss?: () => number | null;
  close(): Promise<void>;
}

/** The parts of a target description (schemas/target.schema.json) the fuzzer reads. */
interface TargetDescription {
  name?: string;
  pbx?: {
    webUrl?: string;
    controlUrl?: string;
    /** Bearer token of a control plane beyond loopback (issue 12; a future target-file field). */
    controlToken?: string;
    monitoring?: { host?: string; port?: number };
    xmlrpc?: { path?: string; instanceName?: string; authParam?: string; login?: string; password?: string };
    listedClientAddress?: string;
    unlistedClientAddress?: string;
  };
  maintenance?: { basePath?: string };
  fleet?: {
    apiUrl?: string;
    mcpUrl?: string;
    controlUrl?: string;
    controlToken?: string;
    accounts?: {
      partner?: { email?: string; password?: string };
      viewer?: { email?: string; password?: string };
    };
    mcpTokens?: { readOnly?: string; readWrite?: string };
    sites?: { own?: string; foreign?: string };
  };
}

/**
 * The fuzz target a description names. A maintenance API token is minted through the PBX control
 * plane (`POST /maintenance/tokens`, as an administrator of the PBX) when the description has one;
 * without it the checks that need a valid token are not verifiable.
 */
export async function describeFuzzTarget(
  description: TargetDescription,
  targetFile: string | null,
): Promise<{ info: FuzzTargetInfo; maintenanceCommands: string[] }> {
  const pbx = description.pbx ?? {};
  const info: FuzzTargetInfo = { name: description.name ?? 'embedded', targetFile };
  if (pbx.monitoring?.host && pbx.monitoring.port) {
    info.data = {
      host: pbx.monitoring.host,
      port: pbx.monitoring.port,
      listedClient: pbx.listedClientAddress ?? '127.0.0.1',
      ...(pbx.unlistedClientAddress ? { unlistedClient: pbx.unlistedClientAddress } : {}),
    };
  }
  const x = pbx.xmlrpc;
  if (pbx.webUrl && x?.login !== undefined && x.password !== undefined) {
    info.xmlrpc = {
      webUrl: pbx.webUrl,
      path: x.path ?? '/xml-rpc',
      instanceName: x.instanceName ?? 'Monitoring',
      authParam: x.authParam ?? 'de.vendor.pbx.auth',
      authValue: xmlRpcAuthValue(x.login, x.password),
    };
  }
  let maintenanceCommands: string[] = [];
  if (pbx.webUrl && description.maintenance?.basePath) {
    const token = pbx.controlUrl
      ? await mintToken(pbx.controlUrl, [x?.login ?? '', 'admin'], pbx.controlToken)
      : undefined;
    info.maintenance = {
      webUrl: pbx.webUrl,
      basePath: description.maintenance.basePath,
      ...(token ? { token } : {}),
    };
    if (token)
      maintenanceCommands = await listCommands(`${pbx.webUrl}${description.maintenance.basePath}`, token);
  }
  const fleet = description.fleet;
  const partner = fleet?.accounts?.partner;
  if (fleet?.apiUrl && partner?.email && partner.password) {
    const account = { email: partner.email, password: partner.password };
    const viewer = fleet.accounts?.viewer;
    const item =
      fleet.controlUrl && fleet.sites?.own
        ? await openItem(fleet.apiUrl, fleet.controlUrl, fleet.sites.own, account, fleet.controlToken)
        : undefined;
    info.fleet = {
      apiUrl: fleet.apiUrl,
      account,
      ...(viewer?.email && viewer.password
        ? { viewer: { email: viewer.email, password: viewer.password } }
        : {}),
      ...(fleet.sites?.foreign ? { foreignSite: fleet.sites.foreign } : {}),
      ...(item ? { item } : {}),
    };
  }
  const mcpToken = fleet?.mcpTokens?.readOnly ?? fleet?.mcpTokens?.readWrite;
  if (fleet?.mcpUrl && mcpToken) info.mcp = { mcpUrl: fleet.mcpUrl, token: mcpToken };
  return { info, maintenanceCommands };
}

/** Real-time limit of each request the fuzzer makes to set a target up. */
const SETUP_TIMEOUT_MS = 10_000;

/** GET `url` as JSON over undici, within the setup limit; `undefined` when it does not answer 2xx JSON. */
async function getJson(url: string, headers: Record<string, string>): Promise<unknown> {
  const response = await request(url, {
    headers: { accept: 'application/json', ...headers },
    headersTimeout: SETUP_TIMEOUT_MS,
    bodyTimeout: SETUP_TIMEOUT_MS,
    signal: AbortSignal.timeout(SETUP_TIMEOUT_MS),
  });
  if (response.statusCode < 200 || response.statusCode > 299) {
    await response.body.dump();
    return undefined;
  }
  return response.body.json();
}

/**
 * An open attention item on `siteId`: raised through the fleet control plane (`injectEvent`, `POST
 * /sites/{siteId}/events`) and read back from the site list as `account` sees it.
 */
async function openItem(
  apiUrl: string,
  controlUrl: string,
  siteId: string,
  account: { email: string; password: string },
  controlToken?: string,
): Promise<{ siteId: string; id: string } | undefined> {
  try {
    await httpFleetControl(controlUrl, { token: controlToken, timeoutMs: SETUP_TIMEOUT_MS }).injectEvent({
      siteId,
      module: 'Fuzz',
      subject: 'pbx-conformance fuzz item',
      severity: 'ERROR',
    });
    const basic = Buffer.from(`${account.email}:${account.password}`, 'utf8').toString('base64');
    const sites = (await getJson(`${apiUrl}/api/v1/sites`, { authorization: `Basic ${basic}` })) as
      | Array<{ id?: string; attentionEvents?: Array<{ id?: unknown }> }>
      | undefined;
    const id = sites?.find((s) => s.id === siteId)?.attentionEvents?.[0]?.id;
    return id === undefined ? undefined : { siteId, id: String(id) };
  } catch {
    return undefined;
  }
}

/** A maintenance API token minted through the PBX control plane (`createToken`), as the first actor allowed. */
async function mintToken(
  controlUrl: string,
  actors: string[],
  controlToken?: string,
): Promise<string | undefined> {
  const { httpPbxControl } = await import('../../simulators/pbx/index.ts');
  const control = httpPbxControl(controlUrl, { token: controlToken, timeoutMs: SETUP_TIMEOUT_MS });
  for (const actor of actors.filter(Boolean)) {
    try {
      const { secret } = await control.createToken({ label: 'pbx-conformance fuzz', actor });
      if (typeof secret === 'string') return secret;
    } catch {
      // Not this actor, or no control plane here: the token checks are then not verifiable.
    }
  }
  return undefined;
}

async function listCommands(base: string, token: string): Promise<string[]> {
  try {
    const body = (await getJson(`${base}/system-functions`, { authorization: `Bearer ${token}` })) as
      | { commands?: unknown }
      | undefined;
    return Array.isArray(body?.commands)
      ? body.commands.filter((c): c is string => typeof c === 'string')
      : [];
  } catch {
    return [];
  }
}

/** A target file (`--target`): the faces it describes; nothing to start or stop. */
export async function targetFromFile(file: string, description: TargetDescription): Promise<FuzzTarget> {
  const { info, maintenanceCommands } = await describeFuzzTarget(description, file);
  return { info, maintenanceCommands, close: async () => {} };
}

/**
 * Memory settings of the embedded simulator (docs/fuzz.md, "Memory"). Measured over 100,000 inputs
 * with the defaults, the RSS ended about 230-385 MB above its start although nothing leaked:
 * - glibc gives each allocating thread its own malloc arena and keeps freed memory there; the
 *   16 MiB scrypt hashes of fleet sign-ins run on libuv's pool threads. Two arenas return it.
 * - V8 lets collectable garbage pile up to its default heap limit (8,000 MCP requests: +100 MB;
 *   with a 160 MB old space the RSS stayed flat over 16,000, so it was all garbage; 192 MB is the cap
 *   here, with room above the live heap), and the young
 *   generation grows its semi-spaces to 16 MB each and keeps them: 4 MB is plenty for request garbage.
 * Values already in the environment are kept (`NODE_OPTIONS` is extended, not replaced).
 */
export function embeddedSimulatorEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const options = env['NODE_OPTIONS'] ?? '';
  return {
    MALLOC_ARENA_MAX: '2',
    ...env,
    NODE_OPTIONS: [
      options,
      /--max-old-space-size/.test(options) ? '' : '--max-old-space-size=192',
      /--max-semi-space-size/.test(options) ? '' : '--max-semi-space-size=4',
    ]
      .filter(Boolean)
      .join(' '),
  };
}

/**
 * A fresh simulator for this run, as its own process (`simulate --json --port 0 --clock frozen`), so
 * a crash shows as a crash and its memory can be read from /proc. Rejects when it does not start.
 */
export async function startEmbeddedTarget(env: NodeJS.ProcessEnv = process.env): Promise<FuzzTarget> {
  const child = spawn(
    process.execPath,
    [...cliEntry(), 'simulate', '--json', '--port', '0', '--clock', 'frozen'],
    {
      cwd: PROJECT_ROOT,
      env: embeddedSimulatorEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stderr?.resume();
  const description = await firstLine(child);
  const { info, maintenanceCommands } = await describeFuzzTarget(
    JSON.parse(description) as TargetDescription,
    null,
  );
  info.name = 'embedded';
  return {
    info,
    maintenanceCommands,
    alive: () => child.exitCode === null && child.signalCode === null,
    rss: () => readRss(child.pid),
    close: () => stopChild(child),
  };
}

/**
 * How a child process runs this CLI: the compiled entry point in the installed package (which
 * ships neither tsx nor the TypeScript sources, issue 20), the sources through tsx in the repository.
 */
export function cliEntry(): string[] {
  return RUNNING_COMPILED
    ? [join(PROJECT_ROOT, 'src', 'cli', 'main.js')]
    : ['--import', 'tsx', join(PROJECT_ROOT, 'src', 'cli', 'main.ts')];
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the simulator did not start within 60 s'));
    }, 60_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      lines.close();
      child.stdout?.resume();
      resolve(line);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the simulator exited with code ${code} before it described itself`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Resident set size of a process from /proc (Linux), in bytes; `null` elsewhere. */
export function readRss(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}
