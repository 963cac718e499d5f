import type { TargetEndpoint } from './target-endpoints.ts';
import type { Probe, ProbeOutcome } from './tcp-probe.ts';

/** How long one connection attempt may take before its endpoint counts as unreachable. */
export const PREFLIGHT_TIMEOUT_MS = 3_000;

export interface ProbedEndpoint {
  endpoint: TargetEndpoint;
  outcome: ProbeOutcome;
}

/**
 * What the preflight decides: the run goes on (with one warning per endpoint that did not
 * answer), or nothing the target file names answers, which is a harness error, not a verdict.
 */
export type PreflightVerdict =
  | { kind: 'proceed'; warnings: string[] }
  | { kind: 'unreachable'; message: string };

/** Probes every endpoint at once (so the preflight costs one timeout at most) and judges the result. */
export async function preflight(
  endpoints: TargetEndpoint[],
  probe: Probe,
  timeoutMs = PREFLIGHT_TIMEOUT_MS,
): Promise<PreflightVerdict> {
  const probed = await Promise.all(
    endpoints.map(async (endpoint) => ({
      endpoint,
      outcome: await probe(endpoint.host, endpoint.port, timeoutMs),
    })),
  );
  return judgePreflight(probed);
}

/**
 * The decision alone. Some endpoints answering and others not is a partly working target: its
 * scenarios run and show the failures with evidence (a finding). When nothing answers, every
 * scenario would fail for the same harness-side reason, so the run stops. The data endpoint is
 * no exception to "nothing answers", but a closed data endpoint next to answering web servers is
 * only a warning, as it may be closed on purpose.
 */
export function judgePreflight(probed: ProbedEndpoint[]): PreflightVerdict {
  const down = probed.filter((p) => !p.outcome.reachable);
  if (probed.length > 0 && down.length === probed.length) {
    return { kind: 'unreachable', message: `target unreachable: ${down.map(describe).join(', ')}` };
  }
  return {
    kind: 'proceed',
    warnings: down.map(
      (p) =>
        `warning: ${describe(p)}${p.endpoint.mayBeClosed ? ' (a data endpoint may be closed on purpose)' : ''}`,
    ),
  };
}

function describe({ endpoint, outcome }: ProbedEndpoint): string {
  const reason = outcome.reachable ? 'answers' : `does not answer: ${outcome.reason}`;
  return `${endpoint.names.join('/')} ${formatAddress(endpoint.host, endpoint.port)} ${reason}`;
}

function formatAddress(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
