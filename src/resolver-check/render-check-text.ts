import type { NumberCheck, ResolverCheckReport } from './resolver-check-report.ts';

const ms = (value: number | null) => (value === null ? 'n/a' : `${Math.round(value)} ms`);

function renderNumber(check: NumberCheck): string[] {
  const lines: string[] = [];
  const title = check.name
    ? `${check.outcome.toUpperCase()} ${JSON.stringify(check.name.displayName)}`
    : check.outcome.toUpperCase();
  lines.push(`Number ${check.input}${check.sent ? ` → sent as ${check.sent}` : ''}: ${title}`);
  if (check.reason && check.outcome !== 'resolved') lines.push(`  reason    ${check.reason}`);
  if (check.hint) lines.push(`  hint      ${check.hint}`);
  if (check.request) lines.push(`  request   ${check.request.method} ${check.request.url}`);
  for (const hop of check.hops.filter((h) => h.next !== null))
    lines.push(
      `  ${hop.next === 'redirect' ? 'redirect ' : 'digest   '} ${hop.status} ${hop.url}${hop.location ? ` → ${hop.location}` : ''}`,
    );
  const r = check.response;
  if (r) {
    const parts = [
      r.status === null ? 'no answer' : `HTTP ${r.status}`,
      r.contentType ?? 'no Content-Type',
      `charset ${r.charset ?? 'n/a'}${r.charsetDeclared ? '' : ' (not declared)'}`,
      r.compression.length ? `compression ${r.compression.join('+')}` : 'uncompressed',
    ];
    if (r.bytes !== null)
      parts.push(
        `${r.bytes} bytes${r.decodedBytes !== null && r.compression.length ? ` (${r.decodedBytes} decoded)` : ''}`,
      );
    if (r.tlsProtocol) parts.push(r.tlsProtocol);
    lines.push(`  response  ${parts.join(', ')}`);
  }
  if (check.timing) {
    const t = check.timing;
    lines.push(
      `  timing    connect ${ms(t.connectMs)}, first byte ${ms(t.firstByteMs)}, total ${ms(t.totalMs)}; timeout ${t.timeoutMs} ms: ${t.withinTimeout ? 'within' : 'EXCEEDED'}`,
    );
  }
  for (const p of check.parsers) {
    const result = p.error
      ? `cannot run: ${p.error}`
      : p.matched
        ? `{${p.index}} = ${JSON.stringify(p.result)} (${p.matchCount >= 100 ? '100+' : p.matchCount} match${p.matchCount === 1 ? '' : 'es'})`
        : 'no match';
    lines.push(`  parser ${p.index}  ${p.matcher} → ${result}`);
  }
  if (check.name)
    lines.push(
      `  name      first ${JSON.stringify(check.name.firstName)}, last ${JSON.stringify(check.name.lastName)}, company ${JSON.stringify(check.name.company)}`,
    );
  if (check.formatComparison.length)
    lines.push(
      `  formats   ${check.formatComparison.map((c) => `${c.format} ${c.number}: ${c.outcome}`).join(' | ')}`,
    );
  lines.push('  search log:');
  for (const line of check.log)
    lines.push(`    ${line.level.padEnd(7)} ${line.step.padEnd(11)} ${line.message}`);
  return lines;
}

/** The human rendering of a resolver-check report. */
export function renderCheckText(report: ResolverCheckReport): string {
  const p = report.provider;
  const lines = [
    `resolver-check: provider ${p.id} — ${p.method} ${p.url}`,
    `  format ${p.numberFormat}, authentication ${p.authentication}, timeout ${p.timeoutMs} ms, certificate check ${p.verifyCertificate ? 'on' : 'off'}, country code ${report.countryCode}`,
    '',
  ];
  for (const check of report.numbers) lines.push(...renderNumber(check), '');
  lines.push(report.findings.length ? 'Findings:' : 'Findings: none');
  for (const f of report.findings)
    lines.push(
      `  ${f.severity.toUpperCase().padEnd(7)} [${f.id}]${f.number ? ` ${f.number}:` : ''} ${f.message}`,
    );
  const s = report.summary;
  lines.push(
    '',
    `${s.numbers} number(s), ${s.resolved} resolved, ${s.errors} error(s), ${s.warnings} warning(s): exit code ${s.exitCode}`,
  );
  return `${lines.join('\n')}\n`;
}
