/**
 * The browser-style header set of GET requests (RESOLVER-GET-USER-AGENT, RESOLVER-GET-ACCEPT,
 * RESOLVER-GET-ACCEPT-ENCODING, RESOLVER-GET-ACCEPT-LANGUAGE, RESOLVER-GET-NO-CACHE).
 * RESOLVER-UNSPEC-HEADER-STRINGS: the strings are those of Chrome 107 on Windows 10 (its
 * navigation `accept`), with a German-first `accept-language`; names are sent in lower case in
 * this order, after undici's `host` and before `connection` (docs/resolver.md, "Request headers").
 */
export const BROWSER_HEADERS: readonly (readonly [string, string])[] = [
  [
    'user-agent',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/107.0.0.0 Safari/537.36',
  ],
  [
    'accept',
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.9',
  ],
  ['accept-encoding', 'gzip, deflate, br'],
  ['accept-language', 'de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7'],
  ['cache-control', 'no-cache'],
  ['pragma', 'no-cache'],
];

/** RESOLVER-POST-CONTENT-TYPE. */
export const POST_CONTENT_TYPE = 'application/json';

/**
 * The fixed POST body (RESOLVER-POST-BODY): exactly `{"query":"<number>"}`, no spaces, UTF-8.
 * A number only holds `+` and digits, so JSON escaping never changes it.
 */
export function postBody(number: string): string {
  return JSON.stringify({ query: number });
}

/**
 * The headers of a request before authentication. RESOLVER-UNSPEC-POST-HEADERS: a POST carries
 * the same browser set plus `content-type: application/json` (undici adds `content-length`),
 * since one client profile serves both methods and the answer may be compressed either way.
 */
export function requestHeaders(method: 'GET' | 'POST'): [string, string][] {
  const headers = BROWSER_HEADERS.map(([name, value]) => [name, value] as [string, string]);
  if (method === 'POST') headers.push(['content-type', POST_CONTENT_TYPE]);
  return headers;
}
