/**
 * Hard safety limits of the client, so a hostile or broken endpoint can neither hang nor crash
 * it (docs/resolver.md, "Limits"). They are not part of the spec; a request that hits one ends
 * as `failed` with a log line naming the limit. Tests lower them to stay fast.
 */
export interface ResolverLimits {
  /** Whole lookup of one provider: connect, redirects, digest round trip, body. */
  totalMs: number;
  /** Body bytes as received (compressed), per response. */
  maxRawBodyBytes: number;
  /** Body bytes after decompression, checked while decompressing (compression bombs). */
  maxDecodedBodyBytes: number;
  /** Size of the response head (status line and headers). */
  maxHeaderBytes: number;
  /** Redirects followed per lookup (RESOLVER-UNSPEC-REDIRECTS). */
  maxRedirects: number;
  /** Run time of one matcher on one body before it is stopped. */
  matcherMs: number;
}

export const DEFAULT_LIMITS: Readonly<ResolverLimits> = Object.freeze({
  totalMs: 10_000,
  maxRawBodyBytes: 1024 * 1024,
  maxDecodedBodyBytes: 1024 * 1024,
  maxHeaderBytes: 32 * 1024,
  maxRedirects: 5,
  matcherMs: 1000,
});

/** Defaults overridden by `overrides`; non-positive or non-finite overrides are ignored. */
export function resolveLimits(overrides: Partial<ResolverLimits> = {}): ResolverLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(limits) as (keyof ResolverLimits)[]) {
    const value = overrides[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) limits[key] = value;
  }
  return limits;
}
