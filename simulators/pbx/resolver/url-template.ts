import type { ProviderField } from '../state/provider-config.ts';

/** What the template substitution and encoding made of a provider URL. */
export interface BuiltUrl {
  /** `scheme://authority` of the request. */
  origin: string;
  /** Path and query exactly as sent on the request line (the "encoded URI"). */
  path: string;
  /** `origin + path`. */
  url: string;
  /** The same URL with every secret value shown as `***` (search log, reports). */
  displayUrl: string;
  /** The URL after substitution and before encoding, secrets as `***` (the search log's URL line). */
  substitutedUrl: string;
  /** Placeholders that named no field, in order of appearance. */
  unknownPlaceholders: string[];
}

export class UrlTemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UrlTemplateError';
  }
}

interface Piece {
  text: string;
  /** Replacement text (a value) rather than template text. */
  value: boolean;
  secret: boolean;
}

const HEX = '0123456789ABCDEF';

/** RFC 3986 unreserved characters, plus `+` which the module never encodes (RESOLVER-URL-PLUS). */
const VALUE_KEEP = /[A-Za-z0-9\-._~+]/;

/** Characters RFC 3986 allows in a URI as they are (unreserved, gen-delims, sub-delims). */
const TEMPLATE_KEEP = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]/;

/** Text made only of characters that stay as they are: the encodings return it unchanged. */
const VALUE_ALL_KEPT = /^[A-Za-z0-9\-._~+]*$/;
const TEMPLATE_ALL_KEPT = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]*$/;

function percentEncode(char: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(char)) out += `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  return out;
}

/**
 * Encodes replacement text (RESOLVER-URL-ENCODING, RESOLVER-UNSPEC-URL-ENCODING): every
 * character but the RFC 3986 unreserved ones and `+` becomes UTF-8 `%XX` (upper-case hex), so a
 * value can never add a query parameter or a path segment: space is `%20` (never `+`), `%` is
 * `%25` (a value is data, never taken as already encoded), and `+` stays `+` (RESOLVER-URL-PLUS).
 */
export function encodeValue(text: string): string {
  // Most values (a number, a token) need nothing encoded: one test instead of one per character.
  if (VALUE_ALL_KEPT.test(text)) return text;
  let out = '';
  for (const char of text) out += VALUE_KEEP.test(char) ? char : percentEncode(char);
  return out;
}

/**
 * Encodes template text: characters a URI may carry stay (so `?`, `&`, `=` and `/` keep their
 * structure), as does a `%` that starts a valid `%XX`; anything else (space, `"`, `{`, `}`,
 * non-ASCII, controls, a lone `%`) becomes UTF-8 `%XX`.
 */
export function encodeTemplateText(text: string): string {
  // A template is mostly URI characters already (no `%`: one not starting `%XX` is encoded).
  if (TEMPLATE_ALL_KEPT.test(text)) return text;
  let out = '';
  const chars = [...text];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i] as string;
    if (char === '%' && /^[0-9A-Fa-f]{2}$/.test((chars[i + 1] ?? '') + (chars[i + 2] ?? ''))) out += char;
    else out += TEMPLATE_KEEP.test(char) ? char : percentEncode(char);
  }
  return out;
}

/**
 * Splits the template at its placeholders and fills them in one pass by plain string
 * replacement (RESOLVER-PH-TEL, RESOLVER-PH-FIELD, RESOLVER-PH-PREFIX-SUFFIX): the replacement is
 * never read as a pattern (`$&`, `$1` stay literal) and never scanned again for placeholders.
 * `{tel}` is always the number. RESOLVER-UNSPEC-EMPTY-PLACEHOLDER: a field with an empty value
 * gives the empty string, without its prefix and suffix; a placeholder naming no field stays as
 * written (and is then encoded as template text, `{x}` → `%7Bx%7D`).
 */
function substitute(
  template: string,
  tel: string,
  fields: Readonly<Record<string, ProviderField>>,
  secretIds: ReadonlySet<string>,
  unknown: string[],
): Piece[] {
  const pieces: Piece[] = [];
  let rest = 0;
  const placeholder = /\{([A-Za-z0-9_.-]+)\}/g;
  for (let m = placeholder.exec(template); m !== null; m = placeholder.exec(template)) {
    const name = m[1] as string;
    let replacement: Piece | undefined;
    if (name === 'tel') replacement = { text: tel, value: true, secret: false };
    else if (Object.hasOwn(fields, name)) {
      const field = fields[name] as ProviderField;
      const text = field.value === '' ? '' : `${field.prefix ?? ''}${field.value}${field.suffix ?? ''}`;
      replacement = { text, value: true, secret: secretIds.has(name) && field.value !== '' };
    } else unknown.push(name);
    if (!replacement) continue;
    pieces.push({ text: template.slice(rest, m.index), value: false, secret: false }, replacement);
    rest = m.index + m[0].length;
  }
  pieces.push({ text: template.slice(rest), value: false, secret: false });
  return pieces;
}

/**
 * Builds the request URL of a provider (web-resolver.md, "Placeholders in the URL"): substitution
 * first, then encoding of what was substituted and of characters the template may not carry
 * (docs/resolver.md, "URL encoding"). The same substitution builds the URL of GET and POST
 * providers alike: the method plays no part here (RESOLVER-PH-POST-URL). A fragment (`#…` in the
 * template) is dropped, as it never goes on the wire. Throws `UrlTemplateError` when the result is
 * no http(s) URL.
 */
export function buildUrl(
  template: string,
  tel: string,
  fields: Readonly<Record<string, ProviderField>> = {},
  secretIds: ReadonlySet<string> = new Set(),
): BuiltUrl {
  const unknownPlaceholders: string[] = [];
  const pieces = substitute(template.trim(), tel, fields, secretIds, unknownPlaceholders);
  // Each piece encoded once, for the URL sent and the one shown (issue 31 §3).
  const encodedPieces = pieces.map((p) => (p.value ? encodeValue(p.text) : encodeTemplateText(p.text)));
  const encoded = encodedPieces.join('');
  const display = pieces.map((p, i) => (p.secret ? '***' : encodedPieces[i])).join('');
  const substitutedUrl = pieces.map((p) => (p.secret ? '***' : p.text)).join('');
  const split = (text: string) => {
    const m = /^(https?):\/\/([^/?#]+)([^#]*)/i.exec(text);
    if (!m) return null;
    const rest = m[3] as string;
    return {
      origin: `${(m[1] as string).toLowerCase()}://${m[2]}`,
      path: rest.startsWith('/') ? rest : `/${rest}`,
    };
  };
  const real = split(encoded);
  const shown = split(display);
  if (!real || !shown) throw new UrlTemplateError(`the URL ${display} is not an http or https URL`);
  let origin: string;
  try {
    const parsed = new URL(real.origin);
    if (parsed.username !== '' || parsed.password !== '')
      throw new UrlTemplateError('user information in the URL is not supported; use authentication Basic');
    origin = parsed.origin;
  } catch (error) {
    if (error instanceof UrlTemplateError) throw error;
    throw new UrlTemplateError(`the URL ${display} has an invalid host or port`);
  }
  return {
    origin,
    path: real.path,
    url: origin + real.path,
    displayUrl: shown.origin + shown.path,
    substitutedUrl,
    unknownPlaceholders,
  };
}
