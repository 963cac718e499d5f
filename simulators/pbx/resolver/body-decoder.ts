import { promisify, TextDecoder } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw } from 'node:zlib';
import iconv from 'iconv-lite';

const DECODERS = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  br: promisify(brotliDecompress),
  deflate: promisify(inflate),
  'deflate-raw': promisify(inflateRaw),
} as const;

export class BodyDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BodyDecodeError';
  }
}

/** The content codings of a `Content-Encoding` header, in the order they were applied. */
export function contentCodings(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/**
 * HTTP `deflate` is meant as zlib (RFC 1950) but some servers send raw deflate (RFC 1951);
 * browsers accept both, and so does the module here: a valid zlib header picks zlib.
 */
function isZlibWrapped(body: Buffer): boolean {
  if (body.length < 2) return true;
  const cmf = body[0] as number;
  const flg = body[1] as number;
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | flg) % 31 === 0;
}

/**
 * Undoes the content codings (RESOLVER-RESPONSE-COMPRESSED): gzip, deflate (zlib or raw) and
 * Brotli, several in reverse order. zlib's `maxOutputLength` stops decompression as soon as the
 * output passes `maxBytes`, so a compression bomb costs at most that much memory and time.
 */
export async function decompressBody(
  body: Buffer,
  codings: readonly string[],
  maxBytes: number,
): Promise<Buffer> {
  let data = body;
  for (const coding of [...codings].reverse()) {
    const key = coding === 'deflate' && !isZlibWrapped(data) ? 'deflate-raw' : coding;
    const decode = DECODERS[key as keyof typeof DECODERS];
    if (!decode) throw new BodyDecodeError(`unsupported Content-Encoding ${coding}`);
    try {
      data = await decode(data, { maxOutputLength: Math.max(1, maxBytes) });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
        throw new BodyDecodeError(`the ${coding} body decompresses to more than ${maxBytes} bytes`);
      }
      throw new BodyDecodeError(`the ${coding} body cannot be decompressed: ${(error as Error).message}`);
    }
  }
  if (data.length > maxBytes) throw new BodyDecodeError(`the body is larger than ${maxBytes} bytes`);
  return data;
}

/** The `charset` parameter of a `Content-Type` value, lower-cased, or `null`. */
export function charsetOf(contentType: string | undefined): string | null {
  if (!contentType) return null;
  const m = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType);
  return m ? (m[2] as string).toLowerCase() : null;
}

export interface DecodedText {
  text: string;
  /**
   * The encoding actually used: a WHATWG name (e.g. `utf-8`, `windows-1252`), or `iso-8859-1` /
   * `us-ascii` for the labels `decodeText` reads as true ISO-8859-1 or US-ASCII.
   */
  encoding: string;
  /** The charset the response declared, or `null`. */
  declared: string | null;
  /** Why the declared charset was not used, if it was not. */
  fallbackReason: string | null;
  /** Bytes that were not valid in the encoding were replaced by U+FFFD. */
  replaced: boolean;
}

/**
 * Labels that the WHATWG Encoding Standard maps to windows-1252 although they name ISO-8859-1:
 * windows-1252 gives bytes 0x80–0x9F other characters (0x80 is `€`), where ISO-8859-1 maps every
 * byte n to U+00nn. The module runs on Java, whose charsets keep the two apart, and
 * RESOLVER-RESPONSE-CHARSET says the declared charset decodes the body.
 */
const LATIN1_LABELS = new Set([
  'cp819',
  'csisolatin1',
  'ibm819',
  'iso-8859-1',
  'iso-ir-100',
  'iso8859-1',
  'iso88591',
  'iso_8859-1',
  'iso_8859-1:1987',
  'l1',
  'latin1',
]);

/** Labels WHATWG maps to windows-1252 although they name US-ASCII (7 bits; 0x80–0xFF are invalid). */
const ASCII_LABELS = new Set(['ansi_x3.4-1968', 'ascii', 'us-ascii']);

/** Labels of windows-1252 itself. */
const WINDOWS_1252_LABELS = new Set(['cp1252', 'windows-1252', 'x-cp1252']);

/** Decodes with a `TextDecoder` label; `null` when the runtime does not know it. */
function whatwgDecode(body: Buffer, label: string): Omit<DecodedText, 'declared' | 'fallbackReason'> | null {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label);
  } catch {
    return null;
  }
  let replaced = false;
  try {
    new TextDecoder(decoder.encoding, { fatal: true }).decode(body);
  } catch {
    replaced = true;
  }
  return { text: decoder.decode(body), encoding: decoder.encoding, replaced };
}

/**
 * Decodes the body as text (RESOLVER-RESPONSE-AS-TEXT) with the charset of `Content-Type`
 * (RESOLVER-RESPONSE-CHARSET). The ISO-8859-1 labels decode as true ISO-8859-1 (byte n is U+00nn,
 * also for 0x80–0x9F) and the US-ASCII labels as US-ASCII (a byte from 0x80 is invalid), not as
 * the windows-1252 the WHATWG standard makes of them; windows-1252 as Java's Cp1252 (through iconv-lite, on every Node
 * release); every other label as `TextDecoder` (the WHATWG Encoding Standard) does.
 * RESOLVER-UNSPEC-CHARSET: without a charset, or with one the runtime does not know, the body is
 * read as UTF-8. Invalid sequences become U+FFFD and are reported, never thrown. A UTF-8 or
 * UTF-16 BOM is dropped.
 */
export function decodeText(body: Buffer, contentType: string | undefined): DecodedText {
  const declared = charsetOf(contentType);
  if (declared !== null && LATIN1_LABELS.has(declared))
    return {
      text: body.toString('latin1'),
      encoding: 'iso-8859-1',
      declared,
      fallbackReason: null,
      replaced: false,
    };
  if (declared !== null && WINDOWS_1252_LABELS.has(declared)) {
    // Not `TextDecoder`: Node 20 decodes windows-1252 as ISO-8859-1 (0x80 becomes U+0080, not €).
    // iconv-lite decodes it as Java's Cp1252 does, the five undefined bytes as U+FFFD.
    const text = iconv.decode(body, 'windows-1252');
    return {
      text,
      encoding: 'windows-1252',
      declared,
      fallbackReason: null,
      replaced: text.includes('\uFFFD'),
    };
  }
  if (declared !== null && ASCII_LABELS.has(declared)) {
    const replaced = body.some((b) => b > 0x7f);
    const text = replaced
      ? Array.from(body, (b) => (b > 0x7f ? '\uFFFD' : String.fromCharCode(b))).join('')
      : body.toString('latin1');
    return { text, encoding: 'us-ascii', declared, fallbackReason: null, replaced };
  }
  const decoded = whatwgDecode(body, declared ?? 'utf-8');
  if (decoded) return { ...decoded, declared, fallbackReason: null };
  return {
    ...(whatwgDecode(body, 'utf-8') as Omit<DecodedText, 'declared' | 'fallbackReason'>),
    declared,
    fallbackReason: `unknown charset ${declared}`,
  };
}
