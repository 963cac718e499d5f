/**
 * Issue 31 §3: the ratio each HTTP face must reach against the bare baseline measured in the same
 * run, with 0 errors. The benches print `met` or `MISSED` beside each ratio; nothing asserts them.
 */
export const FACE_GOALS = {
  /** Fleet `GET /api/v1/sites`, 200 and 304, at 1 and 32 connections. */
  sites: 0.9,
  /** The data endpoint over HTTP at 1 and 32 connections. */
  dataHttp: 0.9,
  /** Maintenance accepted commands/s at 32 connections (kept there). */
  maintenance: 0.9,
  /** Ingest events/s, controller in memory. */
  ingestMemory: 0.6,
  /** Ingest events/s, controller with `--data`. */
  ingestData: 0.4,
  /** Resolver lookups against a bare undici client on a new connection (the same exchange). */
  resolver: 0.7,
} as const;

/** `goal ≥ 0.9 met` or `goal ≥ 0.9 MISSED`: a ratio against its goal; any error misses it. */
export function goalVerdict(ratio: number, goal: number, errors = 0): string {
  return `goal ≥ ${goal.toFixed(1)} ${ratio >= goal && errors === 0 ? 'met' : 'MISSED'}`;
}
