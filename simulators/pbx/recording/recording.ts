/**
 * The recording of a PBX (schemas/pbx-recording.schema.json), as `pbx-conformance record` writes
 * it and `simulate --recording` replays it. One file holds one device on one timeline: a list of
 * samples (`--repeat N --every 60s`), each with every face that was fetched.
 *
 * Kept beside the simulated PBX because the replay reads it; the recorder (src/record/) writes it.
 */

export const RECORDING_FORMAT = 'pbx-conformance-recording';
export const RECORDING_VERSION = 1;

/** Bytes as recorded: UTF-8 text when the bytes are valid UTF-8, else base64. */
export type RecordedBytes = { text: string } | { base64: string };

/** How a connection ended (who closed it, and how). */
export interface RecordedClose {
  /** `server`: the PBX ended or reset the connection; `client`: the recorder gave up waiting. */
  by: 'server' | 'client';
  /** `fin`: an orderly end; `reset`: a TCP reset; `timeout`: no end within the recorder's limit. */
  how: 'fin' | 'reset' | 'timeout';
  /** Milliseconds from the connect (raw) or from the request sent (HTTP) to the close. */
  atMs: number;
}

/**
 * Everything one TCP exchange delivered: the bytes, their SHA-256, the timing of each chunk as it
 * arrived (milliseconds from the connect for raw, from the request sent for HTTP) and the close.
 */
export interface RecordedStream {
  bytes: RecordedBytes;
  sha256: string;
  length: number;
  /** Milliseconds from the connect attempt to the established connection. */
  connectMs: number;
  chunks: { atMs: number; length: number }[];
  close: RecordedClose;
}

/** One HTTP fetch on the data endpoint: the request line sent and the whole answer, head included. */
export interface RecordedHttpFetch extends RecordedStream {
  /** Method and request target, e.g. `GET /checkmk` or `GET /?format=json`. */
  request: string;
  /** The status line, when the answer starts with one. */
  statusLine?: string;
  /** The header lines in order, as written. */
  headers?: [string, string][];
  /** Offset of the body within `bytes` (after the blank line), when there was a head. */
  bodyOffset?: number;
}

/** One XML-RPC answer: HTTP status, headers and the raw `methodResponse` body, decoded too. */
export interface RecordedXmlRpcAnswer {
  status: number;
  headers: [string, string][];
  body: string;
  /** The decoded value, e.g. `{ data: "<<<monitor_agent>>>…" }`, when it was no fault. */
  value?: unknown;
  fault?: { faultCode: unknown; faultString: unknown };
  /** A transport error instead of an answer. */
  error?: string;
}

export interface RecordedHttpAnswer {
  status: number;
  headers: [string, string][];
  body: string;
}

export interface RecordingSample {
  /** Milliseconds from the first sample. */
  atMs: number;
  recordedAt: string;
  dataEndpoint?: {
    /** A connection that sent nothing: what a Checkmk fetcher sees. */
    raw?: RecordedStream;
    http: RecordedHttpFetch[];
    error?: string;
  };
  xmlrpc?: {
    getMonitoringData?: RecordedXmlRpcAnswer;
    getMonitoringDataXml?: RecordedXmlRpcAnswer;
    isActiveDirectoryEnabled?: RecordedXmlRpcAnswer;
    /** `GetMonitoringData` with a wrong secret: the PBX's fault. */
    wrongLogin?: RecordedXmlRpcAnswer;
  };
  /** The maintenance API's command list (GET only), recorded only when a token was given. */
  maintenance?: { commandList: RecordedHttpAnswer | { error: string } };
  /** The monitoring package download, as a hash. */
  package?: { status: number; sha256?: string; length?: number; error?: string };
}

export interface Recording {
  format: typeof RECORDING_FORMAT;
  version: typeof RECORDING_VERSION;
  recordedAt: string;
  tool: { name: string; version: string };
  /** The target's name (pseudonymised) and the XML-RPC instance name the methods were called under. */
  target: { name: string; instanceName: string };
  redaction: RedactionSummary;
  samples: RecordingSample[];
}

export interface RedactionSummary {
  /** `per-run`: pseudonyms from a key made for this run; `given`: from the user's key. */
  key: 'per-run' | 'given';
  /** Names of the rules from the rule file, if any. */
  rules: string[];
  /** Replacements made, by kind (credential, host, serial, address, user, phone, channel, rule:<name>). */
  counts: Record<string, number>;
}

/** The bytes of a recorded stream. */
export function streamBytes(stream: { bytes: RecordedBytes }): Buffer {
  return 'text' in stream.bytes
    ? Buffer.from(stream.bytes.text, 'utf8')
    : Buffer.from(stream.bytes.base64, 'base64');
}

/** Stores bytes as text when they are valid UTF-8 (so a recording diffs well), else as base64. */
export function toRecordedBytes(bytes: Buffer): RecordedBytes {
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? { text } : { base64: bytes.toString('base64') };
}

/** The body of a recorded HTTP fetch (everything after the head), or all bytes without a head. */
export function fetchBody(fetch: RecordedHttpFetch): Buffer {
  return streamBytes(fetch).subarray(fetch.bodyOffset ?? 0);
}

/** The sample that stands at `elapsedMs` after the replay started: the last one not after it. */
export function sampleAt(recording: Recording, elapsedMs: number): RecordingSample | undefined {
  let current = recording.samples[0];
  for (const sample of recording.samples) if (sample.atMs <= elapsedMs) current = sample;
  return current;
}
