import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'undici';
import type { RawMount } from '../../simulators/pbx/index.ts';
import { type ConsoleAssets, consoleAssets } from './console-assets.ts';

/** Where the console is served on a control plane (issue 32). */
export const CONSOLE_PATH = '/console';

/** Largest request body the console forwards to the fleet controller (an acknowledgement, a token). */
const MAX_FORWARD_BYTES = 64 * 1024;
/** A fleet face that has not sent its answer's head by then is reported unreachable (502). */
const FORWARD_HEADERS_TIMEOUT_MS = 10_000;

/** A demo account of the fleet's fixture: the console acknowledges as the one the user picks. */
export interface ConsoleAccount {
  email: string;
  password: string;
  role: string;
  partner: string;
}

/** What the console knows of the fleet controller beside the PBX (absent: `--no-fleet`). */
export interface ConsoleFleet {
  /** The controller's control plane (`GET /sites`, inventories, `GET /changes`). */
  controlUrl: string;
  /** The controller's REST base URL, without `/api/v1`. */
  apiUrl: string;
  /** The MCP endpoint's URL, shown beside the tokens. */
  mcpUrl: string;
  /** The bearer token of the controller's control plane, when it has one. */
  token?: string;
  accounts: readonly ConsoleAccount[];
  /** The demo MCP tokens (public demo values, printed in the banner too). */
  mcpTokens: readonly { secret: string; accountId: string; level: string }[];
}

/** A replayed recording's samples and timing, for the recording view. */
export interface ConsoleRecording {
  file: string;
  timing: string;
  samples: readonly { index: number; at: string; offsetMs: number; answers: number }[];
  current: () => number | null;
}

export interface ConsoleOptions {
  /**
   * Path prefix of the PBX's control operations on the same listener: `''` (default, the PBX's own
   * plane), `/pbx/{siteId}` (a pooled fleet's primary PBX on the controller's plane), or `null`
   * where no PBX runs beside the controller (`simulate --fleet-only`: the fleet view alone).
   */
  pbxBase?: string | null;
  fleet?: ConsoleFleet | null;
  /** Whether the control plane needs its bearer token (beyond loopback): the page asks for it. */
  tokenRequired: boolean;
  recording?: ConsoleRecording | null;
}

/** Headers of the page and its assets: nothing from elsewhere, no framing, no sniffing. */
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
};

/**
 * The console (issue 32) as a mount of a control plane: the page and its bundled assets at
 * `/console` (served without the token, so the page can ask for it), and under `/console/api/`
 * what the page needs besides the PBX's own operations: its configuration, and the fleet
 * controller's control plane and REST API forwarded on the same origin (REST as the demo account
 * the page names in `x-console-account`). Those pass the plane's token and cross-site checks like
 * any operation (control-server.ts).
 */
export function consoleMount(options: ConsoleOptions): RawMount {
  return {
    prefix: CONSOLE_PATH,
    open: (path) => path === CONSOLE_PATH || path === `${CONSOLE_PATH}/` || isAssetPath(path),
    async handle(req, res, path) {
      const rest = path.slice(CONSOLE_PATH.length);
      if (rest === '' || rest === '/' || isAssetPath(path)) {
        if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, methodNotAllowed());
        return serveAsset(res, rest === '' || rest === '/' ? 'index.html' : rest.slice(1), req.method);
      }
      if (rest === '/api/config') return sendJson(res, 200, configOf(options));
      const fleet = options.fleet;
      if (fleet && rest.startsWith('/api/fleet/')) {
        const query = queryOf(req.url);
        return forward(req, res, `${fleet.controlUrl}${rest.slice('/api/fleet'.length)}${query}`, {
          ...(fleet.token ? { authorization: `Bearer ${fleet.token}` } : {}),
        });
      }
      if (fleet && rest.startsWith('/api/rest/')) {
        const account = fleet.accounts.find((a) => a.email === req.headers['x-console-account']);
        if (!account)
          return sendJson(res, 400, {
            error: 'invalid_request',
            message: 'x-console-account names no demo account',
          });
        const basic = Buffer.from(`${account.email}:${account.password}`).toString('base64');
        const target = `${fleet.apiUrl}/api/v1${rest.slice('/api/rest'.length)}${queryOf(req.url)}`;
        return forward(req, res, target, { authorization: `Basic ${basic}` });
      }
      return sendJson(res, 404, { error: 'not_found', message: `nothing at ${path}` });
    },
  };
}

function isAssetPath(path: string): boolean {
  return /^\/console\/[a-z-]+\.(?:js|css)$/.test(path);
}

function configOf(options: ConsoleOptions) {
  const fleet = options.fleet;
  const recording = options.recording;
  return {
    pbxBase: options.pbxBase === undefined ? '' : options.pbxBase,
    tokenRequired: options.tokenRequired,
    fleet: fleet
      ? {
          apiUrl: fleet.apiUrl,
          mcpUrl: fleet.mcpUrl,
          accounts: fleet.accounts.map(({ email, role, partner }) => ({ email, role, partner })),
          mcpTokens: fleet.mcpTokens,
        }
      : null,
    recording: recording
      ? {
          file: recording.file,
          timing: recording.timing,
          samples: recording.samples,
          current: recording.current(),
        }
      : null,
  };
}

async function serveAsset(res: ServerResponse, name: string, method: string | undefined): Promise<void> {
  let assets: ConsoleAssets;
  try {
    assets = await consoleAssets();
  } catch (error) {
    return sendJson(res, 500, { error: 'internal_error', message: (error as Error).message });
  }
  const bytes = assets.get(name);
  if (!bytes) return sendJson(res, 404, { error: 'not_found', message: `no console asset ${name}` });
  const type = TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream';
  res.writeHead(200, { ...PAGE_HEADERS, 'content-type': type, 'content-length': String(bytes.length) });
  res.end(method === 'HEAD' ? undefined : bytes);
}

/** Sends the request on to a fleet face and streams its answer back (an event stream as it comes). */
async function forward(
  req: IncomingMessage,
  res: ServerResponse,
  target: string,
  headers: Record<string, string>,
): Promise<void> {
  const method = req.method ?? 'GET';
  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const read = await readSmallBody(req);
    if (read === null)
      return sendJson(res, 413, { error: 'payload_too_large', message: 'the body is too large' });
    body = read;
  } else req.resume();
  const type = req.headers['content-type'];
  const upstreamAbort = new AbortController();
  res.on('close', () => upstreamAbort.abort());
  try {
    const answer = await request(target, {
      method: method as 'GET',
      headers: { ...headers, ...(type ? { 'content-type': type } : {}) },
      ...(body === undefined ? {} : { body }),
      headersTimeout: FORWARD_HEADERS_TIMEOUT_MS,
      bodyTimeout: 0,
      signal: upstreamAbort.signal,
    });
    const kept: Record<string, string> = { 'cache-control': 'no-store' };
    for (const name of ['content-type', 'etag', 'allow']) {
      const value = answer.headers[name];
      if (typeof value === 'string') kept[name] = value;
    }
    res.writeHead(answer.statusCode, kept);
    res.flushHeaders();
    for await (const chunk of answer.body) res.write(chunk);
    res.end();
  } catch (error) {
    if (res.headersSent) res.destroy();
    else
      sendJson(res, 502, {
        error: 'unreachable',
        message: `the fleet controller did not answer: ${(error as Error).message}`,
      });
  }
}

function readSmallBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FORWARD_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        resolve(null);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function queryOf(url: string | undefined): string {
  const at = (url ?? '').indexOf('?');
  return at === -1 ? '' : (url ?? '').slice(at);
}

function methodNotAllowed() {
  return { error: 'method_not_allowed', message: 'the console page is read with GET' };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}
