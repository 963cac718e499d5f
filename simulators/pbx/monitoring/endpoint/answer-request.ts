import { CONTENT_TYPES } from '../../snapshot/snapshot.ts';
import type { SnapshotFormat } from '../../state/types.ts';
import { httpResponse } from './http-response.ts';
import { SERVED_METHODS } from './request-head.ts';
import { selectFormat } from './select-format.ts';

/** What a connection turned out to be, once its first bytes are classified. */
export type EndpointRequest =
  | { mode: 'raw' }
  | { mode: 'http'; method: string; target: string }
  /** An HTTP head that was too large (400) or did not arrive in time (408). */
  | { mode: 'http-error'; status: 400 | 408 };

/** A rendered body; `failed` marks an error document in the format itself (MON-ERR-JSON). */
export interface Rendering {
  body: Buffer;
  failed?: boolean;
}

export interface AnswerContext {
  defaultFormat: SnapshotFormat;
  /** The current snapshot in a format, UTF-8; throws when rendering fails. */
  render(format: SnapshotFormat): Rendering;
  /** Told about a failed rendering (the endpoint writes it to the module log). */
  onRenderError?(error: unknown, format: SnapshotFormat): void;
}

const ALLOW = SERVED_METHODS.join(', ');
const ALLOW_HEADER: Readonly<Record<string, string>> = Object.freeze({ Allow: ALLOW });
const TEXT = 'text/plain; charset=utf-8';

/**
 * The socket-free core of the data endpoint: a classified request in, the bytes to write out.
 *
 * - raw: the default format without status line or headers (MON-RAW-MODE,
 *   MON-DEFAULT-FORMAT-CONFIGURABLE); a render error is exactly one line `ERROR: <text>\n`
 *   (MON-ERR-RENDER-RAW).
 * - GET and POST: `200 OK` with the selected format (MON-GET-CHECKMK, MON-GET-XML, MON-GET-JSON,
 *   MON-QUERY-FORMAT, MON-QUERY-OVERRIDES-PATH, MON-UNKNOWN-PATH, MON-UNKNOWN-FORMAT); a
 *   request body is neither awaited nor read.
 * - HEAD: the headers of the GET answer, `Content-Length` included, without body.
 * - OPTIONS: like GET plus `Allow: GET, POST, HEAD, OPTIONS`, so a client probing with OPTIONS
 *   still gets the snapshot (MON-HTTP-METHODS, MON-UNSPEC-HTTP-DETAILS).
 * - any other method: `405 Method Not Allowed` with the same `Allow` header (MON-UNSPEC-HTTP-DETAILS).
 * - a render error in HTTP mode: `500 Internal Server Error` with the `ERROR:` line as text body
 *   (MON-ERR-RENDER-HTTP).
 * - a JSON serialisation error: the renderer's `{"error": <text>}` body (MON-ERR-JSON), in HTTP
 *   mode with status `500` and the JSON content type, raw as it is (MON-UNSPEC-JSON-ERROR-STATUS).
 * Bodies are UTF-8 and the content type names the charset (MON-UTF8).
 */
export function answerRequest(request: EndpointRequest, context: AnswerContext): Buffer[] {
  if (request.mode === 'raw') {
    const rendered = tryRender(context.defaultFormat, context);
    return [rendered.ok ? rendered.rendering.body : rendered.errorLine];
  }
  if (request.mode === 'http-error') {
    const text = request.status === 400 ? 'request head too large\n' : 'request head not received in time\n';
    return httpResponse(request.status, TEXT, Buffer.from(text, 'utf8'));
  }
  if (!SERVED_METHODS.includes(request.method)) {
    return httpResponse(405, TEXT, Buffer.from(`method ${request.method} not allowed\n`, 'utf8'), {
      headers: { Allow: ALLOW },
    });
  }
  const headOnly = request.method === 'HEAD';
  const format = selectFormat(request.target, context.defaultFormat);
  const rendered = tryRender(format, context);
  if (!rendered.ok) return httpResponse(500, TEXT, rendered.errorLine, { headOnly });
  const headers = request.method === 'OPTIONS' ? ALLOW_HEADER : undefined;
  const { body, failed } = rendered.rendering;
  return httpResponse(failed ? 500 : 200, CONTENT_TYPES[format], body, { headOnly, headers });
}

type Rendered = { ok: true; rendering: Rendering } | { ok: false; errorLine: Buffer };

function tryRender(format: SnapshotFormat, context: AnswerContext): Rendered {
  try {
    return { ok: true, rendering: context.render(format) };
  } catch (error) {
    context.onRenderError?.(error, format);
    return { ok: false, errorLine: Buffer.from(`ERROR: ${errorText(error)}\n`, 'utf8') };
  }
}

/** The message on one line: the raw answer must be exactly one `ERROR:` line. */
function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.replace(/[\r\n]+/g, ' ').trim();
  return line === '' ? 'rendering failed' : line;
}
