import type { RecordedRequest } from '../../../simulators/customer-endpoint/index.ts';

/**
 * Checks of the browser-style GET header set (RESOLVER-GET-USER-AGENT, RESOLVER-GET-ACCEPT,
 * RESOLVER-GET-ACCEPT-ENCODING, RESOLVER-GET-ACCEPT-LANGUAGE, RESOLVER-GET-NO-CACHE). The exact
 * strings, their order and the name casing are open (RESOLVER-UNSPEC-HEADER-STRINGS), so each
 * check reads what a value says, not how it is spelled. Each returns the problems found (empty: fine).
 */

/** Every value of header `name` (case-insensitive), in the order received. */
export function headerValues(record: Pick<RecordedRequest, 'headers'>, name: string): string[] {
  const lower = name.toLowerCase();
  return record.headers.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
}

/** The one value of header `name`, or a problem when it is missing or repeated. */
export function singleHeader(
  record: Pick<RecordedRequest, 'headers'>,
  name: string,
): string | { problem: string } {
  const values = headerValues(record, name);
  if (values.length === 0) return { problem: `no ${name} header` };
  if (values.length > 1) return { problem: `${values.length} ${name} headers: ${JSON.stringify(values)}` };
  return values[0] as string;
}

/** Desktop platforms as browsers name them in the first comment of their user-agent. */
const DESKTOP_PLATFORM = /^[^(]*\([^)]*\b(Windows NT \d|Macintosh|X11|CrOS)/;
const MOBILE = /\b(Mobile|Android|iPhone|iPad|iPod|Windows Phone)\b/;
/** Browser product tokens that carry the browser's version. */
const BROWSER_PRODUCT = /\b(Chrome|Chromium|Firefox|Edg|Edge|OPR)\/(\d+)(?:[.\s]|$)/g;

/**
 * RESOLVER-GET-USER-AGENT: a desktop browser's user-agent (`Mozilla/5.0 (<desktop platform>) …`,
 * no mobile token) whose browser product has major version `version`.
 */
export function userAgentProblems(userAgent: string, version: number): string[] {
  const problems: string[] = [];
  if (!/^Mozilla\/5\.0 \(/.test(userAgent))
    problems.push('it does not start like a browser user-agent (Mozilla/5.0 (…))');
  if (!DESKTOP_PLATFORM.test(userAgent))
    problems.push('it names no desktop platform (Windows NT, Macintosh, X11, CrOS)');
  if (MOBILE.test(userAgent)) problems.push('it names a mobile device');
  const products = [...userAgent.matchAll(BROWSER_PRODUCT)];
  if (products.length === 0)
    problems.push('it names no browser product (Chrome, Firefox, Edge, Opera) with a version');
  else if (!products.some((m) => Number(m[2]) === version))
    problems.push(
      `its browser version is ${products.map((m) => `${m[1]}/${m[2]}`).join(', ')}, not ${version}`,
    );
  return problems;
}

interface Range {
  value: string;
  q: number;
}

/** Splits a comma list with `;q=` weights (accept, accept-language); a range without q has 1. */
export function weightedList(header: string): Range[] {
  return header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const [value = '', ...params] = part.split(';').map((p) => p.trim());
      const q = params.map((p) => /^q\s*=\s*([0-9.]+)$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { value: value.toLowerCase(), q: q === undefined ? 1 : Number(q) };
    });
}

/** RESOLVER-GET-ACCEPT: names HTML (`text/html`) and an XML type (`application/xml`, `text/xml` or `…+xml`), each with q > 0. */
export function acceptProblems(accept: string): string[] {
  const ranges = weightedList(accept).filter((r) => r.q > 0);
  const problems: string[] = [];
  if (!ranges.some((r) => r.value === 'text/html')) problems.push('it does not accept text/html');
  if (
    !ranges.some(
      (r) =>
        r.value === 'application/xml' ||
        r.value === 'text/xml' ||
        /^[a-z]+\/[a-z0-9.+-]*\+xml$/.test(r.value),
    )
  )
    problems.push('it accepts no XML type (application/xml, text/xml or a +xml type)');
  return problems;
}

/** RESOLVER-GET-ACCEPT-LANGUAGE: German is the first language and the preferred one; English comes next. */
export function acceptLanguageProblems(acceptLanguage: string): string[] {
  const ranges = weightedList(acceptLanguage).filter((r) => r.q > 0);
  const primary = (r: Range) => r.value.split('-')[0] ?? '';
  const order: string[] = [];
  for (const range of ranges) if (!order.includes(primary(range))) order.push(primary(range));
  const problems: string[] = [];
  if (order[0] !== 'de') problems.push(`the first language is ${order[0] ?? 'none'}, not German`);
  if (order[1] !== 'en') problems.push(`the language after German is ${order[1] ?? 'none'}, not English`);
  const best = (lang: string) => Math.max(0, ...ranges.filter((r) => primary(r) === lang).map((r) => r.q));
  if (best('de') < best('en')) problems.push('English is weighted above German');
  return problems;
}

/**
 * The elements of a comma-separated header value, in order, lower-cased and without white space,
 * parameters kept: `GZip , deflate;q=0.5` gives `gzip`, `deflate;q=0.5`. Comparing these with the
 * elements of an expected value checks it exactly up to case and white space.
 */
export function listElements(value: string): string[] {
  return value.split(',').map((element) => element.replace(/\s+/g, '').toLowerCase());
}

/** The media type of a Content-Type value, lower case, without parameters. */
export function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}
