import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import xmlrpc from 'xmlrpc';

/**
 * Which client the steps call XML-RPC with: the `xmlrpc` package (default) or, with
 * `PBX_CONFORMANCE_XMLRPC_CLIENT=python`, Python 3's own `xmlrpc.client`, so the same scenarios
 * also run through a client the project did not write (`npm run test:features:python-xmlrpc`).
 */
export const XMLRPC_CLIENT = process.env['PBX_CONFORMANCE_XMLRPC_CLIENT'] === 'python' ? 'python' : 'node';

const PYTHON_CLIENT = fileURLToPath(new URL('./python/xmlrpc_call.py', import.meta.url));

/** What an XML-RPC call came back with. */
export type XmlRpcOutcome =
  | { kind: 'value'; value: unknown }
  | { kind: 'fault'; faultCode: unknown; faultString: unknown }
  /** The HTTP layer refused the call (e.g. 401, 403, 404), or the body was no methodResponse. */
  | { kind: 'http-error'; status: number | undefined; message: string; body: string }
  | { kind: 'transport-error'; message: string };

export interface XmlRpcCallOptions {
  webUrl: string;
  /** Path including any query, e.g. `/xml-rpc?de.vendor.pbx.auth=123:…`. */
  path: string;
  method: string;
  params: unknown[];
  localAddress?: string;
  timeoutMs: number;
}

/**
 * Calls a method with the `xmlrpc` package's client. The client keeps a query string only when
 * given `{ host, port, path }` (not a URL), so the URL is split here.
 */
export function callXmlRpc(options: XmlRpcCallOptions): Promise<XmlRpcOutcome> {
  if (XMLRPC_CLIENT === 'python') return callWithPython(options);
  const url = new URL(options.webUrl);
  const secure = url.protocol === 'https:';
  const clientOptions = {
    host: url.hostname,
    port: Number(url.port || (secure ? 443 : 80)),
    path: options.path,
    headers: { Connection: 'close' },
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
  };
  const client = secure ? xmlrpc.createSecureClient(clientOptions) : xmlrpc.createClient(clientOptions);
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: XmlRpcOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(
      () => done({ kind: 'transport-error', message: `no answer within ${options.timeoutMs} ms` }),
      options.timeoutMs,
    );
    client.methodCall(options.method, options.params, (error: unknown, value: unknown) => {
      if (!error) return done({ kind: 'value', value });
      const e = error as Error & {
        faultCode?: unknown;
        faultString?: unknown;
        res?: { statusCode?: number };
        body?: string;
        code?: string;
      };
      if ('faultCode' in e || 'faultString' in e) {
        return done({ kind: 'fault', faultCode: e.faultCode, faultString: e.faultString });
      }
      if (e.res)
        return done({ kind: 'http-error', status: e.res.statusCode, message: e.message, body: e.body ?? '' });
      done({ kind: 'transport-error', message: e.code ? `${e.code}: ${e.message}` : e.message });
    });
  });
}

/** The same call through Python's `xmlrpc.client` (src/clients/python/xmlrpc_call.py). */
function callWithPython(options: XmlRpcCallOptions): Promise<XmlRpcOutcome> {
  const request = {
    url: new URL(options.path, options.webUrl).href,
    method: options.method,
    params: options.params,
    timeout: options.timeoutMs / 1000,
    sourceAddress: options.localAddress ?? null,
  };
  return new Promise((resolve) => {
    const child = spawn('python3', [PYTHON_CLIENT], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs + 2_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ kind: 'transport-error', message: `python3 could not run: ${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(stdout) as XmlRpcOutcome);
      } catch {
        resolve({ kind: 'transport-error', message: `python3 client ended with ${code}: ${stderr.trim()}` });
      }
    });
    child.stdin.end(JSON.stringify(request));
  });
}

/** True when `value` is an XML-RPC struct (a plain object, not an array, date or buffer). */
export function isStruct(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !Buffer.isBuffer(value)
  );
}
