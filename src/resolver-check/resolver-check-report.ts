import type {
  NumberFormat,
  RegexNote,
  ResolvedName,
  SearchLogLevel,
  SearchStep,
} from '../../simulators/pbx/index.ts';

/**
 * The diagnosis of one `pbx-conformance resolver-check` run: what the text rendering shows. Its
 * JSON, HTML and JUnit go through the one result model (resolver-check-result.ts).
 */
export interface ResolverCheckReport {
  tool: 'pbx-conformance resolver-check';
  provider: CheckedProvider;
  countryCode: string;
  numbers: NumberCheck[];
  findings: Finding[];
  summary: { numbers: number; resolved: number; errors: number; warnings: number; exitCode: 0 | 1 };
}

export interface CheckedProvider {
  id: string;
  url: string;
  method: 'GET' | 'POST';
  numberFormat: NumberFormat;
  authentication: 'None' | 'Basic' | 'Digest' | 'Bearer';
  timeoutMs: number;
  verifyCertificate: boolean;
  parsers: { matcher: string; formatter: string }[];
  fieldMappings: { firstName: string; lastName: string; company: string };
}

export type Outcome = 'resolved' | 'no-result' | 'failed' | 'not-resolvable';

export interface NumberCheck {
  input: string;
  canonical: string | null;
  formats: Record<NumberFormat, string> | null;
  /** The number as sent, in the provider's format. */
  sent: string | null;
  outcome: Outcome;
  reason: string | null;
  hint: string | null;
  name: ResolvedName | null;
  request: { method: string; url: string } | null;
  response: {
    status: number | null;
    contentType: string | null;
    charset: string | null;
    charsetDeclared: boolean;
    compression: string[];
    bytes: number | null;
    decodedBytes: number | null;
    tlsProtocol: string | null;
    bodyExcerpt: string | null;
  } | null;
  timing: {
    connectMs: number | null;
    firstByteMs: number | null;
    totalMs: number;
    timeoutMs: number;
    withinTimeout: boolean;
  } | null;
  hops: {
    method: string;
    url: string;
    status: number;
    next: 'redirect' | 'digest' | null;
    location: string | null;
    connectMs: number | null;
  }[];
  digest: {
    challenged: boolean;
    algorithm: string | null;
    qop: string | null;
    status: number | null;
    problem: string | null;
  } | null;
  parsers: {
    index: number;
    matcher: string;
    formatter: string;
    matched: boolean;
    match: string | null;
    result: string;
    matchCount: number;
    notes: RegexNote[];
    error: string | null;
  }[];
  formatComparison: { format: NumberFormat; number: string; outcome: Outcome; name: string | null }[];
  log: { level: SearchLogLevel; step: SearchStep; message: string; expert: boolean }[];
}

export type FindingId =
  | 'not-resolved'
  | 'client-error'
  | 'server-error'
  | 'transport'
  | 'several-records'
  | 'plus-as-space'
  | 'missing-charset'
  | 'unknown-charset'
  | 'invalid-encoding'
  | 'redirect-chain'
  | 'digest'
  | 'slow'
  | 'java-regex'
  | 'empty-name'
  | 'unknown-placeholder';

export interface Finding {
  id: FindingId;
  severity: 'error' | 'warning' | 'info';
  /** The number it concerns (input form), or `null` for the provider as a whole. */
  number: string | null;
  message: string;
}
