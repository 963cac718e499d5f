import type { SnapshotFormat } from '../../state/types.ts';

const FORMAT_TOKENS: ReadonlySet<string> = new Set<SnapshotFormat>(['checkmk', 'xml', 'json']);

function isFormatToken(value: string): value is SnapshotFormat {
  return FORMAT_TOKENS.has(value);
}

/**
 * The format an HTTP request asks for (MON-GET-CHECKMK, MON-GET-XML, MON-GET-JSON,
 * MON-QUERY-FORMAT, MON-QUERY-OVERRIDES-PATH, MON-UNKNOWN-PATH, MON-UNKNOWN-FORMAT).
 *
 * - A `format` query parameter, when present, decides alone: a known token gives that format,
 *   any other value (also an empty one) gives the default format. So `/xml?format=foo` is the
 *   default format, not XML (MON-UNSPEC-PATH-FORMAT-CONFLICT): the parameter overrides the path,
 *   and an unknown parameter value means the default. With several `format` parameters the first
 *   counts.
 * - Otherwise the path `/checkmk`, `/xml` or `/json` (one trailing `/` tolerated) gives its
 *   format; every other path gives the default format. Never an error.
 * - Tokens are case-sensitive interface identifiers (`/JSON` is an unknown path). Path and query
 *   are percent-decoded before comparing, so `/%6Ason` is `/json`.
 * - Absolute-form targets (`http://host/xml`) are reduced to their path; `*` (for `OPTIONS *`)
 *   is an unknown path.
 */
export function selectFormat(requestTarget: string, defaultFormat: SnapshotFormat): SnapshotFormat {
  const hash = requestTarget.indexOf('#');
  const target = hash === -1 ? requestTarget : requestTarget.slice(0, hash);
  const question = target.indexOf('?');
  const rawPath = question === -1 ? target : target.slice(0, question);
  if (question !== -1) {
    const format = new URLSearchParams(target.slice(question + 1)).get('format');
    if (format !== null) return isFormatToken(format) ? format : defaultFormat;
  }
  const token = pathToken(rawPath);
  return token !== null && isFormatToken(token) ? token : defaultFormat;
}

/** `/json`, `/json/`, `http://host:1/json` → `json`; anything with more segments → null. */
function pathToken(rawPath: string): string | null {
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*(\/.*)?$/.exec(rawPath);
  const path = absolute ? (absolute[1] ?? '/') : rawPath;
  const match = /^\/([^/]*)\/?$/.exec(path);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
}
