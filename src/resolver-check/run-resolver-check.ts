import { relative } from 'node:path';
import type { Writable } from 'node:stream';
import {
  NUMBER_FORMATS,
  normaliseProvider,
  numberForms,
  providerSecrets,
  type ResolutionResult,
  type ResolverLimits,
  type ResolverProvider,
  resolveNumber,
  SecretMasker,
} from '../../simulators/pbx/index.ts';
import { loadCatalog } from '../catalog/load-catalog.ts';
import { HarnessError, oneLineMessage } from '../core/harness-error.ts';
import type { CompatibilityReport } from '../report/model.ts';
import { renderJson } from '../report/render-json.ts';
import { writeReports } from '../report/write-reports.ts';
import { numberFindings, providerFindings } from './find-pitfalls.ts';
import { renderCheckText } from './render-check-text.ts';
import { type CheckInput, checkInput, type ResolverCheckOptions } from './resolver-check-options.ts';
import type { CheckedProvider, NumberCheck, ResolverCheckReport } from './resolver-check-report.ts';
import { resolverCheckResult } from './resolver-check-result.ts';

export interface ResolverCheckIo {
  cwd: string;
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
}

/** Matches counted per parser for the "several records" pitfall. */
const COUNT_UP_TO = 100;

/** Characters of the body shown in the report. */
const EXCERPT_CHARS = 300;

function resolveAs(
  input: CheckInput,
  provider: ResolverProvider,
  number: string,
  limits?: Partial<ResolverLimits>,
) {
  return resolveNumber(
    { countryCode: input.countryCode, providers: [provider], addressBook: [], addressBookFallback: false },
    number,
    {
      trigger: 'settings-test',
      providerId: provider.id,
      trustedCa: input.trustedCa,
      countUpTo: COUNT_UP_TO,
      limits,
    },
  );
}

function numberCheck(result: ResolutionResult, input: CheckInput): NumberCheck {
  const attempt = result.attempts[0];
  const lookup = attempt?.lookup ?? null;
  const hops = lookup?.hops ?? [];
  const ok = lookup?.ok ? lookup : null;
  return {
    input: result.input,
    canonical: result.canonical,
    formats: numberForms(result.input, input.countryCode),
    sent: attempt?.number ?? null,
    outcome: result.state,
    reason:
      attempt?.reason ?? (result.state === 'not-resolvable' ? (result.log.at(-1)?.message ?? null) : null),
    hint: attempt?.hint ?? null,
    name: result.name,
    request: attempt?.url
      ? { method: hops[0]?.method ?? normaliseProvider(input.provider).method, url: attempt.url }
      : null,
    response: lookup
      ? {
          status: ok?.status ?? null,
          contentType: ok?.contentType ?? null,
          charset: ok?.body?.encoding ?? null,
          charsetDeclared: ok?.body
            ? ok.body.declared !== null
            : ok?.contentType
              ? /charset=/i.test(ok.contentType)
              : false,
          compression: ok?.codings ?? [],
          bytes: ok?.rawBytes ?? null,
          decodedBytes: ok?.body?.bytes ?? null,
          tlsProtocol: hops.find((h) => h.tlsProtocol)?.tlsProtocol ?? null,
          bodyExcerpt: ok?.body ? ok.body.text.slice(0, EXCERPT_CHARS) : null,
        }
      : null,
    timing: lookup
      ? {
          connectMs: lookup.timing.connectMs,
          firstByteMs: lookup.timing.firstByteMs,
          totalMs: lookup.timing.totalMs,
          timeoutMs: lookup.timing.timeoutMs,
          withinTimeout: !lookup.timing.exceeded,
        }
      : null,
    hops: hops.map((h) => ({
      method: h.method,
      url: h.url,
      status: h.status,
      next: h.next,
      location: h.location,
      connectMs: h.connectMs,
    })),
    digest: lookup?.digest ?? null,
    parsers: (attempt?.evaluation?.hits ?? []).map((h) => ({
      index: h.index,
      matcher: h.matcher,
      formatter: h.formatter,
      matched: h.matched,
      match: h.match,
      result: h.result,
      matchCount: h.matchCount,
      notes: h.notes,
      error: h.error,
    })),
    formatComparison: [],
    log: result.log.map((e) => ({ level: e.level, step: e.step, message: e.message, expert: e.expert })),
  };
}

/**
 * The core of `pbx-conformance resolver-check`: resolves each number against the integrator's
 * endpoint exactly as the simulated PBX's settings test would (RESOLVER-TRIGGER-SETTINGS-TEST),
 * with the expert search log, timings, charset and compression, every parser hit and the
 * composed name, then compares the three number formats and lists the pitfalls. Writes the text
 * rendering to `io.stdout`, or with `json` the run in the one result model (resolver-check-result.ts,
 * schemas/compatibility-report.schema.json); with `reports` also its JSON, HTML and JUnit files.
 *
 * Exit code: 0 when every number resolved and no finding has severity `error`; 1 otherwise.
 * Unusable options throw `HarnessError` (the CLI's usage exit code 2).
 */
export async function runResolverCheck(
  options: ResolverCheckOptions,
  io: ResolverCheckIo,
  limits?: Partial<ResolverLimits>,
): Promise<{ exitCode: 0 | 1; report: ResolverCheckReport; result: CompatibilityReport }> {
  const input = await checkInput(options, io);
  const catalog = await loadCatalog();
  const startedAt = new Date().toISOString();
  const provider = normaliseProvider(input.provider);
  const masker = new SecretMasker(providerSecrets(provider), {
    username: provider.fields['username']?.value ?? '',
    password: provider.fields['password']?.value ?? '',
  });
  const checked: CheckedProvider = {
    id: provider.id,
    url: provider.url,
    method: provider.method,
    numberFormat: provider.numberFormat,
    authentication: provider.authentication,
    timeoutMs: provider.timeoutMs,
    verifyCertificate: provider.verifyCertificate,
    parsers: provider.parsers.map(({ matcher, formatter }) => ({ matcher, formatter })),
    fieldMappings: provider.fieldMappings,
  };
  const findings = providerFindings(checked);
  const numbers: NumberCheck[] = [];
  for (const number of input.numbers) {
    const result = await resolveAs(input, input.provider, number, limits);
    const check = numberCheck(result, input);
    if (input.compareFormats && result.state !== 'not-resolvable') {
      for (const format of NUMBER_FORMATS) {
        const same = format === provider.numberFormat;
        const other = same
          ? result
          : await resolveAs(input, { ...input.provider, numberFormat: format }, number, limits);
        check.formatComparison.push({
          format,
          number: other.attempts[0]?.number ?? '',
          outcome: other.state,
          name: other.name?.displayName ?? null,
        });
      }
    }
    numbers.push(check);
    findings.push(...numberFindings(check, checked));
  }
  const errors = findings.filter((f) => f.severity === 'error').length;
  const resolved = numbers.filter((n) => n.outcome === 'resolved').length;
  const exitCode: 0 | 1 = errors === 0 && resolved === numbers.length ? 0 : 1;
  const report: ResolverCheckReport = masker.maskValue({
    tool: 'pbx-conformance resolver-check',
    provider: checked,
    countryCode: input.countryCode,
    numbers,
    findings,
    summary: {
      numbers: numbers.length,
      resolved,
      errors,
      warnings: findings.filter((f) => f.severity === 'warning').length,
      exitCode,
    },
  });
  const result = resolverCheckResult(report, catalog, {
    startedAt,
    finishedAt: new Date().toISOString(),
  });
  io.stdout.write(input.json ? renderJson(result) : renderCheckText(report));
  if (input.reports !== null) {
    const paths = await writeReports(result, input.reports).catch((error: unknown) => {
      throw new HarnessError(`the reports cannot be written: ${oneLineMessage(error)}`);
    });
    if (!input.json)
      io.stdout.write(
        `reports: ${[paths.json, paths.html, paths.junit].map((p) => relative(io.cwd, p) || p).join(', ')}\n`,
      );
  }
  return { exitCode, report, result };
}
