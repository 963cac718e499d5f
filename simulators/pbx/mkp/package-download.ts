import type { IncomingMessage, ServerResponse } from 'node:http';
import { NOT_FOUND_TEXT } from '../../shared/http/web-route.ts';
import type { ModuleState } from '../state/types.ts';
import { type MonitoringPackage, monitoringPackage } from './monitoring-package.ts';
import { PACKAGE_FILE_NAME } from './package-manifest.ts';

/** Prefix of module downloads on the PBX web server: `/downloads/moduledata/<module_id>/<file>`. */
export const MODULE_DOWNLOAD_PREFIX = '/downloads/moduledata';

/** Name of the module whose id appears in the package URL (MKP-UNSPEC-PACKAGE). */
export const MONITORING_MODULE_NAME = 'Monitoring';

/**
 * The web-server route for `{base_url}/downloads/moduledata/<module_id>/pbx_monitoring.mkp`
 * (MKP-DOWNLOAD). MKP-UNSPEC-PACKAGE, the simulator's choices:
 * - `<module_id>` is the `id` of the installed module named `Monitoring` (`state.modules`, also in
 *   the JSON snapshot's `modules[]` and the `id:` facts of `<<<pbx_modules>>>`), compared exactly
 *   after percent-decoding; the file name is `pbx_monitoring.mkp`;
 * - no sign-in is needed, like any static module download, and the tile switch, the licence and
 *   the monitoring-hosts list do not matter: the package is a file of the installed module;
 * - `GET` answers `200` with `application/octet-stream`, `Content-Disposition: attachment;
 *   filename="pbx_monitoring.mkp"`, `Content-Length` and the bytes; `HEAD` the same without the
 *   body; another method `405` with `Allow: GET, HEAD`;
 * - any other module id, another module's id, another file name or a deeper path: `404` with the
 *   web server's plain `not found` text; a query string is ignored.
 *
 * The package is built once per process (`monitoringPackage`); a build failure answers `500`.
 */
export function createPackageDownloadHandler(
  modules: () => readonly ModuleState[],
  build: () => Promise<MonitoringPackage> = monitoringPackage,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    req.resume();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const rest = path.startsWith(`${MODULE_DOWNLOAD_PREFIX}/`)
      ? path.slice(MODULE_DOWNLOAD_PREFIX.length + 1)
      : '';
    const [rawId, file, ...deeper] = rest.split('/');
    const id = decode(rawId ?? '');
    const monitoring = modules().find((m) => m.name === MONITORING_MODULE_NAME);
    if (
      !monitoring ||
      id !== monitoring.id ||
      decode(file ?? '') !== PACKAGE_FILE_NAME ||
      deeper.length > 0
    ) {
      plain(res, 404, NOT_FOUND_TEXT);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      plain(res, 405, 'method not allowed\n', { allow: 'GET, HEAD' });
      return;
    }
    Promise.resolve()
      .then(() => build())
      .then(
        ({ bytes }) => {
          res.writeHead(200, {
            'content-type': 'application/octet-stream',
            'content-disposition': `attachment; filename="${PACKAGE_FILE_NAME}"`,
            'content-length': String(bytes.length),
          });
          res.end(req.method === 'HEAD' ? undefined : bytes);
        },
        (error: unknown) => {
          plain(res, 500, `ERROR: the monitoring package cannot be built: ${(error as Error).message}\n`);
        },
      );
  };
}

/** Percent-decoded path segment; `null` when the encoding is broken (never matches). */
function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function plain(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  res
    .writeHead(status, {
      'content-type': 'text/plain; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      ...extra,
    })
    .end(text);
}
