import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import type {
  RecordedHttpAnswer,
  RecordedXmlRpcAnswer,
  RecordingSample,
} from '../../simulators/pbx/index.ts';
import { sendHttp } from '../clients/http-send.ts';
import { xmlRpcAuthValue } from '../clients/xmlrpc-auth-value.ts';
import type { TargetFile } from '../core/target-file.ts';
import { type Captured, CaptureError, captureTcp } from './capture-tcp.ts';

/** The `xmlrpc` package's response deserializer (its lib/ files ship no types). */
interface MethodResponseDeserializer {
  deserializeMethodResponse(stream: Readable, callback: (error: unknown, value: unknown) => void): void;
}
const Deserializer = createRequire(import.meta.url)('xmlrpc/lib/deserializer.js') as new (
  encoding?: string,
) => MethodResponseDeserializer;

/** The data-endpoint requests a recording makes, after the raw fetch (MON-GET-CHECKMK, MON-GET-XML, MON-GET-JSON, MON-QUERY-FORMAT). */
export const HTTP_TARGETS = [
  '/checkmk',
  '/xml',
  '/json',
  '/?format=checkmk',
  '/?format=xml',
  '/?format=json',
];

const DEFAULT_MAINTENANCE_BASE = '/fp/7ce0d8df/api/v1';

/** One sample before redaction: captures kept as bytes, answers as text. */
export interface RawSample {
  atMs: number;
  recordedAt: string;
  raw?: Captured;
  http: { target: string; captured: Captured }[];
  endpointError?: string;
  xmlrpc: Partial<
    Record<
      'getMonitoringData' | 'getMonitoringDataXml' | 'isActiveDirectoryEnabled' | 'wrongLogin',
      RecordedXmlRpcAnswer
    >
  >;
  maintenance?: RecordedHttpAnswer | { error: string };
  package?: RecordingSample['package'];
}

export interface FetchOptions {
  timeoutMs: number;
  /** Fetch the maintenance command list (needs `maintenance.token` in the target). */
  maintenance: boolean;
}

/**
 * Fetches every face of a target once (one sample). Only reads: the data endpoint (raw, then one
 * HTTP GET per format path and query), the three XML-RPC methods plus one call with a wrong
 * secret, the maintenance command list (GET, only with a token; never a POST, since every
 * maintenance command has effects) and the monitoring package (kept as a hash).
 */
export async function fetchSample(
  target: TargetFile,
  atMs: number,
  options: FetchOptions,
): Promise<RawSample> {
  const sample: RawSample = { atMs, recordedAt: new Date().toISOString(), http: [], xmlrpc: {} };
  const { host, port } = target.pbx.monitoring;
  const localAddress = target.pbx.listedClientAddress;
  try {
    sample.raw = await captureTcp({ host, port, timeoutMs: options.timeoutMs, localAddress });
    for (const path of HTTP_TARGETS) {
      const request = Buffer.from(
        `GET ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nUser-Agent: pbx-conformance-record\r\nConnection: close\r\n\r\n`,
        'latin1',
      );
      sample.http.push({
        target: path,
        captured: await captureTcp({ host, port, request, timeoutMs: options.timeoutMs, localAddress }),
      });
    }
  } catch (error) {
    if (!(error instanceof CaptureError)) throw error;
    sample.endpointError = error.message;
  }
  const { xmlrpc } = target.pbx;
  const auth = xmlRpcAuthValue(xmlrpc.login, xmlrpc.password);
  const wrongAuth = xmlRpcAuthValue(xmlrpc.login, `${xmlrpc.password}-wrong`);
  const rpcPath = (value: string | null) =>
    value === null ? xmlrpc.path : `${xmlrpc.path}?${xmlrpc.authParam}=${encodeURIComponent(value)}`;
  const call = (method: string, value: string | null) =>
    callXmlRpcRaw(
      target.pbx.webUrl,
      rpcPath(value),
      `${xmlrpc.instanceName}.${method}`,
      options.timeoutMs,
      localAddress,
    );
  sample.xmlrpc.getMonitoringData = await call('GetMonitoringData', auth);
  sample.xmlrpc.getMonitoringDataXml = await call('GetMonitoringDataXML', auth);
  sample.xmlrpc.isActiveDirectoryEnabled = await call('isActiveDirectoryEnabled', null);
  sample.xmlrpc.wrongLogin = await call('GetMonitoringData', wrongAuth);
  const maintenance = target['maintenance'] as { token?: string; basePath?: string } | undefined;
  if (options.maintenance && maintenance?.token) {
    const base = maintenance.basePath ?? DEFAULT_MAINTENANCE_BASE;
    sample.maintenance = await httpGet(target.pbx.webUrl, `${base}/system-functions`, options.timeoutMs, {
      authorization: `Bearer ${maintenance.token}`,
    }).then(
      (answer) => ({ status: answer.status, headers: answer.headers, body: answer.body.toString('utf8') }),
      (error: Error) => ({ error: error.message }),
    );
  }
  sample.package = await fetchPackage(target, sample, options.timeoutMs);
  return sample;
}

/** The package download path names the monitoring module's id, read from the JSON snapshot. */
async function fetchPackage(
  target: TargetFile,
  sample: RawSample,
  timeoutMs: number,
): Promise<RecordingSample['package']> {
  const json = sample.http.find((fetch) => fetch.target === '/json')?.captured.bytes;
  let moduleId: string | undefined;
  try {
    const text = json?.toString('utf8') ?? '';
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as {
      modules?: { name?: string; id?: string }[];
    };
    moduleId = body.modules?.find((module) => module.name === 'Monitoring')?.id;
  } catch {
    moduleId = undefined;
  }
  if (!moduleId) return { status: 0, error: 'no module id of Monitoring in the JSON snapshot' };
  try {
    const answer = await httpGet(
      target.pbx.webUrl,
      `/downloads/moduledata/${encodeURIComponent(moduleId)}/pbx_monitoring.mkp`,
      timeoutMs,
    );
    if (answer.status !== 200) return { status: answer.status };
    const { sha256 } = await import('./capture-tcp.ts');
    return { status: answer.status, sha256: sha256(answer.body), length: answer.body.length };
  } catch (error) {
    return { status: 0, error: (error as Error).message };
  }
}

interface HttpAnswer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

function httpGet(
  webUrl: string,
  path: string,
  timeoutMs: number,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  return httpExchange(webUrl, path, 'GET', undefined, timeoutMs, headers);
}

/**
 * One HTTP exchange of a recording, through undici (src/clients/http-send.ts): the answer's header
 * pairs are kept as they came (order and casing), as a replay serves them.
 */
async function httpExchange(
  webUrl: string,
  path: string,
  method: string,
  body: Buffer | undefined,
  timeoutMs: number,
  headers: Record<string, string>,
  localAddress?: string,
): Promise<HttpAnswer> {
  const base = new URL(webUrl);
  const answer = await sendHttp({
    url: new URL(base.pathname.replace(/\/$/, '') + path, base),
    method,
    headers: {
      connection: 'close',
      ...headers,
      ...(body ? { 'content-length': String(body.length) } : {}),
    },
    ...(body ? { body } : {}),
    timeoutMs,
    ...(localAddress ? { localAddress } : {}),
  });
  return { status: answer.status, headers: answer.rawHeaders, body: answer.body };
}

/** The `methodCall` document for one struct parameter (empty for every method recorded). */
function methodCall(method: string): Buffer {
  return Buffer.from(
    `<?xml version="1.0"?>\n<methodCall><methodName>${method}</methodName><params><param><value><struct></struct></value></param></params></methodCall>\n`,
    'utf8',
  );
}

async function callXmlRpcRaw(
  webUrl: string,
  path: string,
  method: string,
  timeoutMs: number,
  localAddress: string | undefined,
): Promise<RecordedXmlRpcAnswer> {
  let answer: HttpAnswer;
  try {
    answer = await httpExchange(
      webUrl,
      path,
      'POST',
      methodCall(method),
      timeoutMs,
      { 'content-type': 'text/xml; charset=utf-8' },
      localAddress,
    );
  } catch (error) {
    return { status: 0, headers: [], body: '', error: (error as Error).message };
  }
  const body = answer.body.toString('utf8');
  return { status: answer.status, headers: answer.headers, body, ...(await decodeMethodResponse(body)) };
}

/** The value or fault of a `methodResponse` body, decoded with the `xmlrpc` package's deserializer. */
export function decodeMethodResponse(body: string): Promise<Pick<RecordedXmlRpcAnswer, 'value' | 'fault'>> {
  return new Promise((resolve) => {
    const deserializer = new Deserializer('utf8');
    deserializer.deserializeMethodResponse(
      Readable.from([Buffer.from(body, 'utf8')]),
      (error: unknown, value: unknown) => {
        if (error && typeof error === 'object' && 'faultCode' in error) {
          const fault = error as { faultCode: unknown; faultString: unknown };
          return resolve({ fault: { faultCode: fault.faultCode, faultString: fault.faultString } });
        }
        resolve(error ? {} : { value: jsonSafe(value) });
      },
    );
  });
}

function jsonSafe(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null));
}
