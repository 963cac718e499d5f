/*
 * The socket-free core's request and answer, apart from the core itself so that the parts it uses
 * (the cached site list) can name them without importing the core.
 */

/** A request as the socket-free core takes it; header names in lower case. */
export interface ApiRequest {
  method: string;
  /** Path and query, e.g. `/api/v1/sites?x=1`. */
  url: string;
  headers: Record<string, string | undefined>;
  body?: Buffer;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** Absent for 304, 401 and 404 (FLEET-UNSPEC-401-404-BODY). */
  body?: string;
  /** `body` already encoded as UTF-8, when the core keeps it so (a cached site list); sent as is. */
  bytes?: Buffer;
  /**
   * The body's bytes as consecutive blocks, when the core keeps them so (a cached site list at
   * scale, issue 31 §4): written one after the other with one `writev`, in place of `bytes`.
   */
  chunks?: readonly Buffer[];
  /**
   * Every header of the answer as a name, value, name, value list, `Content-Length` included,
   * when the core keeps the whole answer ready (a cached site list): written as it is, in place of
   * `headers`, which then says the same.
   */
  rawHeaders?: readonly string[];
}
