import { promisify, TextDecoder } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw } from 'node:zlib';

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
  /** The encoding actually used (WHATWG name, e.g. `utf-8`, `windows-1252`). */
  encoding: string;
  /** The charset the response declared, or `null`. */
  declared: string | null;
  /** Why the declared charset was not used, if it was not. */
  fallbackReason: string | null;
  /** Bytes that were not valid in the encoding were replaced by U+FFFD. */
  replaced: boolean;
}

/**
 * Decodes the body as text (RESOLVER-RESPONSE-AS-TEXT) with the charset of `Content-Type`
 * (RESOLVER-RESPONSE-CHARSET). RESOLVER-UNSPEC-CHARSET: without a charset, or with one the
 * runtime does not know, the body is read as UTF-8. Invalid sequences become U+FFFD and are
 * reported, never thrown. A BOM is dropped.
 */
export function decodeText(body: Buffer, contentType: string | undefined): DecodedText {
  const declared = charsetOf(contentType);
  let decoder: TextDecoder;
  let fallbackReason: string | null = null;
  try {
    decoder = new TextDecoder(declared ?? 'utf-8');
  } catch {
    fallbackReason = `unknown charset ${declared}`;
    decoder = new TextDecoder('utf-8');
  }
  let replaced = false;
  try {
    new TextDecoder(decoder.encoding, { fatal: true }).decode(body);
  } catch {
    replaced = true;
  }
  return { text: decoder.decode(body), encoding: decoder.encoding, declared, fallbackReason, replaced };
}
