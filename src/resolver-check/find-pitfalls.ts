import { readJavaRegex } from '../../simulators/pbx/index.ts';
import type { CheckedProvider, Finding, NumberCheck } from './resolver-check-report.ts';

/**
 * Pitfalls of the provider's parsers, found once: matcher constructs that Java refuses or that
 * JavaScript cannot run are errors (the real module or the check cannot use the parser),
 * constructs that may match differently are warnings, exact translations are info.
 */
export function providerFindings(provider: CheckedProvider): Finding[] {
  const findings: Finding[] = [];
  provider.parsers.forEach((parser, index) => {
    for (const note of readJavaRegex(parser.matcher).notes) {
      const severity = note.kind === 'translated' ? 'info' : note.kind === 'differs' ? 'warning' : 'error';
      const what =
        note.kind === 'java-rejects'
          ? 'the real module (Java) refuses this matcher'
          : note.kind === 'cannot-run'
            ? 'this check (JavaScript) cannot run this matcher'
            : note.kind === 'differs'
              ? 'Java and JavaScript may match differently'
              : 'translated exactly for this check';
      findings.push({
        id: 'java-regex',
        severity,
        number: null,
        message: `parser ${index}: ${what}: ${note.message}`,
      });
    }
  });
  return findings;
}

/**
 * The pitfalls issue 5 names, for one checked number: several records, `+` read as a space,
 * missing or unknown charset, redirect chains, digest handling, an answer slower than the
 * ringing budget (the provider timeout), 4xx hints; plus failures and an empty composed name.
 */
export function numberFindings(check: NumberCheck, provider: CheckedProvider): Finding[] {
  const findings: Finding[] = [];
  const add = (id: Finding['id'], severity: Finding['severity'], message: string) =>
    findings.push({ id, severity, number: check.input, message });
  const status = check.response?.status ?? null;

  if (check.outcome === 'not-resolvable') {
    add('not-resolved', 'error', `not a resolvable number: ${check.reason ?? 'anonymous or invalid'}`);
    return findings;
  }
  if (status !== null && status >= 400 && status <= 499)
    add('client-error', 'error', `HTTP ${status}: the lookup fails. ${check.hint ?? ''}`.trim());
  else if (status !== null && (status < 200 || status > 299))
    add('server-error', 'error', `HTTP ${status}: the lookup fails and the body is not evaluated`);
  else if (check.outcome === 'failed')
    add('transport', 'error', `the lookup failed: ${check.reason ?? 'unknown reason'}`);
  else if (check.outcome === 'no-result')
    add('not-resolved', 'error', `${check.reason ?? 'no result'}: no parser matched the body`);
  else if (check.name && check.name.displayName === '')
    add('empty-name', 'warning', 'resolved, but the field mappings compose an empty name');

  for (const parser of check.parsers) {
    if (parser.matchCount > 1)
      add(
        'several-records',
        'warning',
        `parser ${parser.index} matches ${parser.matchCount >= 100 ? '100 or more' : parser.matchCount} times; only the first counts, so return one record per number`,
      );
  }

  const byFormat = new Map(check.formatComparison.map((c) => [c.format, c]));
  const plus = byFormat.get('+xx');
  const zeros = byFormat.get('00xx');
  if (plus && zeros && plus.outcome !== 'resolved' && zeros.outcome === 'resolved') {
    add(
      'plus-as-space',
      provider.numberFormat === '+xx' ? 'error' : 'info',
      `the endpoint resolves ${zeros.number} but not ${plus.number}: it probably reads + as a space; choose format 00xx or read the raw query string`,
    );
  }

  if (check.response && status !== null && status >= 200 && status <= 299) {
    if (!check.response.charsetDeclared)
      add(
        'missing-charset',
        'warning',
        `no charset in Content-Type; the body was read as ${check.response.charset ?? 'utf-8'} (name it explicitly, e.g. application/json; charset=utf-8)`,
      );
    for (const line of check.log) {
      if (line.step === 'body' && /unknown charset/.test(line.message))
        add('unknown-charset', 'warning', line.message);
      if (line.step === 'body' && /U\+FFFD/.test(line.message))
        add('invalid-encoding', 'warning', line.message);
    }
  }
  for (const line of check.log)
    if (line.step === 'url' && line.level === 'warning') add('unknown-placeholder', 'warning', line.message);

  const redirects = check.hops.filter((h) => h.next === 'redirect');
  if (redirects.length > 0) {
    const chain = [...redirects.map((h) => `${h.status} ${h.url}`), check.hops.at(-1)?.url ?? ''].join(' → ');
    add(
      'redirect-chain',
      'warning',
      `${redirects.length} redirect(s) before the answer, each a round trip in the ringing time: ${chain}`,
    );
  }

  if (check.digest) {
    if (check.digest.problem) add('digest', 'error', `digest: ${check.digest.problem}`);
    else if (!check.digest.challenged)
      add(
        'digest',
        'warning',
        'authentication is Digest but the endpoint sent no challenge; no digest authorisation was used',
      );
    else
      add(
        'digest',
        'info',
        `digest: challenge ${check.digest.algorithm ?? ''}${check.digest.qop ? ', qop=auth' : ', no qop'} answered; endpoint answered ${check.digest.status ?? 'nothing'}`,
      );
  }

  if (check.timing && !check.timing.withinTimeout) {
    const connect = check.timing.connectMs === null ? 'n/a' : `${Math.round(check.timing.connectMs)} ms`;
    add(
      'slow',
      'error',
      `slower than the ringing budget: connect ${connect}, answer ${Math.round(check.timing.totalMs)} ms, timeout ${check.timing.timeoutMs} ms; the PBX waits, but the name may arrive after the phones ring`,
    );
  }
  return findings;
}
