import xmlrpc from 'xmlrpc';

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
