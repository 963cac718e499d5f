/**
 * How the recording customer endpoint answers (issue 5, section 3). A behaviour is plain data
 * (apart from `body` bytes) so a scenario can set it; `EndpointConfig` picks one per path.
 */

export type Compression = 'none' | 'gzip' | 'deflate' | 'deflate-raw' | 'br';

/** Hostile answers for the reliability tests of the client (docs/resolver.md, "Limits"). */
export type HostileMode =
  /** 200, chunked, 64 KiB chunks without end. */
  | 'endless-body'
  /** 200, chunked, one byte every `dripIntervalMs` without end. */
  | 'slow-drip'
  /** 200, gzip of 32 MiB of zeros (about 32 KiB on the wire). */
  | 'compression-bomb'
  /** 200 with a 1 MiB header. */
  | 'huge-header'
  /** Announces the body's length, sends half of it and closes the connection. */
  | 'close-mid-body'
  /** 302 to the same URL. */
  | 'redirect-loop'
  /** 302 to the same path with a new `hop` query parameter, without end. */
  | 'redirect-chain'
  /** Reads the request and never answers. */
  | 'never-answer';

export type DigestAlgorithm = 'MD5' | 'MD5-sess' | 'SHA-256' | 'SHA-256-sess';

export type EndpointAuth =
  | { scheme: 'Basic'; username: string; password: string; realm?: string }
  | {
      scheme: 'Digest';
      username: string;
      password: string;
      realm?: string;
      /** One challenge per algorithm, in this order (default `['MD5']`). */
      algorithms?: DigestAlgorithm[];
      /** `none` sends an RFC 2069 challenge without qop (default `auth`). */
      qop?: 'auth' | 'none';
      userhash?: boolean;
    }
  | { scheme: 'Bearer'; token: string };

/**
 * A lookup table: the number is read from query parameter `param` (GET) or the JSON member
 * `query` (POST) and answered with its record. With `plusAsSpace` (default true, as most web
 * frameworks decode a query) a `+` in the query reads as a space: the pitfall of format `+xx`.
 */
export interface LookupTable {
  param?: string;
  records: Record<string, string>;
  plusAsSpace?: boolean;
  /** Answer for an unknown number (default 200 with body `{}`). */
  missing?: { status?: number; body?: string };
}

export interface EndpointBehaviour {
  /** Default 200. */
  status?: number;
  /** Text (sent as UTF-8) or exact bytes (e.g. Latin-1 or invalid UTF-8). */
  body?: string | Uint8Array;
  lookup?: LookupTable;
  /** Default `application/json; charset=utf-8`; `null` sends no Content-Type. */
  contentType?: string | null;
  /** More headers, sent as given (name casing kept). */
  headers?: [string, string][];
  compression?: Compression;
  /** Wait before the status line, ms. */
  delayMs?: number;
  /** A `Location` answer; `status` any 3xx (default 302), so every redirect status can be tried. */
  redirect?: { location: string; status?: number };
  auth?: EndpointAuth;
  hostile?: HostileMode;
  /** Interval of `slow-drip`, ms (default 20). */
  dripIntervalMs?: number;
}

export interface EndpointConfig {
  /** Behaviour by exact path (without query). */
  routes?: Record<string, EndpointBehaviour>;
  /** For every other path (default: 200 with body `{}`). */
  fallback?: EndpointBehaviour;
}
